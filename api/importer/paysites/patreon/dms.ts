/**
 * Patreon DMs (only when the user ticked "include DMs"): the inbox's conversations page by page; in a
 * conversation with one of the subscribed creators, that creator's messages become DMs waiting for the
 * importing account's review ('pending'). One step per conversation, so a restart goes on from the
 * next one; DM hashes come from Patreon's message ids, so a conversation done twice stores nothing twice.
 */
import { upsertDm } from '@api/data/dms.ts';
import type { PaysiteClient } from '@api/importer/fetch.ts';
import type { ImportContext } from '@api/importer/context.ts';
import { CONVERSATIONS_PATH, getDocument, messagesPath, nextPath } from './api.ts';
import { dataList, dmPlan, relatedId, type DmPlan } from './map.ts';

export const DMS_DONE_LINE = 'Done importing DMs';

export interface DmCursor {
  /** The conversations page being worked on; null once every page is done. */
  page: string | null;
  /** Conversations of that page already done. */
  done: number;
  saved: number;
}

export const FIRST_DM_CURSOR: DmCursor = { page: CONVERSATIONS_PATH, done: 0, saved: 0 };

function participantIds(conversation: { relationships: Record<string, unknown> }): string[] {
  const data = (conversation.relationships.participants as { data?: { id: string }[] | null } | undefined)?.data;
  return (data ?? []).map((p) => String(p.id));
}

async function creatorMessages(ctx: ImportContext, client: PaysiteClient, conversationId: string, creatorId: string): Promise<DmPlan[]> {
  const out: DmPlan[] = [];
  for (let path: string | null = messagesPath(conversationId); path && !ctx.signal.aborted; ) {
    const doc = await getDocument(client, path, 'messages');
    for (const message of dataList(doc)) {
      if (relatedId(message, 'sender') === creatorId) out.push(dmPlan(message));
    }
    path = nextPath(doc.links?.next);
  }
  return out;
}

/**
 * Imports the DMs from `cursor` on; `save` commits a step with the next DM cursor.
 * @param creators the subscribed creators: Patreon user id -> name
 */
export async function importDms(
  ctx: ImportContext,
  client: PaysiteClient,
  creators: Map<string, string>,
  start: DmCursor,
  save: (write: () => unknown, cursor: DmCursor, log: string[]) => Promise<unknown>,
): Promise<void> {
  let cursor = start;
  while (cursor.page !== null) {
    if (ctx.signal.aborted) return;
    const doc = await getDocument(client, cursor.page, 'conversations');
    const conversations = dataList(doc);
    for (let i = cursor.done; i < conversations.length; i++) {
      if (ctx.signal.aborted) return;
      const creatorId = participantIds(conversations[i]).find((id) => creators.has(id));
      const messages = creatorId ? await creatorMessages(ctx, client, conversations[i].id, creatorId) : [];
      if (ctx.signal.aborted) return;
      cursor = { ...cursor, done: i + 1, saved: cursor.saved + messages.length };
      const write = async () => {
        for (const dm of messages) {
          await upsertDm(ctx.db, { service: ctx.service, user: creatorId!, ...dm, account_id: ctx.accountId, import_id: ctx.importId });
        }
      };
      await save(write, cursor, messages.length > 0 ? [`Creator ${creators.get(creatorId!)}: imported ${messages.length} DMs.`] : []);
    }
    cursor = { ...cursor, page: nextPath(doc.links?.next), done: 0 };
    await save(() => undefined, cursor, cursor.page === null ? [DMS_DONE_LINE] : []);
  }
}
