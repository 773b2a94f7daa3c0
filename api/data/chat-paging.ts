/** The page query shared by the two chat stores (Discord channels, Patreon community channels). */
import { sql } from 'kysely';
import type { Store } from './store.ts';

/** A chat message table as pageChatRows reads it: the columns to select and the order key (time, id). */
export interface ChatTable {
  table: string;
  columns: string;
  time: string;
  id: string;
}

/**
 * One page of a channel's messages, newest first (`offset` of the newest skipped, `limit` a page), for
 * long channels (bench/chat.ts): the skipped rows are counted on the covering index (channel_id, time,
 * id) alone, to find the page's first row, and a page in the older half of the channel (`total`
 * messages) is counted from the oldest end, ascending, then reversed, so at most half the channel is
 * ever stepped over. `table` and its columns are constants of the data modules, never input. The key
 * columns are NOT NULL on both engines, so the row comparison and the order agree on both.
 */
export async function pageChatRows<T>(
  db: Store,
  t: ChatTable,
  channelId: string,
  offset: number,
  limit: number,
  total: number,
): Promise<T[]> {
  const key = sql.raw(`(${t.time}, ${t.id})`);
  const fromOldest = offset > total / 2 && offset < total;
  const take = fromOldest ? Math.min(limit, total - offset) : limit;
  const order = sql.raw(fromOldest ? `${t.time}, ${t.id}` : `${t.time} DESC, ${t.id} DESC`);
  const compare = sql.raw(fromOldest ? '>=' : '<=');
  const table = sql.raw(t.table);
  const { rows } = await sql<T>`SELECT ${sql.raw(t.columns)} FROM ${table}
      WHERE channel_id = ${channelId} AND ${key} ${compare} (
        SELECT ${sql.raw(`${t.time}, ${t.id}`)} FROM ${table} WHERE channel_id = ${channelId} ORDER BY ${order} LIMIT 1 OFFSET ${fromOldest ? total - offset - take : offset})
      ORDER BY ${order} LIMIT ${take}`.execute(db.k);
  return fromOldest ? rows.reverse() : rows;
}
