/** The page query shared by the two chat stores (Discord channels, Patreon community channels). */
import { stmt, type Db } from './db.ts';

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
 * ever stepped over. `table` and its columns are constants of the data modules, never input.
 */
export async function pageChatRows<T>(db: Db, t: ChatTable, channelId: string, offset: number, limit: number, total: number): Promise<T[]> {
  const key = `(${t.time}, ${t.id})`;
  const fromOldest = offset > total / 2 && offset < total;
  const take = fromOldest ? Math.min(limit, total - offset) : limit;
  const [order, compare] = fromOldest ? [`${t.time}, ${t.id}`, '>='] : [`${t.time} DESC, ${t.id} DESC`, '<='];
  const rows = stmt<T>(
    db,
    `SELECT ${t.columns} FROM ${t.table}
      WHERE channel_id = :channel AND ${key} ${compare} (
        SELECT ${t.time}, ${t.id} FROM ${t.table} WHERE channel_id = :channel ORDER BY ${order} LIMIT 1 OFFSET :skip)
      ORDER BY ${order} LIMIT :take`,
  ).all({ channel: channelId, skip: fromOldest ? total - offset - take : offset, take });
  return fromOldest ? rows.reverse() : rows;
}
