/**
 * Request targets the front server refuses before any handler sees them, answered 400 without a log
 * line (anyone can send them, so a line per request would let them flood the log):
 * - anything but a path ('/…') or an absolute URL: `OPTIONS *` and `GET *` (the asterisk form), or junk;
 * - a path whose percent-encoding is broken ('/%ff', '/posts/%E0%A4%A', '/%'), on every prefix;
 * - for pages only (not the API or media, which read paths their own way), a path Astro's router
 *   refuses as double-encoded: one decoding (decodeURI) that still leaves an escape ('/%252e', '/é%2F').
 *   Astro would log 'Multi-level URL encoding is not allowed' and answer 404 anyway.
 */
import type { ServerResponse } from 'node:http';
import { decodeComponent, decodeWholeUri, parseUrl } from '@shared/parse.ts';

/**
 * The path of an origin-form ('/a?b') or absolute-form ('http://host/a?b') target, else undefined. A
 * target starting with '//' is refused: URL parsers (ours, Astro's) read '//a/b' as host 'a', path '/b',
 * so '//x/fanbox/user/1' would be answered as the creator's page under a URL nginx and caches keep apart.
 */
export function targetPath(target: string): string | undefined {
  if (target.startsWith('//')) return undefined;
  if (target.startsWith('/')) return target.split(/[?#]/, 1)[0];
  if (!/^https?:\/\//i.test(target)) return undefined;
  // The URL parser keeps percent-escapes as they are; only the path is looked at.
  return parseUrl(target)?.pathname;
}

/** Whether every '%' of `path` starts an escape and the escapes decode as UTF-8. */
export function hasValidEncoding(path: string): boolean {
  return !path.includes('%') || decodeComponent(path) !== undefined;
}

/** Astro's router rule: a path that decodeURI changes must not still hold an escape afterwards. */
export function isSingleEncoded(path: string): boolean {
  if (!path.includes('%')) return true;
  const decoded = decodeWholeUri(path);
  if (decoded === undefined) return false;
  return decoded === path || !/%[0-9a-f]{2}/i.test(decoded);
}

export function answerBadRequest(res: ServerResponse, message: string): void {
  res.statusCode = 400;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(message);
}

export const BAD_TARGET_MESSAGES = {
  target: 'Bad request: the request target must be a path.',
  encoding: 'Bad request: the path is not valid percent-encoding.',
} as const;
