/**
 * The fake DLsite's content (circles/brands, works, the key's purchases) and how DLsite renders it: the Play
 * API's `content/sales` items and `content/works` objects (localized name maps, maker {id, name}, UTC dates
 * with Z, work_files on img.dlsite.jp), the store's public product.json (one-object array: work_name,
 * maker_id, intro_s, genres, `creaters`, image_main with protocol-relative URLs, `contents` with the real
 * archive names, JST dates without offset) and ajax info, and each work's archive bytes (a cp932-named zip
 * for the voice work, UTF-8 yazl zips elsewhere, a split zip in parts, a DRM .dlst blob). Shapes from
 * /work/research/dlsite.md (dm-api's live-verified fixtures, dlsite-rs's ProductApiContent, BH, DECK).
 */
import { image, media, silentMp3 } from './kit/media.ts';
import { cp932Zip, zipOf } from './kit/zip.ts';

export type Delivery =
  | { kind: 'direct'; file: string }
  /** Parts of one zip cut in pieces (the real site's are RAR SFX volumes: .part1.exe, .part2.rar). */
  | { kind: 'split'; parts: string[] }
  /** A direct archive plus a serial number on the serial page (a secret: never stored). */
  | { kind: 'serial'; file: string; serial: string }
  /** Browser-only (icon_WBO): nothing to download; read in DLsite Play. */
  | { kind: 'browser' };

export interface DlsiteMaker {
  id: string;
  name: string;
  nameEn?: string;
}

export interface DlsiteWork {
  workno: string;
  site: 'maniax' | 'home' | 'pro' | 'books';
  makerId: string;
  name: { ja_JP: string; en_US?: string };
  workType: string;
  workTypeString: string;
  age: 'all' | 'r15' | 'r18';
  genres: { id: number; name: string }[];
  creators: { class: 'created_by' | 'scenario_by' | 'illust_by' | 'voice_by' | 'music_by'; name: string }[];
  introS: string;
  /** The work page's long description (HTML); 'SAMPLE:{n}' is replaced by that sample image's URL. */
  description: string;
  /** Release (UTC, Z). */
  registDate: string;
  /** Last version up (UTC, Z) or null. */
  upgradeDate: string | null;
  fileType: string;
  delivery: Delivery;
  /** Format icons of the work page: PVA = dedicated viewer (DRM), WBO = browser only. */
  icons?: string[];
  samples: number;
  /** Bought by the key at this time (UTC, Z); undefined: not bought. */
  salesDate?: string;
  /** Withdrawn: still in the key's sales, but no metadata, no page, no download anywhere. */
  gone?: boolean;
  /** Has DLsite Play (streamed) files: the browser-only comic. */
  playPages?: number;
  /** Bumped by a version up: the archive's readme changes with it. */
  version?: number;
}

export interface DlsiteDataset {
  makers: DlsiteMaker[];
  works: DlsiteWork[];
}

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

export const FAKE_DLSITE_KEY = 'fakeDlsiteSid0123456789abcdef0123456789ab';
export const FAKE_DLSITE_LOGIN = { loginId: 'fan@example.com', password: 'correct horse battery' };

const G = {
  asmr: { id: 497, name: 'ASMR' },
  ear: { id: 498, name: '耳かき' },
  binaural: { id: 499, name: 'バイノーラル/ダミヘ' },
  comic: { id: 57, name: 'ラブコメ' },
  fantasy: { id: 64, name: 'ファンタジー' },
  cg: { id: 31, name: 'CG・イラスト' },
};
const work = (
  n: number,
  fields: Omit<DlsiteWork, 'workno' | 'samples' | 'upgradeDate'> & { samples?: number; upgradeDate?: string | null; prefix?: string },
): DlsiteWork => {
  const { prefix, ...rest } = fields;
  return { workno: `${prefix ?? 'RJ'}0${1_000_000 + n}`, samples: 2, upgradeDate: null, ...rest };
};

/**
 * Three makers and eleven works: a voice work (cp932 zip, version up), a manga in two parts, a game with a
 * serial, a browser-only comic (Play only), a DRM (PVA) comic, a video work, a CG set with a unicode title,
 * a novel, a withdrawn purchase, a work not bought, and one more voice work for batches.
 */
export function demoDataset(): DlsiteDataset {
  return {
    makers: [
      { id: 'RG01000001', name: 'ささやき工房', nameEn: 'Sasayaki Koubou' },
      { id: 'RG01000002', name: 'Pixel Lab ✦' },
      { id: 'VG01000001', name: 'Studio Nova', nameEn: 'Studio Nova' },
    ],
    works: [
      work(1, {
        site: 'maniax',
        makerId: 'RG01000001',
        name: { ja_JP: '夏の終わりのASMR ～耳かきと子守唄～', en_US: 'End of Summer ASMR' },
        workType: 'SOU',
        workTypeString: 'ボイス・ASMR',
        age: 'r18',
        genres: [G.asmr, G.ear, G.binaural],
        creators: [
          { class: 'voice_by', name: '声優X' },
          { class: 'scenario_by', name: '脚本Y' },
        ],
        introS: '耳かきと子守唄のバイノーラル音声です。',
        description:
          '<p>夏の終わりに、ゆっくり休みませんか。</p><p><img src="SAMPLE:1" alt="サンプル"></p><p>トラック：はじめに／耳かき</p>',
        registDate: '2024-06-30T15:00:00Z',
        upgradeDate: '2024-08-01T03:00:00Z',
        fileType: 'WAV',
        delivery: { kind: 'direct', file: 'RJ01000001.zip' },
        salesDate: '2024-07-01T10:00:00Z',
        version: 2,
      }),
      work(2, {
        site: 'home',
        makerId: 'RG01000002',
        name: { ja_JP: 'ピクセル少女の冒険 第1巻' },
        workType: 'MNG',
        workTypeString: 'マンガ',
        age: 'all',
        genres: [G.comic, G.fantasy],
        creators: [{ class: 'created_by', name: 'ピクセル' }],
        introS: '全年齢の冒険マンガ。',
        description: '<p>全40ページの冒険マンガです。</p>',
        registDate: '2024-03-14T15:00:00Z',
        fileType: 'IJP',
        delivery: { kind: 'split', parts: ['RJ01000002.zip.001', 'RJ01000002.zip.002'] },
        salesDate: '2024-04-02T09:00:00Z',
      }),
      work(3, {
        prefix: 'VJ',
        site: 'pro',
        makerId: 'VG01000001',
        name: { ja_JP: '星降る夜のノベルゲーム' },
        workType: 'ADV',
        workTypeString: 'アドベンチャー',
        age: 'r18',
        genres: [G.fantasy],
        creators: [
          { class: 'scenario_by', name: 'ノヴァ' },
          { class: 'music_by', name: '作曲Z' },
        ],
        introS: 'シリアル付きのノベルゲーム。',
        description: '<p>美しい星空の物語。</p>',
        registDate: '2023-12-01T15:00:00Z',
        fileType: 'EXE',
        delivery: { kind: 'serial', file: 'VJ01000003.zip', serial: 'ABCD-1234-EFGH-5678' },
        salesDate: '2024-01-05T12:00:00Z',
      }),
      work(4, {
        site: 'home',
        makerId: 'RG01000002',
        name: { ja_JP: 'ブラウザで読む短編集' },
        workType: 'MNG',
        workTypeString: 'マンガ',
        age: 'all',
        genres: [G.comic],
        creators: [{ class: 'created_by', name: 'ピクセル' }],
        introS: 'ブラウザ視聴専用。',
        description: '<p>DLsite Playでお読みください。</p>',
        registDate: '2024-02-10T15:00:00Z',
        fileType: 'WBO',
        icons: ['WBO'],
        delivery: { kind: 'browser' },
        salesDate: '2024-02-11T08:00:00Z',
        playPages: 3,
      }),
      work(5, {
        site: 'maniax',
        makerId: 'RG01000001',
        name: { ja_JP: '専用ビューア版コミック' },
        workType: 'MNG',
        workTypeString: 'マンガ',
        age: 'r18',
        genres: [G.comic],
        creators: [{ class: 'created_by', name: '作者A' }],
        introS: '専用ビューアで閲覧する作品。',
        description: '<p>DRM付き。</p>',
        registDate: '2023-10-01T15:00:00Z',
        fileType: 'PVA',
        icons: ['PVA'],
        delivery: { kind: 'direct', file: 'RJ01000005.dlst' },
        salesDate: '2023-10-03T00:00:00Z',
      }),
      work(6, {
        site: 'maniax',
        makerId: 'RG01000002',
        name: { ja_JP: '3秒タイムラプス動画' },
        workType: 'MOV',
        workTypeString: '動画',
        age: 'all',
        genres: [G.cg],
        creators: [{ class: 'created_by', name: 'ピクセル' }],
        introS: '短い動画作品。',
        description: '<p>MP4動画1本。</p>',
        registDate: '2024-05-05T15:00:00Z',
        fileType: 'MP4',
        delivery: { kind: 'direct', file: 'RJ01000006.zip' },
        salesDate: '2024-05-06T00:00:00Z',
      }),
      work(7, {
        site: 'maniax',
        makerId: 'RG01000002',
        name: { ja_JP: '✨夏祭り CG集 〜ünïcödé〜 🎆', en_US: 'Summer Festival CG ✨' },
        workType: 'ICG',
        workTypeString: 'CG・イラスト',
        age: 'r15',
        genres: [G.cg],
        creators: [{ class: 'illust_by', name: 'イラストB' }],
        introS: '夏祭りのCG集。',
        description: '<p>差分込み50枚。</p><p><img src="SAMPLE:2"></p>',
        registDate: '2024-07-20T15:00:00Z',
        fileType: 'IJP',
        delivery: { kind: 'direct', file: 'RJ01000007.zip' },
        salesDate: '2024-07-21T00:00:00Z',
        samples: 3,
      }),
      work(8, {
        site: 'maniax',
        makerId: 'RG01000001',
        name: { ja_JP: '短編小説「雨宿り」' },
        workType: 'NRE',
        workTypeString: 'ノベル',
        age: 'all',
        genres: [],
        creators: [],
        introS: '雨の日の短編小説。',
        description: '<p>テキストのみの作品です。</p>',
        registDate: '2024-04-20T15:00:00Z',
        fileType: 'TXT',
        delivery: { kind: 'direct', file: 'RJ01000008.zip' },
        salesDate: '2024-04-21T00:00:00Z',
        samples: 0,
      }),
      work(9, {
        site: 'maniax',
        makerId: 'RG01000001',
        name: { ja_JP: '販売終了した作品' },
        workType: 'SOU',
        workTypeString: 'ボイス・ASMR',
        age: 'r18',
        genres: [],
        creators: [],
        introS: '',
        description: '',
        registDate: '2022-01-01T15:00:00Z',
        fileType: 'WAV',
        delivery: { kind: 'direct', file: 'RJ01000009.zip' },
        salesDate: '2022-02-01T00:00:00Z',
        gone: true,
      }),
      work(10, {
        site: 'maniax',
        makerId: 'RG01000001',
        name: { ja_JP: '未購入の新作ボイス' },
        workType: 'SOU',
        workTypeString: 'ボイス・ASMR',
        age: 'r18',
        genres: [G.asmr],
        creators: [{ class: 'voice_by', name: '声優X' }],
        introS: 'まだ買っていない作品。',
        description: '<p>新作です。</p>',
        registDate: '2024-09-01T15:00:00Z',
        fileType: 'WAV',
        delivery: { kind: 'direct', file: 'RJ01000010.zip' },
      }),
      work(11, {
        site: 'maniax',
        makerId: 'RG01000001',
        name: { ja_JP: 'おやすみボイス' },
        workType: 'SOU',
        workTypeString: 'ボイス・ASMR',
        age: 'all',
        genres: [G.asmr],
        creators: [{ class: 'voice_by', name: '声優W' }],
        introS: '寝る前に。',
        description: '<p>おやすみなさい。</p>',
        registDate: '2024-08-10T15:00:00Z',
        fileType: 'MP3',
        delivery: { kind: 'direct', file: 'RJ01000011.zip' },
        salesDate: '2024-08-11T00:00:00Z',
      }),
    ],
  };
}

/**
 * A library of `count` bought works over three circles, for the benchmark (bench/importers/dlsite.ts):
 * voice works and CG sets in turn, each with a cover, one sample shown in its description and one zip.
 */
export function generatedDataset(count: number): DlsiteDataset {
  const makers = demoDataset().makers;
  const works = Array.from({ length: count }, (_, i) =>
    work(100 + i, {
      site: 'maniax',
      makerId: makers[i % makers.length].id,
      name: { ja_JP: `ベンチ作品 ${i + 1}` },
      workType: i % 2 ? 'ICG' : 'SOU',
      workTypeString: i % 2 ? 'CG・イラスト' : 'ボイス・ASMR',
      age: 'all',
      genres: [i % 2 ? G.cg : G.asmr],
      creators: [],
      introS: `作品 ${i + 1}`,
      description: `<p>作品 ${i + 1} の説明。</p><p><img src="SAMPLE:1"></p>`,
      registDate: new Date(Date.UTC(2024, 0, 1) + i * 3600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
      fileType: i % 2 ? 'IJP' : 'MP3',
      delivery: { kind: 'direct', file: `RJ0${1_000_100 + i}.zip` },
      salesDate: new Date(Date.UTC(2024, 6, 1) + i * 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
      samples: 1,
    }),
  );
  return { makers, works };
}
