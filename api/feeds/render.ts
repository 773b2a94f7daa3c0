/**
 * RSS 2.0 and Atom documents, written by the `feed` library. Every feed of the archive (creator posts,
 * DMs, tags, recent and popular posts, a reader's personal feed) goes through here, so each one has the
 * same item fields and the same output for the same items: the build date is the newest item's date,
 * never the clock, so a stored feed re-rendered from unchanged data is byte-identical.
 */
import { Feed, type Item } from 'feed';
import { storedDateMs } from '@shared/format.ts';
import { escapeHtml } from '@shared/html.ts';

export const FEED_FORMATS = ['rss', 'atom'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

/** The content type each format is served with. */
export const FEED_CONTENT_TYPES: Record<FeedFormat, string> = {
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
};

/** Items a feed carries at most (readers poll; older items are on the paged site). */
export const FEED_ITEM_LIMIT = 50;

/** Longest item summary, in characters of plain text. */
export const FEED_SUMMARY_MAX = 500;

export interface FeedChannel {
  /** Absolute URL of the feed itself (its id, and its self link). */
  selfUrl: string;
  /** Absolute URL of the HTML page the feed follows. */
  pageUrl: string;
  title: string;
  description: string;
  /** Absolute URL of an image for the channel (the creator's icon), if any. */
  imageUrl?: string;
}

export interface FeedEntry {
  /** Stable unique id: the item's absolute page URL is a good one. */
  id: string;
  title: string;
  /** Absolute URL of the item's page. */
  link: string;
  /** ISO date the item was published (or added, when the paysite gave no date). */
  published: string;
  /** Plain text; cut to FEED_SUMMARY_MAX here. */
  summary: string;
  /** Absolute URL of the item's thumbnail image, sent as an enclosure (RSS) or link (Atom). */
  thumbnailUrl?: string;
  /** Content type of the thumbnail (image/jpeg when unknown). */
  thumbnailType?: string;
  author?: string;
}

function summaryOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > FEED_SUMMARY_MAX ? `${flat.slice(0, FEED_SUMMARY_MAX - 1)}…` : flat;
}

/** A stored date (ISO without a zone is UTC); the epoch when unreadable, so a bad row cannot break a feed. */
function validDate(iso: string): Date {
  const ms = storedDateMs(iso);
  return new Date(Number.isNaN(ms) ? 0 : ms);
}

/**
 * The library writes item titles and summaries as HTML (Atom's type="html", CDATA in RSS, which readers
 * read as HTML): plain text goes in escaped, so '<script>' reaches a reader as text, never as markup.
 */
function itemOf(entry: FeedEntry): Item {
  const date = validDate(entry.published);
  return {
    title: escapeHtml(entry.title),
    id: entry.id,
    guid: entry.id,
    link: entry.link,
    date,
    published: date,
    description: escapeHtml(summaryOf(entry.summary)),
    image: entry.thumbnailUrl ? { url: entry.thumbnailUrl, type: entry.thumbnailType ?? 'image/jpeg', length: 0 } : undefined,
    author: entry.author ? [{ name: entry.author }] : undefined,
  };
}

/** The feed document for the channel and its entries (newest first; at most FEED_ITEM_LIMIT are kept). */
export function renderFeed(format: FeedFormat, channel: FeedChannel, entries: readonly FeedEntry[]): string {
  const kept = entries.slice(0, FEED_ITEM_LIMIT);
  const newest = kept.reduce((max, entry) => Math.max(max, validDate(entry.published).getTime()), 0);
  const feed = new Feed({
    id: channel.selfUrl,
    title: channel.title,
    description: channel.description,
    link: channel.pageUrl,
    image: channel.imageUrl,
    updated: new Date(newest),
    generator: 'Trove',
    copyright: '',
    feedLinks: { [format]: channel.selfUrl },
  });
  for (const entry of kept) feed.addItem(itemOf(entry));
  return format === 'rss' ? feed.rss2() : feed.atom1();
}
