/**
 * Posts from Patreon's newer editor (text only in `content_json_string`), and the fake Patreon answering
 * only what `include=` and `fields[...]` ask for, as Patreon's JSON:API does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImport, getImport, getImportLogs } from '@api/data/imports.ts';
import { getPost } from '@api/data/posts.ts';
import { sanitizePostHtml } from '@api/content/sanitize.ts';
import { postsPath } from '@api/importer/paysites/patreon/api.ts';
import { richTextHtml } from '@api/importer/paysites/patreon/rich-text.ts';
import { sealForWorker } from '@api/importer/work-key.ts';
import { startImportWorker } from '@api/importer/worker.ts';
import { readConfig } from '@api/config.ts';
import {
  FAKE_CAMPAIGN_ID,
  FAKE_CREATOR_ID,
  FAKE_PATREON_KEY,
  NEW_EDITOR_DOC,
  startFakePatreon,
  type FakePatreon,
} from '../../fakes/patreon.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

const doc = (...content: unknown[]) => JSON.stringify({ type: 'doc', content });
const text = (value: string, ...marks: string[]) => ({ type: 'text', text: value, marks: marks.map((type) => ({ type })) });
const para = (...content: unknown[]) => ({ type: 'paragraph', content });

describe('richTextHtml', () => {
  it.each([
    ['an empty or missing document', null, ''],
    ['a paragraph', doc(para(text('Hello'))), '<p>Hello</p>'],
    ['an empty paragraph', doc({ type: 'paragraph' }), '<p></p>'],
    ['marks, the first outermost', doc(para(text('b', 'bold', 'underline'))), '<p><strong><u>b</u></strong></p>'],
    ['italic, strike and code', doc(para(text('x', 'italic', 'strike'), text('y', 'code'))), '<p><em><s>x</s></em><code>y</code></p>'],
    ['an unknown mark keeps its text', doc(para(text('t', 'sparkle'))), '<p>t</p>'],
    ['text is escaped', doc(para(text('<b>&"\''))), '<p>&lt;b&gt;&amp;&quot;&#39;</p>'],
    ['a newline in text and a hard break', doc(para(text('a\nb'), { type: 'hardBreak' })), '<p>a<br>b<br></p>'],
    ['a heading keeps its level, clamped to 1-6', doc({ type: 'heading', attrs: { level: 9 }, content: [text('H')] }), '<h6>H</h6>'],
    [
      'lists of paragraphs',
      doc({ type: 'bulletList', content: [{ type: 'listItem', content: [para(text('one'))] }] }),
      '<ul><li><p>one</p></li></ul>',
    ],
    [
      'a quote and a rule',
      doc({ type: 'blockquote', content: [para(text('q'))] }, { type: 'horizontalRule' }),
      '<blockquote><p>q</p></blockquote><hr>',
    ],
    [
      'a link mark',
      doc(para({ type: 'text', text: 'shop', marks: [{ type: 'link', attrs: { href: 'https://example.com/?a=1&b=2' } }] })),
      '<p><a href="https://example.com/?a=1&amp;b=2">shop</a></p>',
    ],
    [
      'a javascript: link keeps only its text',
      doc(para({ type: 'link', attrs: { href: 'javascript:alert(1)' }, content: [text('no')] })),
      '<p>no</p>',
    ],
    [
      'an image',
      doc({ type: 'image', attrs: { src: 'https://c10.patreonusercontent.com/a.png', alt: 'A' } }),
      '<p><img src="https://c10.patreonusercontent.com/a.png" alt="A"></p>',
    ],
    ['an image with a data: source is dropped', doc({ type: 'image', attrs: { src: 'data:image/png;base64,AAAA' } }), ''],
    ['an unknown block keeps its text', doc({ type: 'mysteryBlock', content: [text('kept')] }), 'kept'],
  ])('%s', (_name, json, html) => {
    expect(richTextHtml(json)).toBe(html);
  });

  it('answers undefined for what is not a document', () => {
    expect(richTextHtml('{not json')).toBeUndefined();
    expect(richTextHtml('{"type":"paragraph"}')).toBeUndefined();
    expect(richTextHtml('[1,2]')).toBeUndefined();
  });

  it('stops at a depth no real document reaches', () => {
    let node: unknown = text('deep');
    for (let i = 0; i < 200; i++) node = { type: 'blockquote', content: [node] };
    expect(richTextHtml(doc(node))).not.toContain('deep');
  });

  it('survives the sanitizer unchanged apart from what it always drops', () => {
    const html = richTextHtml(JSON.stringify(NEW_EDITOR_DOC).replaceAll('INLINE:', 'https://c10.patreonusercontent.com/'))!;
    const clean = sanitizePostHtml(html, 'https://img.example');
    for (const part of [
      '<h3>WIPs for the <strong>second</strong></h3>',
      '<strong><u>November</u></strong>',
      '<li><p>Full: $400</p></li>',
    ]) {
      expect(clean).toContain(part);
    }
    expect(clean).toContain('rewards &lt;paused&gt;');
    expect(clean).toContain('Kept text of an unknown block.');
    expect(clean).not.toContain('javascript');
  });
});

describe('the fake Patreon answers only what was asked', () => {
  let fake: FakePatreon;
  beforeAll(async () => {
    fake = await startFakePatreon();
  });
  afterAll(() => fake.close());
  const ask = async (pathAndQuery: string) => {
    const answer = await fetch(`${fake.url}${pathAndQuery}`, { headers: { cookie: `session_id=${FAKE_PATREON_KEY}` } });
    expect(answer.status).toBe(200);
    return (await answer.json()) as {
      data: Array<{ attributes: Record<string, unknown>; relationships: Record<string, unknown> }>;
      included: unknown[];
    };
  };
  it('keeps only the listed fields of a type and only the included relationships', async () => {
    const full = await ask(postsPath(FAKE_CAMPAIGN_ID));
    expect(Object.keys(full.data[0].attributes)).toContain('content_json_string');
    expect(full.included.length).toBeGreaterThan(0);

    const bare = await ask(`/api/posts?filter[campaign_id]=${FAKE_CAMPAIGN_ID}&fields[post]=title`);
    expect(Object.keys(bare.data[0].attributes)).toEqual(['title']);
    expect(bare.data[0].relationships).toEqual({});
    expect(bare.included).toEqual([]);

    const someIncluded = await ask(`/api/posts?filter[campaign_id]=${FAKE_CAMPAIGN_ID}&include=user_defined_tags`);
    const types = new Set((someIncluded.included as Array<{ type: string }>).map((r) => r.type));
    expect([...types]).toEqual(['post_tag']);
  });
});

describe('importing a post from the newer editor', () => {
  let t: TempDb;
  let fake: FakePatreon;
  beforeAll(async () => {
    t = tempDb();
    fake = await startFakePatreon({ pageSize: 20 });
  });
  afterAll(async () => {
    await fake.close();
    t.cleanup();
  });

  it('stores its text as sanitized HTML with the inline image archived', async () => {
    const config = readConfig({
      DATA_DIR: t.dir,
      TROVE_ENV: 'test',
      IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
      IMPORTER_PATREON_URL: fake.url,
    });
    await createImport(t.db, { id: 'rich', service: 'patreon', work_key: sealForWorker(config, 'rich', FAKE_PATREON_KEY) });
    const worker = startImportWorker({ db: t.db, config }, { autoStart: false });
    await worker.runOnce();
    await worker.stop();
    expect((await getImport(t.db, 'rich'))!.finished_at).not.toBeNull();
    expect((await getImportLogs(t.db, 'rich')).at(-1)).toBe('Finished.');

    const post = (await getPost(t.db, 'patreon', FAKE_CREATOR_ID, '90000002'))!;
    expect(post.content).toContain('<h3>WIPs for the <strong>second</strong></h3>');
    expect(post.content).toContain('<a href="https://example.com/shop?a=1&amp;b=2"');
    expect(post.content).toContain('Kept text of an unknown block.');
    expect(post.content).not.toContain('javascript');
    expect(post.content).not.toContain(fake.url);
    const src = /<img src="(\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png)"/.exec(post.content)?.[1];
    expect(src).toBeDefined();
    expect(fs.existsSync(path.join(t.dir, 'files', ...src!.replace('/data/', '').split('/')))).toBe(true);
  });
});
