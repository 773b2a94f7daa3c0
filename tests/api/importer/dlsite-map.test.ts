/**
 * The DLsite importer's mappers (api/importer/paysites/dlsite/map.ts), table-driven from the recorded-shape
 * fixtures of tests/fakes/dlsite-fixtures.ts (one per content kind) and the fake's page renderers.
 */
import { describe, expect, it } from 'vitest';
import { dlsiteFixtures } from '../../fakes/dlsite-fixtures.ts';
import { demoDataset } from '../../fakes/dlsite-data.ts';
import { serialPage, splitPage, workPage } from '../../fakes/dlsite-pages.ts';
import type { PlayWork, Product } from '@api/importer/paysites/dlsite/api.ts';
import {
  bodyHtml,
  coverOf,
  descriptionHtml,
  directLink,
  downloadKind,
  fileServerName,
  isDrmFile,
  jstTime,
  keyCookieHeader,
  partLinks,
  workPost,
} from '@api/importer/paysites/dlsite/map.ts';

/** What the importer stores of a fixture's work, without fetching: undefined when it is not imported (no Play object). */
function mapped(f: Awaited<ReturnType<typeof dlsiteFixtures>>[number]) {
  if (!f.play) return undefined;
  const play = f.play as PlayWork;
  const info = (f.product ?? undefined) as Product | undefined;
  const cover = coverOf(play, info);
  const files = f.download.files.filter((name) => !isDrmFile(name)).map((name) => ({ name, path: `/x/${name}` }));
  const post = workPost(play, info, {
    content: bodyHtml(f.description ?? undefined, info),
    cover: cover ? { name: cover.name, path: '/cover' } : null,
    attachments: files,
  });
  return { post, cover, download: f.download.location ? downloadKind(f.download.location) : 'none' };
}

const ROWS: {
  kind: string;
  id: string;
  stored?: { user: string; title: string; published: string; edited: string | null; tags: string[]; files: string[] };
  body?: RegExp;
  download?: string;
}[] = [
  {
    kind: 'text only',
    id: 'RJ01000008',
    stored: {
      user: 'RG01000001',
      title: '短編小説「雨宿り」',
      published: '2024-04-20T15:00:00',
      edited: null,
      tags: [],
      files: ['RJ01000008.zip'],
    },
    body: /^<p>テキストのみの作品です。<\/p>$/,
    download: 'direct',
  },
  {
    kind: 'gallery',
    id: 'RJ01000007',
    stored: {
      user: 'RG01000002',
      title: '✨夏祭り CG集 〜ünïcödé〜 🎆',
      published: '2024-07-20T15:00:00',
      edited: null,
      tags: ['CG・イラスト'],
      files: ['RJ01000007.zip'],
    },
    body: /<img src="\/\/img\.dlsite\.jp\/modpub\/images2\/work\/doujin\/RJ01001000\/RJ01000007_img_smp2\.jpg">/,
    download: 'direct',
  },
  {
    kind: 'file',
    id: 'RJ01000001',
    stored: {
      user: 'RG01000001',
      title: '夏の終わりのASMR ～耳かきと子守唄～',
      published: '2024-06-30T15:00:00',
      edited: '2024-08-01T03:00:00',
      tags: ['ASMR', '耳かき', 'バイノーラル/ダミヘ'],
      files: ['RJ01000001.zip'],
    },
    download: 'direct',
  },
  {
    kind: 'blog with inline image',
    id: 'RJ01000001',
    body: /<img src="\/\/img\.dlsite\.jp\/[^"]+RJ01000001_img_smp1\.jpg" alt="サンプル">/,
  },
  {
    kind: 'embed',
    id: 'RJ01000004',
    stored: {
      user: 'RG01000002',
      title: 'ブラウザで読む短編集',
      published: '2024-02-10T15:00:00',
      edited: null,
      tags: ['ラブコメ'],
      files: [],
    },
    download: 'none',
  },
  {
    kind: 'video',
    id: 'RJ01000006',
    stored: {
      user: 'RG01000002',
      title: '3秒タイムラプス動画',
      published: '2024-05-05T15:00:00',
      edited: null,
      tags: ['CG・イラスト'],
      files: ['RJ01000006.zip'],
    },
  },
  {
    kind: 'audio',
    id: 'RJ01000011',
    stored: {
      user: 'RG01000001',
      title: 'おやすみボイス',
      published: '2024-08-10T15:00:00',
      edited: null,
      tags: ['ASMR'],
      files: ['RJ01000011.zip'],
    },
  },
  { kind: 'locked', id: 'RJ01000010' },
  { kind: 'deleted', id: 'RJ01000009' },
  {
    kind: 'split archive',
    id: 'RJ01000002',
    stored: {
      user: 'RG01000002',
      title: 'ピクセル少女の冒険 第1巻',
      published: '2024-03-14T15:00:00',
      edited: null,
      tags: ['ラブコメ', 'ファンタジー'],
      files: ['RJ01000002.zip.001', 'RJ01000002.zip.002'],
    },
    download: 'split',
  },
  { kind: 'serial work', id: 'VJ01000003', download: 'serial', body: /^<p>美しい星空の物語。<\/p>$/ },
  {
    kind: 'DRM work',
    id: 'RJ01000005',
    stored: {
      user: 'RG01000001',
      title: '専用ビューア版コミック',
      published: '2023-10-01T15:00:00',
      edited: null,
      tags: ['ラブコメ'],
      files: [],
    },
  },
];

describe('the DLsite mappers, from the recorded-shape fixtures', () => {
  it.each(ROWS)('$kind ($id)', async (row) => {
    const fixture = (await dlsiteFixtures()).find((f) => f.kind.split(' (')[0] === row.kind)!;
    expect(fixture, row.kind).toBeDefined();
    const result = mapped(fixture);
    if (!row.stored && !row.body && !row.download) {
      // Not bought, or withdrawn: Play gives no object, so nothing is stored.
      expect(result).toBeUndefined();
      return;
    }
    expect(result).toBeDefined();
    const { post, cover, download } = result!;
    expect(post).toMatchObject({ service: 'dlsite', id: row.id, embed: null });
    expect(cover?.name).toBe(`${row.id}_img_main.jpg`);
    expect(cover?.url).toMatch(/^https:\/\/img\.dlsite\.jp\/modpub\/images2\/work\//);
    if (row.stored) {
      const { files, ...fields } = row.stored;
      expect(post).toMatchObject(fields);
      expect(post.attachments!.map((a) => a.name)).toEqual(files);
    }
    if (row.body) expect(post.content).toMatch(row.body);
    if (row.download) expect(download).toBe(row.download);
  });

  it('reads the description, split parts and serial page links as the fake renders them (never the serial)', () => {
    const data = demoDataset();
    const w = (id: string) => data.works.find((x) => x.workno === id)!;
    const maker = data.makers[0];
    const page = workPage(w('RJ01000001'), maker, 'https://img.dlsite.jp', 'https://www.dlsite.com');
    expect(descriptionHtml(page)).toBe(
      '<p>夏の終わりに、ゆっくり休みませんか。</p><p><img src="//img.dlsite.jp/modpub/images2/work/doujin/RJ01001000/RJ01000001_img_smp1.jpg" alt="サンプル"></p><p>トラック：はじめに／耳かき</p>',
    );
    expect(descriptionHtml('<div itemprop="description"><div>a<div>b</div></div>c</div><div>after</div>')).toBe(
      '<div>a<div>b</div></div>c',
    );
    expect(descriptionHtml('<p>no description</p>')).toBeUndefined();
    expect(partLinks(splitPage(w('RJ01000002'), 'https://www.dlsite.com'), 'RJ01000002')).toEqual([
      'https://www.dlsite.com/home/download/=/number/1/product_id/RJ01000002.html',
      'https://www.dlsite.com/home/download/=/number/2/product_id/RJ01000002.html',
    ]);
    const serial = serialPage(w('VJ01000003'), 'https://www.dlsite.com', 'ABCD-1234-EFGH-5678');
    expect(directLink(serial, 'VJ01000003')).toBe('https://www.dlsite.com/home/download/=/product_id/VJ01000003.html');
    expect(partLinks(serial, 'VJ01000003')).toEqual([]);
    expect(downloadKind('https://www.dlsite.com/home/serial/=/product_id/VJ01000003.html')).toBe('serial');
    expect(
      fileServerName('https://download.dlsite.com/get/=/type/work/domain/doujin/dir/RJ299000/file/RJ298231.part1.exe/_/20200903152647'),
    ).toBe('RJ298231.part1.exe');
    expect(fileServerName('https://download.dlsite.com/get/=/file/%E4%BD%9C%E5%93%81.zip/_/1')).toBe('作品.zip');
  });

  it('sends the key as __DLsite_SID, or a browser Cookie string without its Play session, with the age gate passed', () => {
    expect(keyCookieHeader('abc123')).toBe('__DLsite_SID=abc123; adultchecked=1');
    expect(keyCookieHeader('Cookie: __DLsite_SID=abc; play_session=old; uid_jp=1; adultchecked=1')).toBe(
      '__DLsite_SID=abc; uid_jp=1; adultchecked=1',
    );
    expect(jstTime('2024-07-01 09:00:00')).toBe('2024-07-01T00:00:00');
    expect(jstTime(null)).toBeNull();
  });
});
