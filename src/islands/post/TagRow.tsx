/**
 * The post's tags on one line; when they do not fit, 'Show all »' shows every row and turns into
 * '« Hide'. The toggle appears only when the row overflows (measured again on resize).
 */
import { useEffect, useRef, useState } from 'react';

interface Props {
  tags: { tag: string; url: string }[];
}

export default function TagRow({ tags }: Props) {
  const list = useRef<HTMLUListElement>(null);
  const [overflows, setOverflows] = useState(false);
  const [expanded, setExpanded] = useState(false);

  useEffect(() => {
    const element = list.current;
    if (!element || expanded) return;
    const measure = () => setOverflows(element.scrollHeight > element.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [expanded]);

  return (
    <div className="post-tags">
      <ul ref={list} id="post-tags-list" className={expanded ? 'post-tags__list is-expanded' : 'post-tags__list'} aria-label="Tags">
        {tags.map(({ tag, url }) => (
          <li key={tag}>
            <a href={url}>{tag}</a>
          </li>
        ))}
      </ul>
      {(overflows || expanded) && (
        <button type="button" className="post-tags__toggle" aria-expanded={expanded} aria-controls="post-tags-list" onClick={() => setExpanded(!expanded)}>
          {expanded ? '« Hide' : 'Show all »'}
        </button>
      )}
    </div>
  );
}
