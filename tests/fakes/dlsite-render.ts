/**
 * How DLsite renders the fake DLsite's content (dlsite-data.ts): the Play API's `content/sales` items and
 * `content/works` objects (localized name maps, maker {id, name}, UTC dates with Z, work_files on
 * img.dlsite.jp), the store's public product.json (one-object array: work_name, maker_id, intro_s, genres,
 * `creaters`, image_main with protocol-relative URLs, `contents` with the real archive names, JST dates
 * without offset) and ajax info, and each work's archive bytes (a cp932-named zip for the voice work, UTF-8
 * yazl zips elsewhere, a split zip in parts, a DRM .dlst blob). Shapes from /work/research/dlsite.md
 * (dm-api's live-verified fixtures, dlsite-rs's ProductApiContent, BH, DECK).
 */
import type { DlsiteMaker, DlsiteWork } from './dlsite-data.ts';
import { image, media, silentMp3 } from './kit/media.ts';
import { cp932Zip, zipOf } from './kit/zip.ts';

/** img.dlsite.jp URL builder: the fake's CDN origin, or https://img.dlsite.jp for fixtures. */
export type ImgHost = string;
export const REAL_IMG = 'https://img.dlsite.jp';

export const domainOf = (w: DlsiteWork) => (w.site === 'pro' ? 'professional' : w.site === 'books' ? 'books' : 'doujin');
/** Image folders: the number rounded up to the next thousand (RJ01000001 -> RJ01001000). */
export function bucketOf(workno: string): string {
  const m = /^([A-Z]{2})(\d+)$/.exec(workno)!;
  return m[1] + String(Math.ceil(Number(m[2]) / 1000) * 1000).padStart(m[2].length, '0');
}
export const imagePath = (w: DlsiteWork, suffix: string) =>
  `/modpub/images2/work/${domainOf(w)}/${bucketOf(w.workno)}/${w.workno}_img_${suffix}.jpg`;
export const thumbPath = (w: DlsiteWork) => `/resize/images2/work/${domainOf(w)}/${bucketOf(w.workno)}/${w.workno}_img_main_240x240.jpg`;
/** Protocol-relative, as product.json and ajax give them. */
export const relative = (img: ImgHost, path: string) => img.replace(/^https?:/, '') + path;

export const filesOf = (w: DlsiteWork): string[] =>
  w.delivery.kind === 'split' ? w.delivery.parts : w.delivery.kind === 'browser' ? [] : [w.delivery.file];
/** Where play.dlsite.com/api/v3/download sends a work's downloads: the direct link, the split page or the serial page. */
export const downloadPath = (w: DlsiteWork) =>
  w.delivery.kind === 'split'
    ? `/home/download/split/=/product_id/${w.workno}.html`
    : w.delivery.kind === 'serial'
      ? `/home/serial/=/product_id/${w.workno}.html`
      : `/home/download/=/product_id/${w.workno}.html`;
/** The long description's HTML, its SAMPLE:{n} placeholders replaced by the sample images' URLs. */
export function descriptionHtml(w: DlsiteWork, img: ImgHost): string {
  const samples = Array.from({ length: w.samples }, (_, i) => relative(img, imagePath(w, `smp${i + 1}`)));
  return w.description.replace(/SAMPLE:(\d+)/g, (_, n: string) => samples[Number(n) - 1] ?? '');
}
const ext = (name: string) => name.slice(name.lastIndexOf('.') + 1).toLowerCase();
const AGE = { all: [1, 'general'], r15: [2, 'r15'], r18: [3, 'adult'] } as const;
/** 2024-01-02T03:04:05Z -> "2024-01-02 12:04:05" (JST, as the store's JSON writes dates). */
export const jst = (iso: string) => new Date(Date.parse(iso) + 9 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');

/** One item of GET play.dlsite.com/api/v3/content/sales. */
export const salesItem = (w: DlsiteWork) => ({ workno: w.workno, sales_date: w.salesDate!.replace('Z', '.000000Z') });

/** One object of POST play.dlsite.com/api/v3/content/works. */
export function playWork(w: DlsiteWork, maker: DlsiteMaker, img: ImgHost, size: number) {
  return {
    workno: w.workno,
    name: w.name,
    maker: { id: maker.id, name: { ja_JP: maker.name, ...(maker.nameEn ? { en_US: maker.nameEn } : {}) } },
    work_type: w.workType,
    age_category: w.age,
    genre_ids: w.genres.length ? w.genres.map((g) => g.id) : null,
    work_files: { main: img + imagePath(w, 'main'), sam: img + imagePath(w, 'sam') },
    regist_date: w.registDate,
    sales_date: w.salesDate!.slice(0, 10),
    upgrade_date: w.upgradeDate,
    tags:
      w.creators.length || w.genres.length
        ? [...w.creators.map((c) => ({ class: c.class, name: c.name })), ...w.genres.map((g) => ({ class: 'genre', name: g.name }))]
        : null,
    author_name: w.creators.map((c) => c.name).join('/'),
    content_size: size,
    file_type: w.fileType,
  };
}

/** The object of GET www.dlsite.com/{site}/api/=/product.json?workno= (the answer is [this]). */
export function productJson(w: DlsiteWork, maker: DlsiteMaker, img: ImgHost, sizes: Map<string, number>) {
  const files = filesOf(w);
  const by = (cls: string) =>
    w.creators.filter((c) => c.class === cls).map((c, i) => ({ id: 10_000 + i, name: c.name, classification: cls }));
  const creaters = Object.fromEntries(
    ['created_by', 'scenario_by', 'illust_by', 'voice_by', 'music_by'].map((k) => [k, by(k)]).filter(([, v]) => v.length),
  );
  const update = jst(w.upgradeDate ?? w.registDate);
  return {
    workno: w.workno,
    product_id: w.workno,
    work_name: w.name.ja_JP,
    work_name_kana: '',
    work_name_masked: w.name.ja_JP,
    maker_id: maker.id,
    maker_name: maker.name,
    maker_name_en: maker.nameEn ?? null,
    ...(maker.id.startsWith('RG') ? { circle_id: maker.id } : { brand_id: maker.id }),
    site_id: w.site,
    age_category: AGE[w.age][0],
    age_category_string: AGE[w.age][1],
    work_type: w.workType,
    work_type_string: w.workTypeString,
    file_type: w.fileType,
    intro_s: w.introS,
    intro: null,
    introductions: null,
    regist_date: jst(w.registDate),
    update_date: update,
    genres: w.genres.map((g) => ({ name: g.name, id: g.id, search_val: String(g.id).padStart(3, '0'), name_base: g.name })),
    custom_genres: [],
    creaters,
    author: w.creators.filter((c) => c.class === 'created_by').map((c) => ({ author_name: c.name })),
    image_main: {
      workno: w.workno,
      type: 'main',
      file_name: `${w.workno}_img_main.jpg`,
      file_size: 4096,
      width: 560,
      height: 420,
      url: relative(img, imagePath(w, 'main')),
    },
    image_thumb: relative(img, thumbPath(w)),
    image_samples: Array.from({ length: w.samples }, (_, i) => ({
      workno: w.workno,
      type: `smp${i + 1}`,
      file_name: `${w.workno}_img_smp${i + 1}.jpg`,
      width: 560,
      height: 420,
      url: relative(img, imagePath(w, `smp${i + 1}`)),
    })),
    contents: files.map((name, i) => ({
      workno: w.workno,
      type: 'file',
      file_name: name,
      file_size: sizes.get(name) ?? 0,
      extension: ext(name),
      id: 30_000 + i,
      update_date: update,
    })),
    is_split_content: w.delivery.kind === 'split',
    content_count: files.length,
    contents_file_size: files.reduce((s, name) => s + (sizes.get(name) ?? 0), 0),
    is_dlsiteplay_work: true,
    is_dlsiteplay_only_work: w.delivery.kind === 'browser',
    is_rental_work: false,
    series_name: null,
    title_name: null,
  };
}

/** The map of GET www.dlsite.com/{site}/product/info/ajax?product_id= (an absent work: no key). */
export function ajaxInfo(w: DlsiteWork, img: ImgHost, origin: string) {
  return {
    [w.workno]: {
      site_id: w.site,
      maker_id: w.makerId,
      work_name: w.name.ja_JP,
      work_name_masked: w.name.ja_JP,
      title_name: null,
      age_category: AGE[w.age][0],
      work_type: w.workType,
      regist_date: jst(w.registDate),
      work_image: relative(img, imagePath(w, 'main')),
      book_type: { value: '' },
      is_sale: true,
      on_sale: 1,
      down_url: `${origin}/${w.site}/download/=/product_id/${w.workno}.html`,
    },
  };
}

/** Each downloadable file's bytes, by file name. */
export async function archiveBytes(w: DlsiteWork): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const readme = `${w.name.ja_JP}\r\nversion ${w.version ?? 1}\r\n`;
  const jpg = (name: string) => image(`${w.workno}:${name}`, { format: 'jpeg', width: 24, height: 32 });
  switch (w.workType) {
    case 'SOU':
      out.set(
        filesOf(w)[0],
        cp932Zip([
          { name: `${w.workno}/はじめにお読みください.txt`, data: readme },
          { name: `${w.workno}/音声/01_はじめに.mp3`, data: silentMp3() },
          { name: `${w.workno}/音声/02_耳かき.mp3`, data: silentMp3() },
          { name: `${w.workno}/画像/表紙.jpg`, data: await jpg('cover') },
        ]),
      );
      break;
    case 'MNG': {
      const whole = await zipOf([
        { name: 'readme.txt', data: readme },
        ...(await Promise.all(
          [1, 2, 3, 4].map(async (n) => ({ name: `本編/${String(n).padStart(3, '0')}.jpg`, data: await jpg(`page${n}`) })),
        )),
      ]);
      const parts = filesOf(w);
      const cut = Math.ceil(whole.length / parts.length);
      parts.forEach((name, i) => out.set(name, whole.subarray(i * cut, (i + 1) * cut)));
      break;
    }
    case 'MOV':
      out.set(
        filesOf(w)[0],
        await zipOf([
          { name: 'readme.txt', data: readme },
          { name: 'movie/本編.mp4', data: media.mp4() },
        ]),
      );
      break;
    default:
      for (const name of filesOf(w)) {
        if (name.endsWith('.dlst')) out.set(name, Buffer.concat([Buffer.from('DLST\x00\x02'), Buffer.alloc(2048, 0x5a)]));
        else if (w.workType === 'NRE')
          out.set(
            name,
            await zipOf([
              { name: `${w.workno}/本文.txt`, data: `${w.introS}\n\n${'　本文。'.repeat(40)}\n` },
              { name: `${w.workno}/readme.txt`, data: readme },
            ]),
          );
        else
          out.set(
            name,
            await zipOf([
              { name: 'readme.txt', data: readme },
              { name: 'CG/01.jpg', data: await jpg('cg1') },
              { name: 'CG/02.jpg', data: await jpg('cg2') },
            ]),
          );
      }
  }
  return out;
}
