/**
 * The Boosty mappers, table-driven over the recorded-shape fixtures (tests/fakes/boosty-fixtures.ts: one
 * post object per content kind as api.boosty.to gives it): each is read with the importer's schema,
 * judged (stored / locked / gone), mapped with stand-in archive paths and stored in a real SQLite file,
 * and the stored post is checked.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { upsertCreator } from '@api/data/creators.ts';
import { getPost, upsertPost } from '@api/data/posts.ts';
import { post as postSchema, type BoostyPost } from '@api/importer/paysites/boosty/api.ts';
import { parseBoostyKey } from '@api/importer/paysites/boosty/auth.ts';
import { redactCredential } from '@api/importer/credential.ts';
import {
  blocksToHtml,
  postMedia,
  postVerdict,
  signedUrl,
  styledText,
  textOf,
  toPostInput,
  type MediaItem,
} from '@api/importer/paysites/boosty/map.ts';
import { boostyImageExtension as imageExtension } from '@api/importer/paysites/boosty/media.ts';
import { boostyFixtures } from '../../fakes/boosty-fixtures.ts';
import { FAKE_BOOSTY_AUTH, FAKE_BOOSTY_KEY } from '../../fakes/boosty.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
beforeEach(async () => {
  t = tempDb();
  await upsertCreator(t.db, { service: 'boosty', id: 'mariya-art', name: 'Мария' });
});
afterEach(() => t.cleanup());

const fixture = (kind: string) => {
  const found = boostyFixtures.find((x) => x.kind.startsWith(kind));
  if (!found) throw new Error(`no fixture ${kind}`);
  return found;
};

/** A stand-in archive path for a media item: '/ab/cd/<sha256 of its id>.<ext>'. */
const fakePath = (id: string, ext: string) => {
  const h = createHash('sha256').update(id).digest('hex');
  return `/${h.slice(0, 2)}/${h.slice(2, 4)}/${h}.${ext}`;
};

/** Maps a post as the importer does, with every media item "archived" at a stand-in path. */
async function storeMapped(post: BoostyPost) {
  const items = postMedia(post);
  const saved = items.map((item: MediaItem) =>
    item.kind === 'image'
      ? { id: item.id, kind: item.kind, name: `${item.id}.png`, path: fakePath(item.id, 'png') }
      : { id: item.id, kind: item.kind, name: item.name, path: fakePath(item.id, item.name.split('.').pop()!) },
  );
  const images = saved.filter((s) => s.kind === 'image');
  const input = toPostInput('mariya-art', post, {
    file: images[0] ? { name: images[0].name, path: images[0].path } : null,
    attachments: saved.filter((s) => s !== images[0]).map(({ name, path }) => ({ name, path })),
    archived: {
      image: (id) => saved.find((s) => s.id === id && s.kind === 'image')?.path.replace(/^/, '/data'),
      file: (id) => {
        const s = saved.find((x) => x.id === id && x.kind !== 'image');
        return s && { path: `/data${s.path}`, name: s.name };
      },
    },
  });
  await upsertPost(t.db, input);
  return { items, stored: (await getPost(t.db, 'boosty', 'mariya-art', post.id))! };
}

interface Row {
  kind: string;
  verdict: 'post' | 'locked' | 'gone';
  title?: string;
  content?: string | RegExp;
  file?: RegExp | null;
  attachments?: (string | RegExp)[];
  embed?: string | null;
  tags?: string[];
}

const IMG = '<p><img src="/data/[0-9a-f/]+\\.png"[^>]*></p>';

const ROWS: Row[] = [
  {
    kind: 'text only',
    verdict: 'post',
    title: 'Заметки о цвете',
    content:
      '<h2>Тёплое и холодное</h2><p><b>Жирный</b> и <i>курсив</i> в одной строке.</p><ol><li>Палитра</li><li>Свет</li><li>Тень</li></ol><p>:heart:</p>',
    file: null,
    attachments: [],
    tags: ['теория', 'цвет'],
  },
  {
    kind: 'gallery',
    verdict: 'post',
    content: new RegExp(`^<p>Три наброска\\.</p>(${IMG}){3}$`),
    file: /^[0-9a-f-]{36}\.png$/,
    attachments: [/^[0-9a-f-]{36}\.png$/, /^[0-9a-f-]{36}\.png$/],
  },
  {
    kind: 'files with real names',
    verdict: 'post',
    content:
      /^<p>Архив и отдельный файл\.<\/p><p><a href="\/data\/[^"]+\.zip\?f=%D0%98[^"]*"[^>]*>Исходники_скетчей\.zip<\/a><\/p><p><a [^>]+>24\.12\.12-109 копия\.png<\/a><\/p>$/,
    file: null,
    attachments: ['Исходники_скетчей.zip', '24.12.12-109 копия.png'],
  },
  {
    kind: 'blog post with an inline image',
    verdict: 'post',
    content: new RegExp(
      `^<p>Сначала подмалёвок:</p>${IMG}<p>Потом детали\\. Подробнее в <a href="https://example\\.org/clouds"[^>]*>статье</a>\\.</p>$`,
    ),
    file: /\.png$/,
    attachments: [],
  },
  {
    kind: 'embed',
    verdict: 'post',
    content: /^<p>Запись стрима:<\/p><p><a href="https:\/\/www\.youtube\.com\/watch\?v=dQw4w9WgXcQ"[^>]*>/,
    embed: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    attachments: [],
  },
  {
    kind: 'video',
    verdict: 'post',
    content: /^<p>Три секунды заката\.<\/p><p><a href="\/data\/[^"]+\.mp4\?f=sunset-timelapse\.mp4"[^>]*>sunset-timelapse\.mp4<\/a><\/p>$/,
    attachments: ['sunset-timelapse.mp4'],
  },
  {
    kind: 'audio',
    verdict: 'post',
    attachments: ['podcast-01.mp3'],
    content: /^<p>Говорим о кистях\.<\/p><p><a [^>]+>podcast-01\.mp3<\/a><\/p>$/,
  },
  { kind: 'locked', verdict: 'locked' },
  {
    kind: 'unicode',
    verdict: 'post',
    title: '日本語タイトル — ünïcödé ✨ 🎉',
    content: '<p>Текст: 日本語、emoji 🎨, RTL: שלום, combining: é.</p>',
    tags: ['ünïcödé'],
  },
  {
    kind: 'pinned',
    verdict: 'post',
    title: 'Добро пожаловать! 📌',
    content: '<p>Здесь я выкладываю скетчи, исходники и таймлапсы.</p><p>Правила: <b>без репостов</b>.</p>',
    tags: ['новости'],
  },
];

describe('boosty mappers over the recorded fixtures', () => {
  it.each(ROWS)('$kind', async (row) => {
    const post = postSchema.parse(fixture(row.kind).body);
    expect(postVerdict(post)).toBe(row.verdict);
    if (row.verdict !== 'post') {
      expect(post.data ?? []).toEqual([]);
      return;
    }
    const { stored } = await storeMapped(post);
    expect(stored.published).toMatch(/^2024-\d\d-\d\dT00:00:00$/);
    if (row.title !== undefined) expect(stored.title).toBe(row.title);
    if (typeof row.content === 'string') expect(stored.content).toBe(row.content);
    else if (row.content) expect(stored.content).toMatch(row.content);
    if (row.file === null) expect(stored.file).toEqual({});
    else if (row.file) expect((stored.file as { name: string }).name).toMatch(row.file);
    if (row.attachments) {
      expect(stored.attachments).toHaveLength(row.attachments.length);
      row.attachments.forEach((name, i) => {
        if (typeof name === 'string') expect(stored.attachments[i].name).toBe(name);
        else expect(stored.attachments[i].name).toMatch(name);
      });
    }
    if (row.embed !== undefined) expect(stored.embed).toMatchObject(row.embed ? { url: row.embed } : {});
    if (row.tags) expect(stored.tags).toEqual(row.tags);
    expect(stored.content).not.toMatch(/boosty\.to|okcdn/);
  });

  it('deleted: a 404 on its own and isDeleted in a list are never stored', () => {
    const gone = fixture('deleted');
    expect(gone.status).toBe(404);
    expect(postSchema.safeParse(gone.body).success).toBe(false);
    const post = postSchema.parse({ ...(fixture('text only').body as object), isDeleted: true });
    expect(postVerdict(post)).toBe('gone');
  });

  it('video: the best non-empty MP4 quality, signed files and audio, the preview', () => {
    const items = postMedia(postSchema.parse(fixture('video').body));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: 'video', name: 'sunset-timelapse.mp4', complete: true });
    expect((items[0] as { mp4: string }).mp4).toMatch(/^https:\/\/vd123\.okcdn\.ru\/\?.*type=low&/);
    const files = postMedia(postSchema.parse(fixture('files').body));
    expect(files.map((f) => (f as { url: string }).url)).toEqual(
      files.map(() =>
        expect.stringMatching(/^https:\/\/cdn\.boosty\.to\/file\/[0-9a-f-]+\?user_id=30000001&content_id=\d+&expire_time=\d+&sign=/),
      ),
    );
  });

  it('poll, tags, dates and edits', async () => {
    const body = (fixture('poll').body as { poll: object }).poll;
    const post = postSchema.parse({ ...body, updatedAt: (body as { publishTime: number }).publishTime + 3600 });
    const { stored } = await storeMapped(post);
    expect(stored.poll).toMatchObject({
      title: 'Что дальше?',
      total_votes: 13,
      choices: [
        { text: 'Портреты', votes: 5 },
        { text: 'Пейзажи', votes: 8 },
      ],
    });
    expect(stored.edited).toBe(stored.published!.replace('T00:', 'T01:'));
  });

  it('subscriptions and blog: the creator is the blogUrl, icon and banner from the owner and cover', () => {
    const subs = fixture('subscription').body as { data: { blog: { blogUrl: string; owner: { avatarUrl: string }; coverUrl: string } }[] };
    expect(subs.data.map((s) => s.blog.blogUrl)).toEqual(['mariya-art', 'synthwave-lab']);
    expect(subs.data[0].blog.owner.avatarUrl).toMatch(/^https:\/\/images\.boosty\.to\/user\/144001\/avatar/);
    expect(subs.data[0].blog.coverUrl).toBe('https://images.boosty.to/blog/144001/cover');
  });
});

describe('boosty text and key helpers', () => {
  it('reads styles as (offset, length) in code points, escapes, and keeps newlines', () => {
    expect(styledText('🎨 bold <x>', [[0, 2, 4]])).toBe('🎨 <b>bold</b> &lt;x&gt;');
    expect(
      styledText('a\nb', [
        [4, 0, 3],
        [9, 0, 1],
      ]),
    ).toBe('<u>a<br>b</u>');
    expect(textOf('plain, not JSON')).toEqual({ text: 'plain, not JSON', style: 'unstyled', ranges: [] });
    expect(blocksToHtml([{ type: 'text', content: JSON.stringify(['x', 'header-two', []]), modificator: 'BLOCK_END' }])).toBe('<h3>x</h3>');
    expect(
      blocksToHtml([
        {
          type: 'list',
          style: null,
          items: [
            {
              data: [{ type: 'text', content: '["a","unstyled",[]]' }],
              items: [{ data: [{ type: 'text', content: '["b","unstyled",[]]' }] }],
            },
          ],
        },
      ]),
    ).toBe('<ul><li>a<ul><li>b</li></ul></li></ul>');
  });

  it('signs URLs with the signedQuery, with & when the URL has a query', () => {
    expect(signedUrl('https://cdn.boosty.to/file/x', '?a=1&sign=2')).toBe('https://cdn.boosty.to/file/x?a=1&sign=2');
    expect(signedUrl('https://cdn.boosty.to/file/x?v=1', '?a=1')).toBe('https://cdn.boosty.to/file/x?v=1&a=1');
    expect(signedUrl('https://cdn.boosty.to/file/x', '')).toBe('https://cdn.boosty.to/file/x');
  });

  it('takes the auth cookie URL-encoded or not, expiresAt in ms (or seconds); refuses anything else without quoting it', () => {
    expect(parseBoostyKey(FAKE_BOOSTY_KEY)).toEqual(FAKE_BOOSTY_AUTH);
    expect(parseBoostyKey(decodeURIComponent(FAKE_BOOSTY_KEY))).toEqual(FAKE_BOOSTY_AUTH);
    expect(parseBoostyKey(JSON.stringify({ ...FAKE_BOOSTY_AUTH, expiresAt: 4_000_000_000 })).expiresAt).toBe(4_000_000_000_000);
    for (const bad of ['secret-not-json', '{"accessToken":"secret-x"}', '%E0%A4%A']) {
      expect(() => parseBoostyKey(bad)).toThrow(/not the auth cookie/);
      try {
        parseBoostyKey(bad);
      } catch (error) {
        expect((error as Error).message).not.toContain('secret');
      }
    }
  });

  it("lets the worker's filter scrub either token of the key on its own, encoded key or decoded", () => {
    for (const key of [FAKE_BOOSTY_KEY, decodeURIComponent(FAKE_BOOSTY_KEY)]) {
      const line = `a ${FAKE_BOOSTY_AUTH.accessToken} b ${FAKE_BOOSTY_AUTH.refreshToken} c ${key}`;
      expect(redactCredential(line, key)).toBe('a [key] b [key] c [key]');
    }
  });

  it('names images by their bytes when the URL has no extension', () => {
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    expect(imageExtension('image/png', png, 'https://images.boosty.to/image/x')).toBe('.png');
    expect(imageExtension(undefined, Buffer.from([0xff, 0xd8, 0xff]), 'https://images.boosty.to/image/x')).toBe('.jpg');
    expect(imageExtension('application/octet-stream', Buffer.from('RIFF....WEBPVP8 '), 'https://images.boosty.to/image/x')).toBe('.webp');
    expect(imageExtension(undefined, Buffer.alloc(4), 'https://images.boosty.to/image/x')).toBe('');
  });
});
