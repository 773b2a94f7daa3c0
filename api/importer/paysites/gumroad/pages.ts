/**
 * Gumroad has no JSON API for a buyer's library: its pages carry their data as JSON "props" in the HTML
 * (antiwork/gumroad, the open-source server: see docs/importing.md). Two generations are read:
 * - Inertia (2025-2026): the root element's `data-page` attribute, `{"component", "props", "url", "version"}`
 *   (components Library/Index, UrlRedirects/DownloadPage, UrlRedirects/ConfirmPage, Products/Show);
 * - react_on_rails (until 2025): `<script type="application/json" class="js-react-on-rails-component"
 *   data-component-name="LibraryPage">{props}</script>` (LibraryPage, DownloadPageWithContent,
 *   DownloadPageWithoutContent, ProductPage), and before ~2021 `data-react-class` / `data-react-props`.
 * The props are checked with zod; only the fields the importer uses are kept (never the buyer's e-mail,
 * license keys or receipts, which the pages also carry).
 */
import { z } from 'zod';
import { parseJsonText } from '@shared/parse.ts';

/** The component names of one page in each generation. */
export const COMPONENTS = {
  library: ['Library/Index', 'LibraryPage'],
  download: ['UrlRedirects/DownloadPage', 'DownloadPageWithContent'],
  confirm: ['UrlRedirects/ConfirmPage', 'DownloadPageWithoutContent'],
  product: ['Products/Show', 'ProductPage'],
} as const;

const ENTITIES: Record<string, string> = { quot: '"', apos: "'", amp: '&', lt: '<', gt: '>', nbsp: '\u00a0' };

/** An HTML attribute value as text (named and numeric character references). */
export function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

function attributes(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of tag.matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) found.set(m[1].toLowerCase(), decodeAttribute(m[2] ?? m[3]));
  return found;
}

export interface PageData {
  component: string;
  props: unknown;
}

/** Every component's props a page embeds, in page order (Inertia first: a page has one or the other). */
export function pageComponents(html: string): PageData[] {
  const found: PageData[] = [];
  const parse = (text: string) => {
    return parseJsonText(text)?.value;
  };
  for (const tag of html.matchAll(/<[a-z][^>]*\sdata-page\s*=\s*("[^"]*"|'[^']*')[^>]*>/gi)) {
    const page = parse(attributes(tag[0]).get('data-page') ?? '') as { component?: unknown; props?: unknown } | undefined;
    if (page && typeof page.component === 'string') found.push({ component: page.component, props: page.props });
  }
  for (const script of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = attributes(script[1]);
    if (!(attrs.get('class') ?? '').split(/\s+/).includes('js-react-on-rails-component')) continue;
    const props = parse(script[2]);
    if (props !== undefined) found.push({ component: attrs.get('data-component-name') ?? '', props });
  }
  for (const tag of html.matchAll(/<[a-z][^>]*\sdata-react-class\s*=[^>]*>/gi)) {
    const attrs = attributes(tag[0]);
    const props = parse(attrs.get('data-react-props') ?? '');
    if (props !== undefined) found.push({ component: attrs.get('data-react-class') ?? '', props });
  }
  return found;
}

/** The props of the first component with one of these names, or undefined. */
export function findComponent(html: string, names: readonly string[]): PageData | undefined {
  return pageComponents(html).find((page) => names.includes(page.component));
}

const person = z.object({
  name: z.string().nullish(),
  profile_url: z.string().nullish(),
  avatar_url: z.string().nullish(),
});

/** One card of the library (LibraryPresenter#library_cards); the 2026 shape lacks creator_id and permalink. */
export const libraryResult = z.object({
  product: z.object({
    name: z.string(),
    creator_id: z.string().nullish(),
    permalink: z.string().nullish(),
    creator: person.nullish(),
    thumbnail_url: z.string().nullish(),
    native_type: z.string().nullish(),
  }),
  purchase: z.object({
    id: z.string(),
    is_archived: z.boolean().nullish(),
    download_url: z.string().nullish(),
    is_bundle_purchase: z.boolean().nullish(),
  }),
});
export type LibraryResult = z.infer<typeof libraryResult>;

/** The library's props: results (15 a page in 2026, all at once before), its creators and paging. */
export const libraryProps = z.object({
  results: z.array(libraryResult),
  creators: z.array(z.object({ id: z.union([z.string(), z.number()]).transform(String), name: z.string().nullish() })).nullish(),
  pagination: z.object({ page: z.number(), pages: z.number(), count: z.number().nullish() }).nullish(),
  archived_count: z.number().nullish(),
});
export type LibraryProps = z.infer<typeof libraryProps>;

export interface ContentItem {
  type: string;
  id?: string | null;
  name?: string | null;
  file_name?: string | null;
  extension?: string | null;
  download_url?: string | null;
  stream_url?: string | null;
  external_link_url?: string | null;
  pdf_stamp_enabled?: boolean | null;
  children?: ContentItem[] | null;
}
const contentItem: z.ZodType<ContentItem> = z.lazy(() =>
  z.object({
    type: z.string(),
    id: z.string().nullish(),
    name: z.string().nullish(),
    file_name: z.string().nullish(),
    extension: z.string().nullish(),
    download_url: z.string().nullish(),
    stream_url: z.string().nullish(),
    external_link_url: z.string().nullish(),
    pdf_stamp_enabled: z.boolean().nullish(),
    children: z.array(contentItem).nullish(),
  }),
);

/** A rich content page: its description is a TipTap document (older pages: an HTML string). */
export const richPage = z.object({
  id: z.string().nullish(),
  title: z.string().nullish(),
  description: z.unknown(),
  updated_at: z.string().nullish(),
});

/** The download page's props (UrlRedirectPresenter#download_page_with_content_props). */
export const downloadProps = z.object({
  content: z.object({
    content_items: z.array(contentItem),
    rich_content_pages: z.array(richPage).nullish(),
  }),
  token: z.string().nullish(),
  creator: person.nullish(),
  purchase: z.object({
    product_permalink: z.string(),
    product_name: z.string(),
    product_long_url: z.string().nullish(),
  }),
});
export type DownloadProps = z.infer<typeof downloadProps>;

const cover = z.object({
  id: z.string(),
  type: z.string(),
  url: z.string().nullish(),
  original_url: z.string().nullish(),
  filetype: z.string().nullish(),
});

/** The product page's props (ProductPresenter::ProductProps): the description and covers. */
export const productProps = z.object({
  product: z.object({
    permalink: z.string(),
    name: z.string(),
    description_html: z.string().nullish(),
    covers: z.array(cover).nullish(),
    main_cover_id: z.string().nullish(),
    thumbnail_url: z.string().nullish(),
    seller: z.object({ id: z.string().nullish(), name: z.string().nullish() }).nullish(),
  }),
});
export type ProductInfo = z.infer<typeof productProps>['product'];
