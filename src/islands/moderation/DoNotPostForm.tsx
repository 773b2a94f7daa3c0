/**
 * The do-not-post page's takedown form: an archive URL of a creator or post, or a service, creator id
 * and optional post id, and the reason; it calls the same takedown API as the creator and post pages'
 * button, then reloads the list with a notice of what was removed.
 */
import { useEffect, useState } from 'react';
import { PAYSITE_DESCRIPTORS } from '@shared/paysites/index';
import { readTakedownTarget } from '@shared/takedown-target';
import ApiForm from '../forms/ApiForm';
import { describeRemoval, leaveNotice, sendTakedown, TAKEDOWN_REASON_MAX, TAKEDOWN_REASON_MESSAGES, takeNotice } from './takedowns';

const text = (data: FormData, name: string) => String(data.get(name) ?? '');

export default function DoNotPostForm() {
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => setNotice(takeNotice()), []);

  async function submit(data: FormData) {
    const target = readTakedownTarget({
      url: text(data, 'url'),
      service: text(data, 'service'),
      creatorId: text(data, 'creator_id'),
      postId: text(data, 'post_id'),
    });
    if ('error' in target) return [target.error];
    const reason = text(data, 'reason').trim();
    if (!reason) return [TAKEDOWN_REASON_MESSAGES.reasonRequired];
    const what = target.postId === null ? `${target.service} creator ${target.creatorId}` : `${target.service} post ${target.postId}`;
    if (!globalThis.confirm(`Remove ${what} and everything of it from the archive, and list it as do-not-post?`)) return;
    const answer = await sendTakedown(target, reason);
    leaveNotice(`Removed ${what}: ${describeRemoval(answer)}.`);
    globalThis.location.reload();
  }

  return (
    <>
      {notice && (
        <p className="success" role="status">
          {notice}
        </p>
      )}
      <ApiForm onSubmit={submit} submitLabel="Remove" className="dnp-form" id="dnp-form" aria-label="Remove a creator or a post">
        <label>
          Archive URL of the creator or post
          <input type="text" name="url" inputMode="url" placeholder="/patreon/user/123 or /patreon/user/123/post/456" />
        </label>
        <p className="muted">or</p>
        <div className="dnp-form__by-id">
          <label>
            Service
            <select name="service" defaultValue="">
              <option value="">Choose...</option>
              {PAYSITE_DESCRIPTORS.map((paysite) => (
                <option key={paysite.id} value={paysite.id}>
                  {paysite.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Creator ID
            <input type="text" name="creator_id" />
          </label>
          <label>
            Post ID (empty: the whole creator)
            <input type="text" name="post_id" />
          </label>
        </div>
        <label>
          Reason
          <textarea name="reason" required maxLength={TAKEDOWN_REASON_MAX} rows={3} />
        </label>
      </ApiForm>
    </>
  );
}
