/**
 * Chat grouping (docs/product.md#chat-grouping): consecutive messages by one author less than CHAT_GROUP_GAP_MS
 * apart share a group. Browser-safe.
 */
import { CHAT_GROUP_GAP_MS } from '../constants.ts';
import { storedDateMs } from '../format.ts';

export interface GroupableMessage {
  id: string;
  published: string;
  author: { id: string };
}

export interface MessageGroup<M extends GroupableMessage> {
  /** The first message's author. */
  author: M['author'];
  messages: M[];
}

/** Stored dates are ISO 8601 without a zone (UTC); NaN when unreadable. */
export function chatTime(iso: string | null | undefined): number {
  if (!iso) return NaN;
  return storedDateMs(iso);
}

/** Ids that grow with time (snowflakes, Patreon's numbers): a shorter one is older. Breaks ties on the date. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * The messages oldest first (as a chat reads, whatever order they came in: the API lists newest first),
 * in groups. An unreadable date starts a new group.
 */
export function groupMessages<M extends GroupableMessage>(messages: readonly M[]): MessageGroup<M>[] {
  const ordered = [...messages].sort((a, b) => {
    const byTime = chatTime(a.published) - chatTime(b.published);
    return Number.isNaN(byTime) || byTime === 0 ? compareIds(String(a.id), String(b.id)) : byTime;
  });
  const groups: MessageGroup<M>[] = [];
  let previous: M | undefined;
  for (const message of ordered) {
    const gap = previous ? chatTime(message.published) - chatTime(previous.published) : NaN;
    const current = groups.at(-1);
    if (current && previous && previous.author?.id === message.author?.id && gap >= 0 && gap < CHAT_GROUP_GAP_MS) {
      current.messages.push(message);
    } else {
      groups.push({ author: message.author, messages: [message] });
    }
    previous = message;
  }
  return groups;
}
