/**
 * The OnlyFans mapper (api/importer/paysites/onlyfans/map.ts) over the recorded-shape fixtures
 * (tests/fakes/onlyfans-fixtures.ts, one per content kind, with OnlyFans' real hosts): which posts are
 * stored, their title, tags, dates and files, and the post as it is stored (upsert and read back).
 * The signing rules are tested in onlyfans-rules.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { upsertCreator } from '@api/data/creators.ts';
import { registerFile } from '@api/data/files.ts';
import { getPost, upsertPost } from '@api/data/posts.ts';
import { postSchema, userSchema } from '@api/importer/paysites/onlyfans/api.ts';
import { mediaPlan, postCursor, postHtml, skipReason, toPostInput, type PlannedFile } from '@api/importer/paysites/onlyfans/map.ts';
import { sanitizePostHtml } from '@api/content/sanitize.ts';
import { ONLYFANS_FIXTURES } from '../../fakes/onlyfans-fixtures.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

type Kind = keyof typeof ONLYFANS_FIXTURES;
const F = ONLYFANS_FIXTURES;
const jpg = /^\d+x\d+_[0-9a-f]{32}\.jpg$/;
const mp4 = /^320x180_[0-9a-f]{32}\.mp4$/;
const mp3 = /^[0-9a-f]{32}\.mp3$/;

interface Row {
  kind: Exclude<Kind, 'profile'>;
  skip?: 'locked' | 'deleted';
  title?: string;
  tags?: string[];
  file?: RegExp | null;
  attachments?: RegExp[];
  skipped?: RegExp[];
  content?: string | RegExp;
}

const ROWS: Row[] = [
  { kind: 'textOnly', title: 'Hi everyone! Text only today.', file: null, attachments: [], content: 'Hi everyone! Text only today.' },
  { kind: 'image', title: 'Golden hour #sunset #GoldenHour', tags: ['sunset', 'GoldenHour'], file: /^96x64_/, attachments: [] },
  { kind: 'gallery', tags: ['beach', 'sunset'], file: jpg, attachments: [jpg, jpg] },
  { kind: 'video', file: /^48x32_.+\.jpg$/, attachments: [mp4] },
  { kind: 'audio', file: null, attachments: [mp3] },
  { kind: 'locked', skip: 'locked' },
  {
    kind: 'drmVideo',
    file: /^48x32_.+\.jpg$/,
    attachments: [],
    skipped: [/^Post \d+: video \d+ skipped \(DRM-protected video, which cannot be archived\)\.$/],
  },
  { kind: 'legacyMedia', file: /^96x64_/, attachments: [mp4] },
  {
    kind: 'unicode',
    title: '月の光 🌙 こんばんは «Ünïcödé» & <not a tag>',
    tags: [],
    content: '月の光 🌙<br />こんばんは «Ünïcödé» &amp; &lt;not a tag&gt;',
  },
  {
    kind: 'link',
    file: null,
    content: /^My wishlist: <a href="https:\/\/example\.com\/wishlist"[^>]*>https:\/\/example\.com\/wishlist<\/a>$/,
  },
  { kind: 'pinned', title: 'Read this first! (pinned)', file: jpg },
  { kind: 'expiring', file: jpg },
  { kind: 'archived', file: jpg },
  { kind: 'deleted', skip: 'deleted' },
];

let t: TempDb;
beforeEach(async () => {
  t = tempDb();
  await upsertCreator(t.db, { service: 'onlyfans', id: 'luna_moon', name: 'Luna 月' });
});
afterEach(() => t.cleanup());

/** Stands in for archiveFile: a registered store path per planned file (the bytes are not the point here). */
async function archived(item: PlannedFile | undefined) {
  if (!item) return undefined;
  const hash = Buffer.from(item.name.padEnd(32, '0').slice(0, 32)).toString('hex');
  const ext = item.name.split('.').pop()!;
  await registerFile(t.db, { hash, size: 1, ext: `.${ext}`, mime: null });
  return { name: item.name, hash, path: `/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}.${ext}` };
}

describe('onlyfans mapper, one recorded fixture per content kind', () => {
  it.each(ROWS)('$kind', async (row) => {
    const post = postSchema.parse(F[row.kind].post);
    expect(skipReason(post)).toBe(row.skip);
    if (row.skip) return;
    expect(postCursor(post)).toMatch(/^\d+\.000000$/);
    const plan = mediaPlan(post);
    expect(plan.skipped.length, 'skipped lines').toBe(row.skipped?.length ?? 0);
    for (const [i, pattern] of (row.skipped ?? []).entries()) expect(plan.skipped[i]).toMatch(pattern);
    // Only OnlyFans' CDN hosts; the signed query stays on the URL to download, never in a name.
    for (const item of [plan.file, ...plan.attachments].filter(Boolean)) {
      expect(new URL(item!.url).hostname).toBe('cdn2.onlyfans.com');
      expect(item!.name).not.toMatch(/[?&=]/);
    }

    const file = await archived(plan.file);
    const attachments = [];
    for (const attachment of plan.attachments) attachments.push((await archived(attachment))!);
    const input = toPostInput('luna_moon', post, sanitizePostHtml(postHtml(post)), { file, attachments });
    await upsertPost(t.db, input);
    const saved = (await getPost(t.db, 'onlyfans', 'luna_moon', post.id))!;
    expect(saved.published).toBe(post.postedAt!.replace('+00:00', ''));
    expect(saved.edited).toBeNull();
    expect(saved.embed).toEqual({});
    if (row.title) expect(saved.title).toBe(row.title);
    expect(saved.title.length).toBeGreaterThan(0);
    if (row.tags) expect(saved.tags).toEqual(row.tags);
    if (row.file === null) expect(saved.file).toEqual({});
    else if (row.file) expect(saved.file.name).toMatch(row.file);
    if (row.attachments) expect(saved.attachments.map((a) => a.name)).toEqual(row.attachments.map((r) => expect.stringMatching(r)));
    if (typeof row.content === 'string') expect(saved.content).toBe(row.content);
    else if (row.content) expect(saved.content).toMatch(row.content);
  });

  it('reads the profile: id, username as the creator id, avatar and header', () => {
    const user = userSchema.parse(F.profile.user);
    expect(user).toMatchObject({ id: '4815162', username: 'luna_moon', name: 'Luna 月', subscribedBy: true });
    expect(new URL(user.avatar!).hostname).toBe('public.onlyfans.com');
    expect(new URL(user.header!).pathname).toMatch(/\/header\.jpg$/);
  });

  it('titles long text at 60 characters and takes only hashtags with a letter as tags', () => {
    const post = postSchema.parse({ ...F.textOnly.post, rawText: `${'ab '.repeat(30)}#1 #tag_2 x#no &#039; #ünï`, text: null });
    const input = toPostInput('u', post, '', { attachments: [] });
    expect([...input.title!].length).toBeLessThanOrEqual(60);
    expect(input.tags).toEqual(['tag_2', 'ünï']);
    expect(postHtml({ rawText: 'a <b>\nc', text: null })).toBe('a &lt;b&gt;<br />c');
  });
});
