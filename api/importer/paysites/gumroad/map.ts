/**
 * A Gumroad purchase as a Trove post (kemono's model: one product = one post of its seller, the post id
 * is the product's unique permalink). planPost reads the download page (and the product page, when it
 * could be had) and says what to download; buildPost turns the plan and the archived files into the
 * stored post. Pure functions: the importer does the fetching and the writing.
 */
import sanitizeHtml from 'sanitize-html';
import { sanitizePostHtml } from '@api/content/sanitize.ts';
import type { PostFileInput, PostInput } from '@api/data/posts.ts';
import { imageSources } from '@api/importer/content.ts';
import { archiveTime, escapeHtml } from '@api/importer/text.ts';
import type { PostEmbed } from '@shared/shapes/posts.ts';
import type { ContentItem, DownloadProps, ProductInfo } from './pages.ts';
import { docImages, docMediaEmbeds, richPageHtml } from './rich.ts';

/** One content file and what the importer does with it. */
export type FilePlan =
  | { id: string; name: string; action: 'download'; url: string }
  | { id: string; name: string; action: 'hls'; url: string }
  | { id: string; name: string; action: 'skip'; reason: string };

export interface PostPlan {
  permalink: string;
  title: string;
  /** Public images: the main cover first, then the other image covers (else the thumbnail). */
  covers: { url: string; name: string }[];
  files: FilePlan[];
  /** Content items that are links to another site (shown in the body). */
  links: { name: string; url: string }[];
  /** Images shown in the description and the rich content pages, to archive. */
  images: string[];
  embed: PostEmbed | null;
}

export interface Archived {
  /** The covers that could be archived, in plan order. */
  covers: PostFileInput[];
  /** Archived content files by Gumroad file id, in plan order. */
  files: Map<string, { name: string; path: string }>;
  /** Archived images: Gumroad URL -> '/data/...'. */
  images: Map<string, string>;
}

const isHttp = (url: string | null | undefined): url is string => !!url && /^https?:\/\//i.test(url);

/** A content file's real name: its display name and its extension in lower case ('Brushes v2' + 'ZIP'). */
export function fileName(item: ContentItem): string {
  const base = (item.file_name || item.name || 'file').trim() || 'file';
  const ext = (item.extension ?? '').toLowerCase();
  return ext && ext !== 'url' && !base.toLowerCase().endsWith(`.${ext}`) ? `${base}.${ext}` : base;
}

/** The file items of a content tree, folders flattened in order. */
export function contentFiles(items: readonly ContentItem[]): ContentItem[] {
  return items.flatMap((item) => (item.type === 'folder' ? contentFiles(item.children ?? []) : item.type === 'file' ? [item] : []));
}

function filePlan(item: ContentItem, pageUrl: string, token: string | null | undefined): FilePlan | { link: string; name: string } {
  const id = item.id ?? '';
  const name = fileName(item);
  if (item.external_link_url || item.extension?.toUpperCase() === 'URL')
    return isHttp(item.external_link_url) ? { link: item.external_link_url, name } : { id, name, action: 'skip', reason: 'a link' };
  if (item.pdf_stamp_enabled) return { id, name, action: 'skip', reason: "stamped with the buyer's e-mail, not archived" };
  if (item.download_url) return { id, name, action: 'download', url: new URL(item.download_url, pageUrl).toString() };
  if (item.stream_url && token && id) {
    const playlist = new URL(`/r/${encodeURIComponent(token)}/${encodeURIComponent(id)}/index.m3u8`, pageUrl).toString();
    return { id, name: name.replace(/\.[a-z0-9]{1,5}$/i, '.mp4'), action: 'hls', url: playlist };
  }
  return { id, name, action: 'skip', reason: 'Gumroad offers no download of it' };
}

/** What to download for a purchase: covers, content files, images; the embed. */
export function planPost(download: DownloadProps, pageUrl: string, product?: ProductInfo, thumbnail?: string | null): PostPlan {
  const files: FilePlan[] = [];
  const links: PostPlan['links'] = [];
  for (const item of contentFiles(download.content.content_items)) {
    const plan = filePlan(item, pageUrl, download.token);
    if ('link' in plan) links.push({ name: plan.name, url: plan.link });
    else files.push(plan);
  }
  const covers = product?.covers ?? [];
  const images = covers.filter((c) => c.type === 'image' && isHttp(c.original_url || c.url));
  const main = images.find((c) => c.id === product?.main_cover_id) ?? images[0];
  const ordered = main ? [main, ...images.filter((c) => c !== main)] : [];
  const coverFiles = ordered.map((c, i) => ({
    url: (c.original_url || c.url)!,
    name: `cover-${i + 1}${c.filetype ? `.${c.filetype}` : ''}`,
  }));
  const thumb = product?.thumbnail_url ?? thumbnail;
  if (coverFiles.length === 0 && isHttp(thumb)) coverFiles.push({ url: thumb, name: 'thumbnail' });

  const pages = download.content.rich_content_pages ?? [];
  const media = pages.flatMap((p) => docMediaEmbeds(p.description));
  const oembed = covers.find((c) => c.type !== 'image' && isHttp(c.original_url || c.url));
  const embed: PostEmbed | null = media[0]
    ? { url: media[0].url, subject: media[0].title, description: null }
    : oembed
      ? { url: (oembed.original_url || oembed.url)!, subject: null, description: null }
      : null;
  const described = product?.description_html ? imageSources(product.description_html).filter(isHttp) : [];
  return {
    permalink: download.purchase.product_permalink,
    title: product?.name || download.purchase.product_name,
    covers: coverFiles,
    files,
    links,
    images: [...new Set([...described, ...pages.flatMap((p) => docImages(typeof p.description === 'string' ? null : p.description))])],
    embed,
  };
}

/** Points the images of an HTML fragment at their archived copies (the sanitizer drops the others). */
function localize(html: string, images: Map<string, string>): string {
  if (!/<img\b/i.test(html)) return html;
  return sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    transformTags: {
      img: (tagName, attribs) => ({
        tagName,
        attribs: { ...attribs, src: images.get(attribs.src) ?? (attribs.src?.startsWith('/data/') ? attribs.src : '') },
      }),
    },
  });
}

/** The newest date a rich content page was changed (no publish date reaches a buyer). */
function editedOf(download: DownloadProps): string | null {
  const dates = (download.content.rich_content_pages ?? []).map((p) => archiveTime(p.updated_at)).filter((d): d is string => !!d);
  return dates.length ? dates.sort().at(-1)! : null;
}

/** The stored post: the product's description, then its rich content pages and links; covers and files. */
export function buildPost(
  creatorId: string,
  plan: PostPlan,
  download: DownloadProps,
  product: ProductInfo | undefined,
  archived: Archived,
): PostInput {
  const names = new Map(plan.files.map((f) => [f.id, f.name]));
  const pages = download.content.rich_content_pages ?? [];
  const parts: string[] = [];
  if (product?.description_html) parts.push(product.description_html);
  for (const page of pages) {
    const body = richPageHtml(page.description, { files: archived.files, names, images: archived.images });
    const title = pages.length > 1 && page.title ? `<h2>${escapeHtml(page.title)}</h2>` : '';
    if (body || title) parts.push(title + body);
  }
  if (plan.links.length) parts.push(plan.links.map((l) => `<p><a href="${escapeHtml(l.url)}">${escapeHtml(l.name)}</a></p>`).join(''));
  const content = sanitizePostHtml(parts.map((part) => localize(part, archived.images)).join('<hr>'));
  const [file, ...gallery] = archived.covers;
  return {
    service: 'gumroad',
    user: creatorId,
    id: plan.permalink,
    title: plan.title,
    content,
    published: null,
    edited: editedOf(download),
    file: file ?? null,
    attachments: [...gallery, ...archived.files.values()],
    embed: plan.embed,
    tags: [],
  };
}
