/**
 * DLsite shapes into Trove's: the key as cookies, localized titles, JST dates, the work page's
 * description, the download pages' links, file names and the post itself. Pure functions; the importer
 * does the fetching and the writing.
 */
import type { PostFileInput, PostInput } from '@api/data/posts.ts';
import { archiveTime, escapeHtml } from '@api/importer/text.ts';
import type { PlayWork, Product } from './api.ts';
import { decodeComponent } from '@shared/parse.ts';

/** Cookies a browser's DLsite Cookie string may hold that must not be sent: a stale Play session makes downloads fail (dlsite_deck). */
const DROPPED_COOKIES = new Set(['play_session']);

/**
 * The Cookie header for the key: a bare value is the `__DLsite_SID` cookie; a whole Cookie string
 * (`name=value; ...`, as copied from a browser, optionally with a leading `Cookie:`) is sent as it is,
 * without a Play session cookie and adding the age-gate cookie (adultchecked=1).
 */
export function keyCookieHeader(key: string): string {
  const raw = key.trim().replace(/^cookie:\s*/i, '');
  const pairs = raw.includes('=')
    ? raw
        .split(';')
        .map((part) => part.trim())
        .filter((part) => /^[^=\s]+=/.test(part) && !DROPPED_COOKIES.has(part.slice(0, part.indexOf('='))))
    : [`__DLsite_SID=${raw}`];
  if (!pairs.some((pair) => pair.startsWith('adultchecked='))) pairs.push('adultchecked=1');
  return pairs.join('; ');
}

/** A localized map's Japanese text, else English, else any. */
export function localizedText(map: Record<string, string | null | undefined> | null | undefined): string | undefined {
  if (!map) return undefined;
  return map.ja_JP || map.en_US || Object.values(map).find((v): v is string => !!v) || undefined;
}

/** The store's JST local time ('2024-07-01 00:00:00') as the archive's UTC time. */
export function jstTime(value: string | null | undefined): string | null {
  if (!value) return null;
  const m = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d(?::\d\d)?)$/.exec(value.trim());
  return m ? archiveTime(`${m[1]}T${m[2]}+09:00`) : archiveTime(value);
}

/**
 * The inner HTML of the work page's `div[itemprop="description"]` (the long description), or undefined.
 * Nested divs are counted, so the description's own divs stay inside it.
 */
export function descriptionHtml(page: string): string | undefined {
  const open = /<div\b[^>]*\bitemprop\s*=\s*["']description["'][^>]*>/i.exec(page);
  if (!open) return undefined;
  const start = open.index + open[0].length;
  const tags = /<(\/?)div\b[^>]*>/gi;
  tags.lastIndex = start;
  let depth = 1;
  for (let m = tags.exec(page); m; m = tags.exec(page)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) return page.slice(start, m.index).trim();
  }
  return undefined;
}

const hrefs = (page: string) => [...page.matchAll(/\bhref\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1].replace(/&amp;/g, '&'));

/** The part links of a split-download page (`/download/=/number/{N}/product_id/{W}.html`), in part order. */
export function partLinks(page: string, workno: string): string[] {
  const found = new Map<number, string>();
  for (const href of hrefs(page)) {
    const m = /\/download\/=\/number\/(\d+)\/product_id\/([A-Z]{2}\d+)\.html/.exec(href);
    if (m && m[2] === workno && !found.has(Number(m[1]))) found.set(Number(m[1]), href);
  }
  return [...found].sort((a, b) => a[0] - b[0]).map(([, href]) => href);
}

/** The direct download link of a serial page (its serial numbers are secrets and are not read). */
export function directLink(page: string, workno: string): string | undefined {
  return hrefs(page).find((href) => {
    const m = /\/download\/=\/product_id\/([A-Z]{2}\d+)\.html/.exec(href);
    return m?.[1] === workno;
  });
}

/** Where Play's download redirect points: the split page, the serial page, or a direct download. */
export function downloadKind(url: string): 'split' | 'serial' | 'direct' {
  const path = new URL(url).pathname;
  if (/\/split\//.test(path)) return 'split';
  if (/\/serial\//.test(path)) return 'serial';
  return 'direct';
}

/** The file name in a file-server URL (`.../file/{name}/_/{stamp}`), decoded; '' when it has none. */
export function fileServerName(url: string): string {
  const m = /\/file\/([^/]+)\/_\//.exec(new URL(url).pathname);
  if (!m) return '';
  return decodeComponent(m[1]) ?? m[1];
}

/** Files only DLsite's own viewer opens (icon_PVA works: .dlst, .cpd); not archived. */
export function isDrmFile(name: string): boolean {
  return /\.(dlst|cpd)$/i.test(name);
}

/** The work's genres: product.json's, else Play's tags of class genre. */
export function tagsOf(work: PlayWork, info: Product | undefined): string[] {
  const names = info?.genres?.length
    ? info.genres.map((g) => g.name)
    : (work.tags ?? []).filter((t) => t.class === 'genre').map((t) => t.name);
  return [...new Set(names.map((n) => n.trim()).filter(Boolean))];
}

/** The work's title: Play's localized name, else product.json's, else the work number. */
export function titleOf(work: PlayWork, info: Product | undefined): string {
  return localizedText(work.name) || info?.work_name || work.workno;
}

/** The body before its images are archived: the long description, else the short intro as a paragraph. */
export function bodyHtml(description: string | undefined, info: Product | undefined): string {
  if (description?.trim()) return description;
  const intro = info?.intro_s?.trim();
  return intro
    ? intro
        .split(/\n{2,}/)
        .map((para) => `<p>${escapeHtml(para.trim()).replace(/\n/g, '<br>')}</p>`)
        .join('')
    : '';
}

/** The cover: Play's `work_files.main`, else product.json's `image_main` (protocol-relative there). */
export function coverOf(work: PlayWork, info: Product | undefined): { url: string; name: string } | undefined {
  const url = work.work_files?.main || info?.image_main?.url;
  if (!url) return undefined;
  const name = info?.image_main?.file_name || /[^/]+$/.exec(url.split('?')[0])?.[0] || `${work.workno}_img_main.jpg`;
  return { url, name };
}

/** The stored post of a work. */
export function workPost(
  work: PlayWork,
  info: Product | undefined,
  parts: { content: string; cover: PostFileInput | null; attachments: PostFileInput[] },
): PostInput {
  const published = archiveTime(work.regist_date) ?? jstTime(info?.regist_date);
  const edited = archiveTime(work.upgrade_date);
  return {
    service: 'dlsite',
    user: work.maker.id,
    id: work.workno,
    title: titleOf(work, info),
    content: parts.content,
    published,
    edited: edited && edited !== published ? edited : null,
    file: parts.cover,
    attachments: parts.attachments,
    embed: null,
    tags: tagsOf(work, info),
  };
}
