import { describe, expect, it } from 'vitest';
import { archivePath, extensionOf, safeLinkUrl } from '@shared/chat/safe-url.ts';
import { chatAttachmentView, fitWithin } from '@shared/chat/attachments.ts';
import { DEFAULT_EMBED_COLOR, embedColor, embedMedia } from '@shared/chat/embed.ts';
import { authorAvatar, authorName } from '@shared/chat/author.ts';
import { communityEmbedView, communityPost, communityRoleLabel } from '@shared/chat/community.ts';

const HASH = `abcd${'0'.repeat(60)}`;
const PATH = `/ab/cd/${HASH}`;

describe('safeLinkUrl', () => {
  it('keeps http and https links, normalised', () => {
    expect(safeLinkUrl('https://example.com/a b')).toBe('https://example.com/a%20b');
    expect(safeLinkUrl('  HTTP://Example.com  ')).toBe('http://example.com/');
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    '\u0001javascript:alert(1)',
    '&#106;avascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    '//evil.test/x',
    '/relative',
    '',
  ])('refuses %j', (raw) => {
    expect(safeLinkUrl(raw)).toBeUndefined();
  });

  it('refuses what is not a string', () => {
    expect(safeLinkUrl(undefined)).toBeUndefined();
    expect(safeLinkUrl({ toString: () => 'https://x.test' })).toBeUndefined();
  });
});

describe('archivePath', () => {
  it('reads content-addressed paths, with or without /data', () => {
    expect(archivePath(`${PATH}.PNG`)).toEqual({ path: `${PATH}.PNG`, hash: HASH, ext: 'png' });
    expect(archivePath(`/data${PATH}.mp4`)).toEqual({ path: `${PATH}.mp4`, hash: HASH, ext: 'mp4' });
    expect(archivePath(PATH)).toEqual({ path: PATH, hash: HASH, ext: '' });
  });

  it.each([
    `/ff/cd/${HASH}.png`,
    `//ab/cd/${HASH}.png`,
    `https://x.test${PATH}.png`,
    `/data/../ab/cd/${HASH}`,
    `${PATH}.png?x=1`,
    `/ab/cd/${'g'.repeat(64)}`,
  ])('refuses %j', (raw) => {
    expect(archivePath(raw)).toBeUndefined();
  });

  it('finds extensions', () => {
    expect(extensionOf('a/b.tar.GZ')).toBe('gz');
    expect(extensionOf('.hidden')).toBe('');
    expect(extensionOf('dir.x/name')).toBe('');
  });
});

describe('attachments', () => {
  it('shows images as thumbnails, videos as players, other files as links (archives marked)', () => {
    expect(chatAttachmentView({ name: 'a.webp', path: `${PATH}.webp` }, 'https://img.test')).toEqual({
      kind: 'image',
      name: 'a.webp',
      href: `https://img.test/data${PATH}.webp?f=a.webp`,
      src: `https://img.test/thumbnail/data${PATH}.webp`,
    });
    expect(chatAttachmentView({ name: 'clip.mp4', path: `${PATH}.mp4` }, '')?.kind).toBe('video');
    expect(chatAttachmentView({ name: 'pack.zip', path: `${PATH}.zip` }, '')).toEqual({
      kind: 'file',
      name: 'pack.zip',
      href: `/data${PATH}.zip?f=pack.zip`,
      archive: true,
      browseHref: `/file/${HASH}`,
    });
    expect(chatAttachmentView({ name: 'src.tar', path: `${PATH}.tar` }, '')).toMatchObject({ kind: 'file', archive: true });
    expect(chatAttachmentView({ name: 'notes.pdf', path: `${PATH}.pdf` }, '')).toMatchObject({ kind: 'file', archive: false });
  });

  it('trusts the stored extension over the name, and names nameless files by their path', () => {
    expect(chatAttachmentView({ name: 'evil.png', path: `${PATH}.html` }, '')).toMatchObject({ kind: 'file' });
    expect(chatAttachmentView({ name: null, path: `${PATH}.gif` }, '')).toMatchObject({ kind: 'image', name: `${HASH}.gif` });
    expect(chatAttachmentView({ name: 'x.png', path: 'https://evil.test/x.png' }, '')).toBeUndefined();
  });

  it('fits media within 400 by 300 without enlarging', () => {
    expect(fitWithin(800, 600)).toEqual({ width: 400, height: 300 });
    expect(fitWithin(1920, 1080)).toEqual({ width: 400, height: 225 });
    expect(fitWithin(300, 1200)).toEqual({ width: 75, height: 300 });
    expect(fitWithin(100, 50)).toEqual({ width: 100, height: 50 });
    expect(fitWithin('800', 600)).toBeUndefined();
    expect(fitWithin(0, 600)).toBeUndefined();
  });
});

describe('embeds', () => {
  it('turns the colour number into #rrggbb, dark grey otherwise', () => {
    expect(embedColor(0x5865f2)).toBe('#5865f2');
    expect(embedColor(0xff)).toBe('#0000ff');
    expect(embedColor(0)).toBe('#000000');
    for (const bad of [undefined, null, -1, 0x1000000, 1.5, '#fff', 'red;background:url(x)'])
      expect(embedColor(bad)).toBe(DEFAULT_EMBED_COLOR);
  });

  it('prefers the video (thumbnail as poster), then the image, then the thumbnail; only archived media', () => {
    const thumbnail = { url: `/data${PATH}.png`, width: 640, height: 480 };
    const video = { url: `/data${PATH}.mp4`, width: 1280, height: 720 };
    expect(embedMedia({ video, thumbnail, type: 'gifv' }, '')).toEqual({
      kind: 'video',
      src: `/data${PATH}.mp4`,
      href: `/data${PATH}.mp4`,
      poster: `/thumbnail/data${PATH}.png`,
      loop: true,
      width: 400,
      height: 225,
    });
    expect(embedMedia({ thumbnail }, '')).toEqual({
      kind: 'image',
      src: `/thumbnail/data${PATH}.png`,
      href: `/data${PATH}.png`,
      width: 400,
      height: 300,
    });
    expect(embedMedia({ thumbnail: { url: 'https://third.party/x.png' } }, '')).toBeUndefined();
  });
});

describe('authors', () => {
  const id = '80351110224678912';
  it('uses the stored avatar hash; without one, nothing to load: the initial on a default colour', () => {
    expect(authorAvatar({ id, avatar: 'a_'.concat('f'.repeat(32)), global_name: 'Kiwi' }, 'https://cdn.test')).toEqual({
      src: `https://cdn.test/avatars/${id}/a_${'f'.repeat(32)}.png`,
      initial: 'K',
      tone: Number((BigInt(id) >> 22n) % 6n),
    });
    expect(authorAvatar({ id, avatar: null, discriminator: '1337', username: 'kiwi' }, 'https://cdn.test')).toEqual({
      initial: 'K',
      tone: 2,
    });
    expect(authorAvatar({ id, avatar: '../../x', discriminator: '0', username: 'ねこすき' }, 'https://cdn.test')).toEqual({
      initial: 'ね',
      tone: Number((BigInt(id) >> 22n) % 6n),
    });
    expect(authorAvatar({ id: 'x"y', avatar: 'f'.repeat(32), username: '🎨 art' }, 'https://cdn.test')).toEqual({ initial: '🎨', tone: 0 });
    expect(authorAvatar(null, 'https://cdn.test')).toEqual({ initial: 'U', tone: 0 });
  });

  it('shows the global name, else the username', () => {
    expect(authorName({ username: 'kiwi', global_name: 'Kiwi!' })).toBe('Kiwi!');
    expect(authorName({ username: 'kiwi', global_name: null })).toBe('kiwi');
    expect(authorName({})).toBe('Unknown user');
  });
});

describe('community', () => {
  it('labels roles: user plain, campaign CREATOR, admin ADMIN, patreon_admin PATREON', () => {
    expect(communityRoleLabel('user')).toBeUndefined();
    expect(communityRoleLabel('campaign')).toBe('CREATOR');
    expect(communityRoleLabel('admin')).toBe('ADMIN');
    expect(communityRoleLabel('patreon_admin')).toBe('PATREON');
    expect(communityRoleLabel('toString')).toBeUndefined();
  });

  it('reads mirrored messages defensively', () => {
    expect(communityPost({ user: { name: 'Ann', role: 'admin' }, text: 'hi', created_at: '2024-01-01T00:00:00' })).toEqual({
      name: 'Ann',
      role: 'ADMIN',
      text: 'hi',
      createdAt: '2024-01-01T00:00:00',
    });
    expect(communityPost(null, 'x')).toEqual({ name: 'Unknown user', text: '', createdAt: 'x' });
    expect(communityPost({ user: 'bob', text: 5 })).toEqual({ name: 'Unknown user', text: '', createdAt: '' });
  });

  it('calls an embed without a type invalid and keeps media to the archive', () => {
    expect(communityEmbedView({ title: 'x' }, '')).toEqual({ valid: false });
    expect(communityEmbedView({ type: '  ' }, '')).toEqual({ valid: false });
    expect(
      communityEmbedView({ type: 'link', title: 'T', title_link: 'javascript:alert(1)', image_url: 'https://third.party/x.png' }, ''),
    ).toEqual({
      valid: true,
      title: 'T',
      titleHref: undefined,
      text: '',
    });
    expect(communityEmbedView({ type: 'video', asset_url: `/data${PATH}.webm`, thumb_url: `${PATH}.jpg` }, '')).toMatchObject({
      image: { src: `/thumbnail/data${PATH}.jpg` },
      video: { src: `/data${PATH}.webm` },
    });
  });
});
