/**
 * Fansly DMs (only when the user ticked "include DMs"): the message groups (/messaging/groups) whose
 * partner is one of the imported creators, each paged newest first (/message?groupId=&limit=25, then
 * `before` = the last message id of the previous page, until an empty page). The creator's own messages
 * become DMs waiting for the importing account's review ('pending'), with their media archived (images
 * shown, other files linked, the first one as the DM's file); the user's own messages are not kept.
 * Messages whose every media item is locked (pay-per-view not bought) or deleted are skipped and counted.
 * One step per page of messages; DM hashes come from Fansly's message ids, so a page done twice stores
 * nothing twice.
 */
import { upsertDm } from '@api/data/dms.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { countLabel } from '@shared/format.ts';
import { groups, messagePage, type FanslyApi } from './api.ts';
import { archiveMessageFiles, completeMedia, messageHtml } from './files.ts';
import { dmHash, indexMedia, messagePlan } from './map.ts';

export const DMS_DONE_LINE = 'Done importing DMs';
const MESSAGE_PAGE = 25;

export interface DmCursor {
  /** The groups with imported creators; null until listed. */
  groups: { id: string; creator: string }[] | null;
  /** The group being worked on. */
  g: number;
  /** The `before` of its next page ('' for the newest). */
  before: string;
  saved: number;
  skipped: number;
}

export const FIRST_DM_CURSOR: DmCursor = { groups: null, g: 0, before: '', saved: 0, skipped: 0 };

type Save = (write: () => unknown, cursor: DmCursor, log: string[]) => Promise<unknown>;

/** @param creators the imported creators: Fansly account id -> name */
export async function importDms(
  ctx: ImportContext,
  api: FanslyApi,
  creators: Map<string, string>,
  start: DmCursor,
  save: Save,
): Promise<void> {
  let cursor = start;
  if (cursor.groups === null) {
    const list = await api.get('/messaging/groups', {}, groups, 'the message groups');
    const withCreators = list.data.flatMap((g) =>
      g.partnerAccountId && creators.has(g.partnerAccountId) ? [{ id: g.groupId, creator: g.partnerAccountId }] : [],
    );
    cursor = { ...cursor, groups: withCreators };
    await save(() => undefined, cursor, []);
  }
  const list = cursor.groups ?? [];
  while (cursor.g < list.length) {
    if (ctx.signal.aborted) return;
    const group = list[cursor.g];
    const page = await api.get(
      '/message',
      { groupId: group.id, limit: String(MESSAGE_PAGE), ...(cursor.before ? { before: cursor.before } : {}) },
      messagePage,
      'a page of messages',
    );
    if (page.messages.length === 0) {
      const name = creators.get(group.creator) ?? group.creator;
      const lines = [`Creator ${name}: imported ${countLabel(cursor.saved, 'DM')}.`];
      if (cursor.skipped > 0) lines.push(`Creator ${name}: skipped ${countLabel(cursor.skipped, 'DM')} with locked or deleted media only.`);
      cursor = { ...cursor, g: cursor.g + 1, before: '', saved: 0, skipped: 0 };
      await save(() => undefined, cursor, lines);
      continue;
    }
    const theirs = page.messages.filter((m) => m.senderId === group.creator && !m.deleted);
    const index = indexMedia(page.accountMedia, page.accountMediaBundles);
    await completeMedia(
      api,
      index,
      theirs.map((m) => m.attachments),
    );
    const dms: Parameters<typeof upsertDm>[1][] = [];
    let skipped = 0;
    for (const message of theirs) {
      const plan = messagePlan(message, index);
      if (plan.verdict !== 'store') {
        skipped++;
        continue;
      }
      const archived = await archiveMessageFiles(ctx, api.files, plan);
      if (ctx.signal.aborted) return;
      const [first] = archived;
      dms.push({
        service: ctx.service,
        user: group.creator,
        hash: dmHash(message.id),
        content: messageHtml(plan.html, archived),
        file: first ? { name: first.name, path: first.path } : null,
        published: plan.published,
        account_id: ctx.accountId,
        import_id: ctx.importId,
      });
    }
    cursor = { ...cursor, before: page.messages.at(-1)!.id, saved: cursor.saved + dms.length, skipped: cursor.skipped + skipped };
    await save(
      async () => {
        for (const dm of dms) await upsertDm(ctx.db, dm);
      },
      cursor,
      [],
    );
  }
  if (cursor.g === list.length && !ctx.signal.aborted) {
    cursor = { ...cursor, g: list.length + 1 };
    await save(() => undefined, cursor, [DMS_DONE_LINE]);
  }
}
