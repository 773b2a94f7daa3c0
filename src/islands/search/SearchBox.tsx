/**
 * A listing's search box: a plain GET form (it works without JavaScript: Enter submits), which also
 * submits itself `delayMs` after the visitor stops typing (docs/product.md#timings: 500 ms for artists,
 * 1000 ms for creator posts and DMs). A query shorter than `minLength` waits for more typing; the
 * server still answers a short one submitted by hand with the spec's message.
 */
import { useEffect, useRef, useState } from 'react';

interface Props {
  action: string;
  value?: string;
  label: string;
  minLength: number;
  /** Auto-submit delay; without it the form submits on Enter or the button only. */
  delayMs?: number;
  /** Other query parameters to keep (e.g. repeated tag filters). */
  keep?: [string, string][];
}

export default function SearchBox({ action, value = '', label, minLength, delayMs, keep = [] }: Props) {
  const form = useRef<HTMLFormElement>(null);
  const [query, setQuery] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const onChange = (next: string) => {
    setQuery(next);
    clearTimeout(timer.current);
    if (delayMs === undefined) return;
    const length = Array.from(next.trim()).length;
    if (next.trim() === value.trim() || (length > 0 && length < minLength)) return;
    timer.current = setTimeout(() => form.current?.requestSubmit(), delayMs);
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: a form with role=search is the landmark every browser and reader knows; <search> is newer
    <form ref={form} className="search-box" action={action} method="get" role="search">
      <label className="search-box__label">
        <span className="visually-hidden">{label}</span>
        <input
          type="search"
          name="q"
          value={query}
          placeholder={label}
          autoComplete="off"
          onChange={(event) => onChange(event.target.value)}
        />
      </label>
      {keep.map(([name, kept], index) => (
        <input key={`${name}-${index}`} type="hidden" name={name} value={kept} />
      ))}
      <button type="submit">Search</button>
    </form>
  );
}
