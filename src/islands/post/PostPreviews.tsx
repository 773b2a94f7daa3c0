/**
 * The post's images as thumbnails. Clicking one (or Enter on it) shows the full image in its place,
 * clicking again shows the thumbnail. Each thumbnail is a link to the full file, so without
 * JavaScript, or with a modifier key (new tab), it opens the file.
 */
import { useState, type MouseEvent } from 'react';

interface Props {
  images: { thumbnail: string; full: string; name: string }[];
}

export default function PostPreviews({ images }: Props) {
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());

  const toggle = (event: MouseEvent, index: number) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    const next = new Set(expanded);
    if (next.has(index)) next.delete(index);
    else next.add(index);
    setExpanded(next);
  };

  return (
    <ul className="post-files">
      {images.map((image, index) => {
        const open = expanded.has(index);
        return (
          <li key={index} className={open ? 'post-files__item is-expanded' : 'post-files__item'}>
            <a href={image.full} className="post-files__link" aria-expanded={open} onClick={(event) => toggle(event, index)}>
              <img src={open ? image.full : image.thumbnail} alt={image.name} loading={index === 0 ? 'eager' : 'lazy'} />
            </a>
          </li>
        );
      })}
    </ul>
  );
}
