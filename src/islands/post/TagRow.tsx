/**
 * The post's tags on one line; when they do not fit, 'Show all »' shows every row and turns into
 * '« Hide'. The toggle appears only when the row overflows (measured again on resize). While the row
 * is collapsed, the tags that wrapped out of sight are hidden (`is-clipped`: visibility hidden), so they
 * are neither tab stops nor in the accessibility tree; 'Show all »' brings them back.
 */
import { useEffect, useRef, useState } from 'react';
import { HideTagButton } from '@site/components/archive/HideButton.tsx';

interface Props {
  tags: { tag: string; url: string }[];
}

/** How many tags sit on the list's first row (the others wrapped below its clipped height). */
function countFirstRow(list: HTMLUListElement): number {
  const items = Array.from(list.children) as HTMLElement[];
  const top = items[0]?.offsetTop ?? 0;
  const wrapped = items.findIndex((item) => item.offsetTop > top);
  return wrapped === -1 ? items.length : wrapped;
}

export default function TagRow({ tags }: Props) {
  const list = useRef<HTMLUListElement>(null);
  const [overflows, setOverflows] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const [shown, setShown] = useState(tags.length);

  useEffect(() => {
    const element = list.current;
    if (!element || expanded) return;
    const measure = () => {
      setOverflows(element.scrollHeight > element.clientHeight + 1);
      setShown(countFirstRow(element));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [expanded]);

  return (
    <div className="post-tags">
      <ul ref={list} id="post-tags-list" className={expanded ? 'post-tags__list is-expanded' : 'post-tags__list'} aria-label="Tags">
        {tags.map(({ tag, url }, index) => (
          <li key={tag} className={!expanded && index >= shown ? 'is-clipped' : undefined}>
            <a href={url}>{tag}</a>
            <HideTagButton tag={tag} />
          </li>
        ))}
      </ul>
      {(overflows || expanded) && (
        <button
          type="button"
          className="post-tags__toggle"
          aria-expanded={expanded}
          aria-controls="post-tags-list"
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? '« Hide' : 'Show all »'}
        </button>
      )}
    </div>
  );
}
