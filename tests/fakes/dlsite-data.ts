/**
 * The fake DLsite's content: circles/brands, works (how each one is delivered: a direct archive, a zip in
 * parts, an archive with a serial, browser-only), the key's purchases, the demo key and login, and the demo
 * and benchmark datasets. How DLsite renders it, and each work's archive bytes, are in dlsite-render.ts.
 * Shapes from /work/research/dlsite.md (dm-api's live-verified fixtures, dlsite-rs's ProductApiContent, BH,
 * DECK).
 */

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
