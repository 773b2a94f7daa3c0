/**
 * For administrators on a creator's pages and a post's page (docs/product.md#takedowns-on-the-site):
 * "Remove (takedown)" opens a dialog that names what will be removed and asks for the reason, then
 * calls the takedown API. The pages are stored (the same for everyone), so the button shows only once
 * the island knows the visitor's role; the server checks the role again.
 *
 * After a creator's takedown the browser goes to the creator's URL, which now answers 410. After a
 * post's, it goes to the creator's page, where this island (present there for administrators) shows
 * the notice it left in sessionStorage.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { creatorPageUrl } from '@shared/urls';
import { useShellSession } from '../shell/useShellSession';
import ApiForm from '../forms/ApiForm';
import { describeRemoval, leaveNotice, sendTakedown, TAKEDOWN_REASON_MAX, TAKEDOWN_REASON_MESSAGES, takeNotice } from './takedowns';

export type TakedownTarget =
  | { kind: 'creator'; service: string; creatorId: string; creatorName: string }
  | { kind: 'post'; service: string; creatorId: string; creatorName: string; postId: string; postTitle: string };

/** What the dialog says will be removed (the confirmation names it). */
export function takedownSummary(target: TakedownTarget): { title: string; text: string; submit: string } {
  if (target.kind === 'creator') {
    return {
      title: `Remove ${target.creatorName}`,
      text: `This deletes ${target.creatorName} (${target.service} ${target.creatorId}) and everything of it from the archive: its posts, files, comments, DMs, announcements, fancards, links and uploads. It goes on the do-not-post list, so it is not imported again, and its pages answer 410 Gone until the entry is lifted.`,
      submit: `Remove ${target.creatorName}`,
    };
  }
  const title = target.postTitle || 'Untitled';
  return {
    title: `Remove the post "${title}"`,
    text: `This deletes the post "${title}" (${target.service} post ${target.postId}) by ${target.creatorName} with its files, revisions, comments and tags. It goes on the do-not-post list, so it is not imported again, and its page answers 410 Gone until the entry is lifted.`,
    submit: 'Remove this post',
  };
}

export default function TakedownButton(target: TakedownTarget) {
  const session = useShellSession();
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const id = useId();
  const admin = session?.role === 'administrator';

  useEffect(() => {
    if (admin) setNotice(takeNotice());
  }, [admin]);

  if (!admin) return null;
  const summary = takedownSummary(target);

  function open() {
    dialog.current?.showModal();
    dialog.current?.querySelector('textarea')?.focus();
  }

  function close() {
    dialog.current?.close();
  }

  async function submit(data: FormData) {
    const reason = String(data.get('reason') ?? '').trim();
    if (!reason) return [TAKEDOWN_REASON_MESSAGES.reasonRequired];
    const ids = { service: target.service, creatorId: target.creatorId, postId: target.kind === 'post' ? target.postId : null };
    const answer = await sendTakedown(ids, reason);
    if (target.kind === 'post')
      leaveNotice(`The post "${target.postTitle || 'Untitled'}" was removed (${describeRemoval(answer)}) and put on the do-not-post list.`);
    globalThis.location.assign(creatorPageUrl(target.service, target.creatorId));
  }

  return (
    <div className="takedown">
      {notice && (
        <p className="takedown__notice success" role="status">
          {notice}
        </p>
      )}
      <button type="button" className="button takedown__open" ref={opener} onClick={open} aria-haspopup="dialog">
        Remove (takedown)
      </button>
      {/* The native modal dialog keeps focus inside, and Escape closes it; focus then goes back to the button. */}
      <dialog ref={dialog} className="takedown__dialog" aria-labelledby={`${id}-title`} onClose={() => opener.current?.focus()}>
        <h2 id={`${id}-title`}>{summary.title}</h2>
        <p id={`${id}-text`}>{summary.text}</p>
        <ApiForm onSubmit={submit} submitLabel={summary.submit} className="takedown__form" id={`${id}-form`} aria-label={summary.title}>
          <label className="takedown__reason">
            Reason (shown to administrators only)
            <textarea name="reason" required maxLength={TAKEDOWN_REASON_MAX} rows={3} aria-describedby={`${id}-text`} />
          </label>
          <button type="button" className="button" onClick={close}>
            Cancel
          </button>
        </ApiForm>
      </dialog>
    </div>
  );
}
