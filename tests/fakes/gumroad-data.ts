/**
 * The fake Gumroad's content and the props Gumroad's presenters render for it (antiwork/gumroad, cited
 * in /work/research/gumroad.md): LibraryPresenter (the 2026 Inertia shape with paging, and the 2025
 * react_on_rails shape with creator_id/permalink), UrlRedirectPresenter (download page: content_items
 * with folders, rich_content_pages as TipTap documents, the purchase), ProductPresenter (covers,
 * description_html, seller) and the profile's creator_profile. URLs: app.gumroad.com (`app`), each
 * seller's {username}.gumroad.com (`creator`), public-files.gumroad.com and assets.gumroad.com
 * (`publicUrl`, `assetUrl`). Purchased files are reached only through redirects (gumroad.ts).
 */
import { createHash } from 'node:crypto';
import { bytesFor } from './kit/media.ts';

export interface GrFile {
  id: string;
  /** Display name without extension (ProductFile#name_displayable). */
  name: string;
  /** Upper-case extension, as display_extension gives it. */
  extension: 'ZIP' | 'PDF' | 'MP4' | 'MP3' | 'PNG' | 'JPG';
  folder?: string;
  /** PDF stamped with the buyer's e-mail: 'pending' redirects back to the download page once. */
  stamped?: 'pending' | 'ready';
  /** Removed by the creator: absent from the download page. */
  deleted?: boolean;
  /** A video buyers may only stream (no download_url; its HLS playlist is the only way to it). */
  streamOnly?: boolean;
}

export interface GrCover {
  id: string;
  type: 'image' | 'oembed';
  /** An image name on public-files, or the oEmbed URL. */
  file: string;
}

export interface GrProduct {
  permalink: string;
  externalId: string;
  name: string;
  nativeType: 'digital' | 'course' | 'ebook' | 'membership' | 'audiobook';
  descriptionHtml: string;
  covers: GrCover[];
  thumbnail: string | null;
  files: GrFile[];
  /** TipTap documents; image src 'PUBLIC:<name>' is a public-files image. */
  pages: { id: string; title: string; doc: Record<string, unknown> }[];
  createdAt: number;
  contentUpdatedAt: number | null;
  /** A "Download all" archive exists (/zip/{token}). */
  archive?: boolean;
}

export interface GrSeller {
  externalId: string;
  username: string;
  name: string;
  avatar: string | null;
  products: GrProduct[];
}

export interface GrPurchase {
  id: string;
  /** The url_redirect token (/d/{token}). */
  token: string;
  permalink: string;
  createdAt: number;
  archived?: boolean;
  variants?: string | null;
  /** revoked: /r/{token}/expired; membership_inactive: hidden and /r/{token}/membership_inactive; refunded: hidden, 404. */
  state?: 'ok' | 'revoked' | 'membership_inactive' | 'refunded';
}

export interface GrDataset {
  buyer: { id: string; email: string; name: string };
  sellers: GrSeller[];
  purchases: GrPurchase[];
}

export interface GrView {
  app: string;
  creator(username: string): string;
  publicUrl(name: string): string;
  assetUrl(name: string): string;
}

export const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
/** The hex digests Gumroad's storage keys look like. */
export const digest = (text: string, n = 28) => createHash('sha256').update(text).digest('hex').slice(0, n);
/** The path of a public file ('variant:<name>': a resized variant of it) on public-files.gumroad.com. */
export const publicFilePath = (name: string) =>
  name.startsWith('variant:') ? `/variants/${digest(name.slice(8))}/${digest(`v:${name.slice(8)}`, 64)}` : `/${digest(name)}`;
export const fileNameOf = (f: GrFile) => `${f.name}.${f.extension.toLowerCase()}`;
export const productBy = (data: GrDataset, permalink: string) => {
  for (const seller of data.sellers) {
    const product = seller.products.find((p) => p.permalink === permalink);
    if (product) return { seller, product };
  }
  return undefined;
};

/** The size of each purchased file's bytes (kit bytesFor, by its name), by file id. */
export async function fileSizes(data: GrDataset): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for (const seller of data.sellers)
    for (const p of seller.products) for (const f of p.files) sizes.set(f.id, (await bytesFor(fileNameOf(f))).bytes.length);
  return sizes;
}

export const avatarOf = (v: GrView, s: GrSeller) => (s.avatar ? v.publicUrl(s.avatar) : v.assetUrl('gumroad-default-avatar-5.png'));
const profileUrl = (v: GrView, s: GrSeller) => `${v.creator(s.username)}?recommended_by=library`;
const creatorOf = (v: GrView, s: GrSeller) => ({ name: s.name, profile_url: profileUrl(v, s), avatar_url: avatarOf(v, s) });
const thumbOf = (v: GrView, p: GrProduct) =>
  p.thumbnail ? v.publicUrl(p.thumbnail) : p.covers[0]?.type === 'image' ? v.publicUrl(p.covers[0].file) : null;

/** Purchases shown in the library: not refunded, memberships alive. */
export const libraryPurchases = (data: GrDataset) =>
  data.purchases.filter((p) => (p.state ?? 'ok') !== 'refunded' && p.state !== 'membership_inactive');

/** One library card: the 2026 shape (generation 'inertia') or the 2025 one ('react_on_rails'). */
export function libraryCard(v: GrView, data: GrDataset, purchase: GrPurchase, generation: 'inertia' | 'react_on_rails') {
  const { seller, product } = productBy(data, purchase.permalink)!;
  const downloadUrl = `${v.app.replace('//app.', '//')}/d/${purchase.token}`;
  if (generation === 'inertia') {
    return {
      product: { name: product.name, creator: creatorOf(v, seller), thumbnail_url: thumbOf(v, product), native_type: product.nativeType },
      purchase: { id: purchase.id, is_archived: !!purchase.archived, download_url: downloadUrl, variants: purchase.variants ?? null },
    };
  }
  return {
    product: {
      name: product.name,
      creator_id: seller.externalId,
      creator: creatorOf(v, seller),
      thumbnail_url: thumbOf(v, product),
      native_type: product.nativeType,
      updated_at: iso(product.contentUpdatedAt ?? product.createdAt),
      permalink: product.permalink,
      has_third_party_analytics: false,
    },
    purchase: {
      id: purchase.id,
      email: data.buyer.email,
      is_archived: !!purchase.archived,
      download_url: downloadUrl,
      variants: purchase.variants ?? null,
      bundle_id: null,
      is_bundle_purchase: false,
    },
  };
}

export function contentItems(_v: GrView, product: GrProduct, token: string, sizes: Map<string, number>) {
  const item = (f: GrFile) => {
    const video = f.extension === 'MP4';
    const audio = f.extension === 'MP3';
    return {
      type: 'file',
      id: f.id,
      file_name: f.name,
      extension: f.extension,
      description: null,
      file_size: sizes.get(f.id) ?? null,
      pagelength: f.extension === 'PDF' ? 1 : null,
      duration: video || audio ? 3 : null,
      download_url: f.streamOnly ? null : `/r/${token}/product_files?product_file_ids%5B%5D=${f.id}`,
      stream_url: video ? `/s/${token}/${f.id}` : null,
      read_url: f.extension === 'PDF' ? `/read/${token}/${f.id}` : null,
      external_link_url: null,
      kindle_data: null,
      latest_media_location: null,
      content_length: null,
      subtitle_files: [],
      pdf_stamp_enabled: !!f.stamped,
      processing: false,
      thumbnail_url: null,
    };
  };
  const out: Record<string, unknown>[] = [];
  const folders = new Map<string, Record<string, unknown>[]>();
  for (const f of product.files.filter((x) => !x.deleted)) {
    if (!f.folder) {
      out.push(item(f));
      continue;
    }
    if (!folders.has(f.folder)) {
      const children: Record<string, unknown>[] = [];
      folders.set(f.folder, children);
      out.push({ type: 'folder', id: `fld_${f.folder.replace(/\W/g, '').toLowerCase()}`, name: f.folder, children });
    }
    folders.get(f.folder)!.push(item(f));
  }
  return out;
}

/** TipTap documents with PUBLIC:<name> image sources resolved to public-files URLs. */
export const resolveDoc = (v: GrView, doc: unknown) =>
  JSON.parse(JSON.stringify(doc), (key, value) =>
    key === 'src' && typeof value === 'string' && value.startsWith('PUBLIC:') ? v.publicUrl(value.slice(7)) : value,
  );

/** The props of the download page (DownloadPageWithContent / UrlRedirects/DownloadPage). */
export function downloadPageProps(v: GrView, data: GrDataset, purchase: GrPurchase, sizes: Map<string, number>) {
  const { seller, product } = productBy(data, purchase.permalink)!;
  return {
    content: {
      license: null,
      content_items: contentItems(v, product, purchase.token, sizes),
      rich_content_pages: product.pages.length
        ? product.pages.map((p) => ({
            id: p.id,
            page_id: p.id,
            title: p.title,
            variant_id: null,
            description: resolveDoc(v, p.doc),
            updated_at: iso(product.contentUpdatedAt ?? product.createdAt),
          }))
        : null,
      posts: [],
      video_transcoding_info: null,
      custom_receipt: null,
      discord: null,
      community_chat_url: null,
      ios_app_url: 'https://apps.apple.com/app/gumroad/id916819108',
      android_app_url: 'https://play.google.com/store/apps/details?id=com.gumroad.app',
      download_all_button: null,
    },
    product_has_third_party_analytics: false,
    terms_page_url: `${v.app}/terms`,
    token: purchase.token,
    redirect_id: `rd_${purchase.token.slice(0, 8)}`,
    creator: creatorOf(v, seller),
    installment: null,
    purchase: {
      id: purchase.id,
      bundle_purchase_id: null,
      email: data.buyer.email,
      email_digest: 'f3a1c2b4d5e6',
      created_at: iso(purchase.createdAt),
      is_archived: !!purchase.archived,
      product_permalink: product.permalink,
      product_id: product.externalId,
      product_name: product.name,
      variant_id: null,
      variant_name: purchase.variants ?? null,
      product_long_url: `${v.creator(seller.username)}/l/${product.permalink}`,
      allows_review: true,
      review: null,
      membership:
        product.nativeType === 'membership'
          ? {
              has_active_subscription: purchase.state !== 'membership_inactive',
              subscription_id: `sub_${purchase.id}`,
              is_subscription_ended: false,
            }
          : null,
      purchase_custom_fields: [],
      call: null,
    },
    is_mobile_app_web_view: false,
    content_unavailability_reason_code: null,
    add_to_library_option: 'none',
  };
}

/** The product page's props (ProductPage / Products/Show). */
export function productPageProps(v: GrView, seller: GrSeller, product: GrProduct, purchase: GrPurchase | undefined) {
  const covers = product.covers.map((c) =>
    c.type === 'image'
      ? {
          id: c.id,
          url: v.publicUrl(`variant:${c.file}`),
          original_url: v.publicUrl(c.file),
          thumbnail: v.publicUrl(`variant:${c.file}`),
          type: 'image',
          filetype: c.file.split('.').pop(),
          width: 670,
          height: 503,
          native_width: 16,
          native_height: 12,
        }
      : {
          id: c.id,
          url: c.file,
          original_url: c.file,
          thumbnail: v.publicUrl('oembed-thumb.jpg'),
          type: 'oembed',
          filetype: null,
          width: 670,
          height: 377,
          native_width: 1280,
          native_height: 720,
        },
  );
  return {
    product: {
      id: product.externalId,
      permalink: product.permalink,
      name: product.name,
      description_html: product.descriptionHtml,
      summary: null,
      covers,
      main_cover_id: product.covers[0]?.id ?? null,
      thumbnail_url: thumbOf(v, product),
      native_type: product.nativeType,
      is_published: true,
      seller: { id: seller.externalId, name: seller.name, avatar_url: avatarOf(v, seller), profile_url: v.creator(seller.username) },
      attributes: [],
      price_cents: 500,
      currency_code: 'usd',
      rated_as_adult: false,
      public_files: [],
    },
    purchase: purchase
      ? { id: purchase.id, content_url: `${v.app.replace('//app.', '//')}/d/${purchase.token}`, created_at: iso(purchase.createdAt) }
      : null,
  };
}

const doc = (...content: Record<string, unknown>[]) => ({ type: 'doc', content });
const para = (...content: Record<string, unknown>[]) => ({ type: 'paragraph', content });
const text = (t: string, marks?: Record<string, unknown>[]) => (marks ? { type: 'text', text: t, marks } : { type: 'text', text: t });
const T0 = Date.UTC(2024, 0, 10, 9, 0);
const DAY = 86_400_000;

/**
 * Two sellers. Alice Brushes has a brush pack (zip and a PDF in a folder, two image covers and a
 * YouTube cover, a rich page with heading, bold, link, an inline image, a file embed and a video
 * embed), a course (MP4 with a stream and HLS, an MP3), a text-only product, a unicode-named product,
 * a stamped PDF, a product with a deleted file, a dead membership, a refunded and an archived
 * purchase; Bob Sounds (no avatar) has presets and 12 sample packs, one revoked. 19 purchases show in
 * the library (15 a page).
 */
export function demoDataset(): GrDataset {
  const product = (permalink: string, name: string, n: number, extra: Partial<GrProduct> = {}): GrProduct => ({
    permalink,
    externalId: `ext_${permalink}`,
    name,
    nativeType: 'digital',
    descriptionHtml: `<p>${name}.</p>`,
    covers: [],
    thumbnail: null,
    files: [],
    pages: [],
    createdAt: T0 + n * DAY,
    contentUpdatedAt: null,
    ...extra,
  });
  const alice: GrProduct[] = [
    product('brushpk', 'Brush pack', 0, {
      descriptionHtml:
        '<p>24 brushes for <strong>Procreate</strong>.</p><p><a href="https://example.com/alice" target="_blank" rel="noopener noreferrer nofollow">My site</a></p>',
      covers: [
        { id: 'cov1', type: 'image', file: 'brush-cover.jpg' },
        { id: 'cov2', type: 'image', file: 'brush-strokes.png' },
        { id: 'cov3', type: 'oembed', file: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
      ],
      thumbnail: 'brush-thumb.png',
      files: [
        { id: 'pf_brush_zip', name: 'Brushes v2', extension: 'ZIP' },
        { id: 'pf_brush_pdf', name: 'Guide', extension: 'PDF', folder: 'Extras' },
      ],
      pages: [
        {
          id: 'pg_welcome',
          title: 'Welcome',
          doc: doc(
            { type: 'heading', attrs: { level: 2 }, content: [text('Welcome!')] },
            para(
              text('Thanks for buying. '),
              text('Read me', [{ type: 'bold' }]),
              text(' and visit '),
              text('my site', [{ type: 'link', attrs: { href: 'https://example.com/alice', target: '_blank' } }]),
            ),
            { type: 'image', attrs: { src: 'PUBLIC:inline-preview.png', link: null }, content: [text('The brushes in use')] },
            { type: 'fileEmbed', attrs: { id: 'pf_brush_zip', uid: '5b0e1c2d-0000-4000-8000-000000000001', url: null, collapsed: false } },
            {
              type: 'mediaEmbed',
              attrs: {
                url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
                title: 'Process video',
                html: '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" allowfullscreen></iframe>',
              },
            },
          ),
        },
      ],
      archive: true,
    }),
    product('tlcourse', 'Timelapse course', 1, {
      nativeType: 'course',
      files: [
        { id: 'pf_video', name: 'Lesson 1 - Sketching', extension: 'MP4' },
        { id: 'pf_audio', name: 'Lesson 1 commentary', extension: 'MP3' },
        { id: 'pf_stream', name: 'Lesson 2 - Inking', extension: 'MP4', streamOnly: true },
      ],
      covers: [{ id: 'cov4', type: 'image', file: 'course.jpg' }],
    }),
    product('thanks', 'Thank-you note', 2, {
      descriptionHtml: '<p>Just a note.</p>',
      pages: [{ id: 'pg_note', title: 'Note', doc: doc(para(text('Thank you for the support — it means a lot.'))) }],
    }),
    product('unicode', 'Ünïcode 日本語パック ✨', 3, { files: [{ id: 'pf_uni', name: '日本語 ファイル', extension: 'PNG' }] }),
    product('stamped', 'Watermarked ebook', 4, {
      nativeType: 'ebook',
      files: [{ id: 'pf_stamped', name: 'Ebook', extension: 'PDF', stamped: 'pending' }],
    }),
    product('pruned', 'Pruned pack', 5, {
      files: [
        { id: 'pf_kept', name: 'Kept', extension: 'ZIP' },
        { id: 'pf_gone', name: 'Gone', extension: 'ZIP', deleted: true },
      ],
    }),
    product('monthly', 'Monthly sketches', 6, { nativeType: 'membership', files: [{ id: 'pf_month', name: 'January', extension: 'ZIP' }] }),
    product('refund', 'Refunded thing', 7, { files: [{ id: 'pf_refund', name: 'Refunded', extension: 'ZIP' }] }),
    product('oldie', 'Archived oldie', 8, { files: [{ id: 'pf_old', name: 'Old', extension: 'ZIP' }] }),
  ];
  const bob: GrProduct[] = [product('synth', 'Synth presets', 9, { files: [{ id: 'pf_synth', name: 'Presets', extension: 'ZIP' }] })];
  for (let i = 1; i <= 12; i++)
    bob.push(product(`pack${i}`, `Sample pack ${i}`, 9 + i, { files: [{ id: `pf_pack${i}`, name: `Pack ${i}`, extension: 'ZIP' }] }));
  const buy = (permalink: string, n: number, extra: Partial<GrPurchase> = {}): GrPurchase => ({
    id: `pur_${permalink}`,
    token: `tok${permalink}0123456789abcdef`.slice(0, 22),
    permalink,
    createdAt: T0 + (n + 30) * DAY,
    ...extra,
  });
  return {
    buyer: { id: 'buyer_01', email: 'buyer@example.com', name: 'Fake Buyer' },
    sellers: [
      { externalId: '4710001234567', username: 'alicebrushes', name: 'Alice Brushes', avatar: 'alice-avatar.jpg', products: alice },
      { externalId: '4710009876543', username: 'bobsounds', name: 'Bob Sounds', avatar: null, products: bob },
    ],
    purchases: [
      ...['brushpk', 'tlcourse', 'thanks', 'unicode', 'stamped', 'pruned'].map((p, i) => buy(p, i)),
      buy('monthly', 6, { state: 'membership_inactive', variants: 'Untitled' }),
      buy('refund', 7, { state: 'refunded' }),
      buy('oldie', 8, { archived: true }),
      buy('synth', 9),
      ...bob.slice(1).map((p, i) => buy(p.permalink, 10 + i, i === 11 ? { state: 'revoked' } : {})),
    ],
  };
}

/**
 * A generated library for the import benchmark: `posts` purchased products over three sellers, each
 * with an image cover, a ZIP and a PNG content file (real bytes, each name its own), all visible.
 */
export function benchDataset(posts: number): GrDataset {
  const sellers: GrSeller[] = [0, 1, 2].map((s) => ({
    externalId: `47100${s}0000000`,
    username: `benchseller${s}`,
    name: `Bench seller ${s}`,
    avatar: `bench-avatar-${s}.png`,
    products: [],
  }));
  const purchases: GrPurchase[] = [];
  for (let i = 0; i < posts; i++) {
    const permalink = `bench${i}`;
    sellers[i % 3].products.push({
      permalink,
      externalId: `ext_${permalink}`,
      name: `Bench product ${i}`,
      nativeType: 'digital',
      descriptionHtml: `<p>Bench product ${i}.</p>`,
      covers: [{ id: `bcov${i}`, type: 'image', file: `bench-cover-${i}.jpg` }],
      thumbnail: null,
      files: [
        { id: `bf_zip${i}`, name: `Bench pack ${i}`, extension: 'ZIP' },
        { id: `bf_png${i}`, name: `Bench sheet ${i}`, extension: 'PNG' },
      ],
      pages: [],
      createdAt: T0 + i * 60_000,
      contentUpdatedAt: null,
    });
    purchases.push({ id: `pur_${permalink}`, token: `tok${permalink}`.padEnd(22, '0'), permalink, createdAt: T0 + DAY + i * 60_000 });
  }
  return { buyer: { id: 'buyer_bench', email: 'bench@example.com', name: 'Bench Buyer' }, sellers, purchases };
}
