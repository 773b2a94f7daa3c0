/**
 * Recorded-shape fixtures of Gumroad's page props, one per content kind, on the real hosts
 * (app.gumroad.com, gumroad.com/d/..., {seller}.gumroad.com, public-files.gumroad.com,
 * assets.gumroad.com), for table-driven mapper tests. They are the `props` Gumroad embeds in the page
 * (Inertia's data-page `props`, or the react_on_rails script's JSON), made by the fake's renderers
 * (gumroad-data.ts) over its demo data. Shapes (see /work/research/gumroad.md §7):
 *   - library cards: LibraryPresenter#library_cards (2025-04, react_on_rails: creator_id, permalink,
 *     updated_at, email...) and spec/presenters/library_presenter_spec.rb (2026, Inertia: product
 *     {name, creator, thumbnail_url, native_type}, purchase {id, is_archived, download_url, variants},
 *     pagination 15 a page);
 *   - download page: UrlRedirectPresenter#download_page_with_content_props (content_items with folders,
 *     rich_content_pages as TipTap documents: RichContent.tsx / TiptapExtensions), the purchase;
 *   - product page: ProductPresenter::ProductProps (covers, main_cover_id, description_html, seller);
 *   - redirects and 404s: UrlRedirectsController#check_permissions.
 * Ids and tokens are made up; file sizes are those of the files the fake serves.
 */
import {
  demoDataset,
  downloadPageProps,
  fileSizes,
  libraryCard,
  productBy,
  productPageProps,
  publicFilePath,
  type GrView,
} from './gumroad-data.ts';

const real: GrView = {
  app: 'https://app.gumroad.com',
  creator: (username) => `https://${username}.gumroad.com`,
  publicUrl: (name) => `https://public-files.gumroad.com${publicFilePath(name)}`,
  assetUrl: (name) => `https://assets.gumroad.com/assets/${name}`,
};
const data = demoDataset();
/** The sizes of the files the fake serves. */
const sizes = await fileSizes(data);
const purchase = (permalink: string) => data.purchases.find((p) => p.permalink === permalink)!;
const download = (permalink: string) => downloadPageProps(real, data, purchase(permalink), sizes);
const product = (permalink: string) => {
  const { seller, product: p } = productBy(data, permalink)!;
  return productPageProps(real, seller, p, purchase(permalink));
};

export const gumroadFixtures = {
  /** One library card, 2026 (Inertia) shape. */
  libraryCard: libraryCard(real, data, purchase('brushpk'), 'inertia'),
  /** The same card, 2025 (react_on_rails) shape, with creator_id, permalink and the buyer's e-mail. */
  libraryCardReactOnRails: libraryCard(real, data, purchase('brushpk'), 'react_on_rails'),
  /** Text only: no files, one rich content page of paragraphs. */
  textOnly: download('thanks'),
  /** Gallery: the product page's covers (two images, one YouTube oEmbed) and description_html. */
  gallery: product('brushpk'),
  /** Files with real names (file_name + extension), one inside a folder; download_url is relative. */
  file: download('brushpk'),
  /** A rich page with a heading, bold and link marks, an inline image (public-files), a fileEmbed and a mediaEmbed. */
  blog: download('brushpk').content.rich_content_pages,
  /** An embed: the mediaEmbed node of that page. */
  embed: download('brushpk').content.rich_content_pages![0].description.content[4],
  /** Video: an MP4 with stream_url (its HLS playlist is /r/{token}/{id}/index.m3u8) and a download_url. */
  video: download('tlcourse'),
  /** Audio: an MP3 (the same course). */
  audio: download('tlcourse').content.content_items[1],
  /** Unicode product and file names. */
  unicodeTitle: download('unicode'),
  /** A PDF stamped with the buyer's e-mail (pdf_stamp_enabled): do not archive it. */
  stamped: download('stamped'),
  /** Deleted by the creator: the file is simply absent (one of two left). */
  deletedFile: download('pruned'),
  /** Locked: a dead membership is absent from the library and its download page redirects. */
  locked: { status: 302, location: `https://app.gumroad.com/r/${purchase('monthly').token}/membership_inactive` },
  /** Refunded: absent from the library, 404 on its download page. */
  deleted: { status: 404 },
  /** Not logged in: /library redirects to the login page. */
  loggedOut: {
    status: 302,
    location: 'https://app.gumroad.com/login?next=%2Flibrary',
    body: '<html><body>You are being <a href="https://app.gumroad.com/login?next=%2Flibrary">redirected</a>.</body></html>',
  },
};
