/**
 * A fake Discord for the importer tests: a real node:http server on 127.0.0.1 that answers the paths of
 * Discord's REST API v10 (under /api/v10) with its JSON shapes, paging (limit 1-100, after/before,
 * newest first), its errors ({message, code}: 401 for a bad token, 403 Missing Access, 404 Unknown
 * Channel), its rate limits (429 with retry_after in the body, Retry-After and X-RateLimit-* headers), and a
 * CDN (under /cdn: signed attachment URLs, server icons; /media: proxied embed images) serving real PNGs.
 * One server with a category, two readable text channels, one channel without access, one whose history
 * cannot be read, a forum, and a DM channel. Knobs: expire the token, 429 or 5xx the next requests, edit
 * a message, add messages, slow answers down.
 */
import type http from 'node:http';
import { image } from './kit/media.ts';
import { jsonAs, redirect, send, startHost } from './kit/server.ts';

const EPOCH = 1420070400000n;
let sequence = 0n;
/** A snowflake for a time (ms): the way Discord makes ids, so ordering by id is ordering by time. */
export function snowflakeAt(ms: number): string {
  sequence = (sequence + 1n) % 4096n;
  return String(((BigInt(ms) - EPOCH) << 22n) | sequence);
}

export interface FakeUser {
  id: string;
  username: string;
  global_name: string | null;
  avatar: string | null;
  discriminator: string;
}

export interface FakeChannel {
  id: string;
  type: number;
  guild_id?: string;
  name: string;
  parent_id: string | null;
  topic: string | null;
  nsfw: boolean;
  position: number;
  /** 'channel': GET /channels/{id} is refused (403); 'history': only its messages are. */
  noAccess?: 'channel' | 'history';
}

export interface FakeMessage {
  id: string;
  type: number;
  channel_id: string;
  author: FakeUser;
  content: string;
  timestamp: string;
  edited_timestamp: string | null;
  attachments: {
    id: string;
    filename: string;
    size: number;
    url: string;
    proxy_url: string;
    content_type: string;
    width?: number;
    height?: number;
  }[];
  embeds: Record<string, unknown>[];
  mentions: FakeUser[];
}

export interface FakeDiscordOptions {
  token?: string;
  /** Messages in #art-drops (default 250: three pages of 100). */
  artMessages?: number;
  /** Threads in the forum (default 27: two pages of the thread search). */
  forumThreads?: number;
  /** Size of the one oversized attachment (default 64 KiB). */
  bigFileBytes?: number;
}

export interface FakeDiscord {
  /** The API base (IMPORTER_DISCORD_URL). */
  apiUrl: string;
  /** The CDN base (IMPORTER_DISCORD_CDN_URL). */
  cdnUrl: string;
  token: string;
  ids: {
    guild: string;
    category: string;
    art: string;
    general: string;
    secret: string;
    locked: string;
    forum: string;
    dm: string;
    emptyCategory: string;
  };
  guild: { id: string; name: string; icon: string };
  channels: Map<string, FakeChannel>;
  messages: Map<string, FakeMessage[]>;
  /** Every request: method, path with query, whether the Authorization header was the token as sent. */
  requests: { method: string; url: string; authorization: string | undefined }[];
  /** Bytes of each CDN file by path ('/cdn/attachments/...'). */
  files: Map<string, Buffer>;
  /** Every API request from now on answers 401 (the token was revoked). */
  expireToken(): void;
  /** After `skip` more API requests, the next n answer 429 with this retry_after (seconds). */
  rateLimitNext(n: number, retryAfterSeconds: number, skip?: number): void;
  /** After `skip` more API requests, the next n answer this 5xx. */
  failNext(n: number, status?: number, skip?: number): void;
  editMessage(channelId: string, messageId: string, content: string): void;
  /** Appends n messages to a channel, newer than every message there. */
  addMessages(channelId: string, n: number): FakeMessage[];
  /** Delay before each API answer (ms). */
  delayMs: number;
  /** When set, every API answer says its rate-limit bucket is used up and resets after this many seconds. */
  exhaustedBucketSeconds: number;
  close(): Promise<void>;
}

const json = jsonAs('application/json');
const png = (r: number, g: number, b: number) => image('', { width: 8, height: 8, colour: { r, g, b } });

export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const host = await startHost({
    log: (req, url) =>
      void requests.push({ method: req.method ?? '', url: `${url.pathname}${url.search}`, authorization: req.headers.authorization }),
    delay: (url) => (url.pathname.startsWith('/api/v10/') ? fake.delayMs : 0),
    handler: (req, res, url) => (url.pathname.startsWith('/api/v10/') ? api(req, res, url) : cdn(res, url)),
  });
  const origin = host.origin;
  const port = new URL(origin).port;
  const token = options.token ?? 'ODk0NTYxMjM0NTY3ODkwMTIz.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB';
  const start = Date.UTC(2024, 0, 1);
  const id = (offsetMs: number) => snowflakeAt(start + offsetMs);

  const users: FakeUser[] = ['mikan', 'kiwi_fan', 'sketchy'].map((username, i) => ({
    id: id(-1000 * (i + 1)),
    username,
    global_name: i === 1 ? null : username[0].toUpperCase() + username.slice(1),
    avatar: i === 2 ? null : `a${i}b2c3d4e5f60718293a4b5c6d7e8f90`.slice(0, 32),
    discriminator: '0',
  }));
  const guild = { id: id(1), name: "Mikan's Studio", icon: '3f2a9c1b0d4e5f60718293a4b5c6d7e8' };
  const ids = {
    guild: guild.id,
    category: id(2),
    art: id(3),
    general: id(4),
    secret: id(5),
    locked: id(6),
    forum: id(7),
    dm: id(8),
    emptyCategory: id(9),
  };
  const channel = (c: Partial<FakeChannel> & { id: string; name: string; type: number }): FakeChannel => ({
    guild_id: guild.id,
    parent_id: null,
    topic: null,
    nsfw: false,
    position: 0,
    ...c,
  });
  const channels = new Map<string, FakeChannel>(
    [
      channel({ id: ids.category, name: 'ART', type: 4, position: 0 }),
      channel({ id: ids.art, name: 'art-drops', type: 0, parent_id: ids.category, topic: 'New art every week', position: 1 }),
      channel({ id: ids.general, name: 'general', type: 0, position: 2, nsfw: true }),
      channel({ id: ids.secret, name: 'staff', type: 0, position: 3, noAccess: 'channel' }),
      channel({ id: ids.locked, name: 'rules', type: 0, position: 4, noAccess: 'history' }),
      channel({ id: ids.forum, name: 'feedback', type: 15, position: 5 }),
      channel({ id: ids.emptyCategory, name: 'VOICE', type: 4, position: 6 }),
      { id: ids.dm, type: 1, name: '', parent_id: null, topic: null, nsfw: false, position: 0 },
    ].map((c) => [c.id, c]),
  );

  const files = new Map<string, Buffer>();
  const images = await Promise.all([png(200, 40, 40), png(40, 200, 40), png(40, 40, 200), png(240, 200, 0)]);
  files.set(`/cdn/icons/${guild.id}/${guild.icon}.png`, images[3]);
  const signature = (path: string) => `hm=${Buffer.from(path).toString('hex').slice(-16)}`;
  const attachment = (channelId: string, filename: string, bytes: Buffer, contentType = 'image/png') => {
    const attachmentId = id(files.size * 7 + 50_000);
    const path = `/cdn/attachments/${channelId}/${attachmentId}/${filename}`;
    files.set(path, bytes);
    const query = `?ex=65f0a1b2&is=65de2c32&${signature(path)}&`;
    return {
      id: attachmentId,
      filename,
      size: bytes.length,
      url: `${origin}${path}${query}`,
      proxy_url: `${origin}/media${path.slice(4)}${query}`,
      content_type: contentType,
      width: 8,
      height: 8,
    };
  };

  let clock = 0;
  const message = (channelId: string, content: string, extra: Partial<FakeMessage> = {}): FakeMessage => {
    clock += 60_000;
    const ms = start + 86_400_000 + clock;
    return {
      id: snowflakeAt(ms),
      type: 0,
      channel_id: channelId,
      author: users[Math.floor(clock / 60_000) % users.length],
      content,
      timestamp: new Date(ms).toISOString().replace('Z', '000+00:00'),
      edited_timestamp: null,
      attachments: [],
      embeds: [],
      mentions: [],
      ...extra,
    };
  };
  const messages = new Map<string, FakeMessage[]>([...channels.keys()].map((k) => [k, []]));
  const art = messages.get(ids.art)!;
  for (let i = 0; i < (options.artMessages ?? 250); i++) {
    const extra: Partial<FakeMessage> = {};
    if (i % 40 === 5) extra.attachments = [attachment(ids.art, `drop-${i}.png`, images[i % 3])];
    if (i === 7) extra.mentions = [users[1]];
    art.push(message(ids.art, i === 7 ? `thanks <@${users[1].id}>!` : `art message ${i}`, extra));
  }
  const general = messages.get(ids.general)!;
  general.push(message(ids.general, 'hello <:wave:1187654321098765432>'));
  general.push(message(ids.general, '', { type: 7 })); // a member joined: a system message
  const embedImage = `/media/external/abc123/https/example.com/cover.png`;
  files.set(embedImage, images[1]);
  general.push(
    message(ids.general, 'new post https://example.com/post/1', {
      embeds: [
        {
          type: 'rich',
          url: 'https://example.com/post/1',
          title: 'New illustration',
          description: 'Full version on the page.',
          color: 0x5865f2,
          provider: { name: 'Example Art' },
          thumbnail: { url: 'https://example.com/cover.png', proxy_url: `${origin}${embedImage}`, width: 8, height: 8 },
        },
      ],
    }),
  );
  const big = attachment(ids.general, 'huge.psd', Buffer.alloc(options.bigFileBytes ?? 64 * 1024, 7), 'image/vnd.adobe.photoshop');
  const moved = attachment(ids.general, 'moved.png', images[0]);
  general.push(message(ids.general, 'two files', { attachments: [big, moved] }));
  general.push(message(ids.general, 'last one', { edited_timestamp: new Date(start + 90 * 86_400_000).toISOString() }));
  messages.get(ids.locked)!.push(message(ids.locked, 'rules'));
  // The forum's posts are threads (type 11, parent = the forum); 27 of them, so listing them takes two pages.
  for (let i = 0; i < (options.forumThreads ?? 27); i++) {
    const thread = channel({ id: id(100 + i), name: `feedback ${i}`, type: 11, parent_id: ids.forum, position: 0 });
    channels.set(thread.id, thread);
    messages.set(thread.id, [message(thread.id, `please review piece ${i}`)]);
  }
  messages.get(ids.dm)!.push(message(ids.dm, 'private'));
  const movedPath = new URL(moved.url).pathname;

  let expired = false;
  let limited = { n: 0, retryAfter: 0, skip: 0 };
  let failing = { n: 0, status: 502, skip: 0 };
  const requests: FakeDiscord['requests'] = [];
  const fake: FakeDiscord = {
    apiUrl: `${origin}/api/v10`,
    cdnUrl: `${origin}/cdn`,
    token,
    ids,
    guild,
    channels,
    messages,
    requests,
    files,
    delayMs: 0,
    exhaustedBucketSeconds: 0,
    expireToken: () => void (expired = true),
    rateLimitNext: (n, retryAfter, skip = 0) => void (limited = { n, retryAfter, skip }),
    failNext: (n, status = 502, skip = 0) => void (failing = { n, status, skip }),
    editMessage(channelId, messageId, content) {
      const found = messages.get(channelId)!.find((m) => m.id === messageId)!;
      found.content = content;
      found.edited_timestamp = new Date().toISOString();
    },
    addMessages(channelId, n) {
      const added = Array.from({ length: n }, (_, i) => message(channelId, `later message ${i}`));
      messages.get(channelId)!.push(...added);
      return added;
    },
    close: host.close,
  };

  const api = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    const path = url.pathname.slice('/api/v10'.length);
    const exhausted = fake.exhaustedBucketSeconds > 0;
    const bucket = {
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': exhausted ? '0' : '4',
      'x-ratelimit-reset-after': exhausted ? String(fake.exhaustedBucketSeconds) : '1.0',
      'x-ratelimit-bucket': 'a1b2c3',
    };
    if (req.headers.authorization !== token || expired) return json(res, 401, { message: '401: Unauthorized', code: 0 });
    if (limited.n > 0 && limited.skip-- <= 0) {
      limited.n--;
      return json(
        res,
        429,
        { message: 'You are being rate limited.', retry_after: limited.retryAfter, global: false },
        {
          'retry-after': String(Math.ceil(limited.retryAfter)),
          'x-ratelimit-limit': '5',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset-after': String(limited.retryAfter),
          'x-ratelimit-scope': 'user',
        },
      );
    }
    if (failing.n > 0 && failing.skip-- <= 0) {
      failing.n--;
      return send(res, failing.status, '<html><body>upstream error</body></html>', 'text/html');
    }
    const missing = () => json(res, 403, { message: 'Missing Access', code: 50001 });
    const unknown = () => json(res, 404, { message: 'Unknown Channel', code: 10003 });
    if (path === '/users/@me')
      return json(res, 200, { ...users[0], email: 'mikan@example.com', verified: true, mfa_enabled: false }, bucket);
    let m = /^\/guilds\/(\d+)(\/channels)?$/.exec(path);
    if (m) {
      if (m[1] !== guild.id) return json(res, 404, { message: 'Unknown Guild', code: 10004 });
      if (m[2])
        return json(
          res,
          200,
          [...channels.values()].filter((c) => c.guild_id).map(({ noAccess: _, ...c }) => c),
          bucket,
        );
      return json(res, 200, { ...guild, banner: null, owner_id: users[0].id, roles: [], emojis: [], features: [] }, bucket);
    }
    m = /^\/channels\/(\d+)\/threads\/search$/.exec(path);
    if (m) {
      const forum = channels.get(m[1]);
      if (!forum || forum.type !== 15) return json(res, 400, { message: 'Cannot execute action on this channel type', code: 50024 });
      const limit = Number(url.searchParams.get('limit') ?? 25);
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const all = [...channels.values()].filter((c) => c.parent_id === forum.id && c.type === 11).reverse();
      const page = all.slice(offset, offset + limit).map(({ noAccess: _, ...c }) => ({
        ...c,
        owner_id: users[0].id,
        thread_metadata: { archived: false, locked: false },
        message_count: 1,
      }));
      return json(
        res,
        200,
        { threads: page, members: [], has_more: offset + limit < all.length, total_results: all.length, first_messages: [] },
        bucket,
      );
    }
    m = /^\/channels\/(\d+)(\/messages)?$/.exec(path);
    if (!m) return json(res, 404, { message: '404: Not Found', code: 0 });
    const found = channels.get(m[1]);
    if (!found) return unknown();
    if (found.noAccess === 'channel') return missing();
    if (!m[2]) {
      const { noAccess: _, ...shape } = found;
      return json(
        res,
        200,
        found.type === 1 ? { id: found.id, type: 1, recipients: [users[1]], last_message_id: null } : { ...shape, rate_limit_per_user: 0 },
        bucket,
      );
    }
    if (found.noAccess === 'history') return missing();
    const limit = Number(url.searchParams.get('limit') ?? 50);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return json(res, 400, { message: 'Invalid Form Body', code: 50035 });
    const all = [...messages.get(found.id)!].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    const after = url.searchParams.get('after');
    const before = url.searchParams.get('before');
    let page: FakeMessage[];
    if (after !== null) page = all.filter((x) => BigInt(x.id) > BigInt(after)).slice(0, limit);
    else if (before !== null) page = all.filter((x) => BigInt(x.id) < BigInt(before)).slice(-limit);
    else page = all.slice(-limit);
    // Discord lists newest first whichever way it pages.
    return json(res, 200, page.reverse(), bucket);
  };

  const cdn = (res: http.ServerResponse, url: URL) => {
    if (url.pathname === movedPath) return redirect(res, `http://localhost:${port}${url.pathname}${url.search}`);
    const path = url.pathname.startsWith('/media/attachments/') ? `/cdn${url.pathname.slice('/media'.length)}` : url.pathname;
    const bytes = files.get(path);
    if (!bytes || (path.startsWith('/cdn/attachments/') && !url.search.includes(signature(path))))
      return send(res, 404, 'This content is no longer available.', 'text/plain');
    send(res, 200, bytes, path.endsWith('.psd') ? 'image/vnd.adobe.photoshop' : 'image/png');
  };
  return fake;
}
