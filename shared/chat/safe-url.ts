/**
 * Chat content is untrusted (docs/decisions.md#chat-viewer-discord-servers-patreon-community): every href and
 * src a chat component writes comes from these functions, so a link can only be http(s) and media can only be
 * the archive's own files.
 */
import { parseUrl } from '../parse.ts';

// '/ab/cd/<sha256>.<ext>', optionally under '/data' (how the importer stores embed media).
const ARCHIVE_PATH = /^(?:\/data)?(\/([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})(?:\.[a-z0-9]{1,12})?)$/i;

/**
 * An http(s) URL as the browser would read it, or undefined. The WHATWG parser strips the tabs,
 * newlines and control characters that hide 'javascript:' from naive checks, so the scheme tested
 * here is the scheme a browser would follow; the normalised form is what gets written.
 */
export function safeLinkUrl(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length > 4096) return undefined;
  const url = parseUrl(raw.trim());
  if (!url) return undefined;
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}

export interface ArchivePath {
  /** '/ab/cd/<sha256>.<ext>', for fileUrl and thumbnailUrl. */
  path: string;
  hash: string;
  /** Lower-case extension without its dot ('' when none). */
  ext: string;
}

/** A content-addressed archive path whose directories match its hash, or undefined. */
export function archivePath(raw: unknown): ArchivePath | undefined {
  if (typeof raw !== 'string') return undefined;
  const match = ARCHIVE_PATH.exec(raw);
  if (!match) return undefined;
  const [, path, first, second, hash] = match;
  if (!hash.toLowerCase().startsWith(`${first}${second}`.toLowerCase())) return undefined;
  return { path, hash: hash.toLowerCase(), ext: extensionOf(path) };
}

/** Lower-case extension of a file name or path, without its dot. */
export function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}
