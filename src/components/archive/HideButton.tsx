/**
 * The hide controls: plain buttons, the same for every visitor, that src/client/hiding.ts handles by
 * delegation (it sets aria-pressed from the visitor's list). Rendered statically by Astro components
 * and inside islands alike.
 */
import { creatorKey } from '@shared/hiding.ts';

/** Hides a creator: a small ⊘ on cards (variant 'card'), a labelled button in headers. */
export function HideCreatorButton({
  service,
  id,
  name,
  variant,
}: {
  service: string;
  id: string;
  name: string;
  variant: 'card' | 'header';
}) {
  return (
    <button
      type="button"
      className={variant === 'card' ? 'hide-button hide-button--card' : 'button hide-button'}
      data-hide-creator={creatorKey(service, id)}
      aria-label={`Hide ${name}`}
      aria-pressed="false"
      title="Hide this creator"
    >
      {variant === 'card' ? '⊘' : '⊘ Hide'}
    </button>
  );
}

/** Hides a tag (the post page's tag row). */
export function HideTagButton({ tag }: { tag: string }) {
  return (
    <button
      type="button"
      className="hide-button hide-button--tag"
      data-hide-tag={tag}
      aria-label={`Hide tag ${tag}`}
      aria-pressed="false"
      title="Hide this tag"
    >
      ⊘
    </button>
  );
}
