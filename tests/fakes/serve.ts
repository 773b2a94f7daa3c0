/**
 * One fake paysite on its own, for trying an importer by hand (and the browser tests' fake Patreon):
 *   npx tsx tests/fakes/serve.ts <site> [--port N] [the site's own options]
 * It serves the site's demo dataset on 127.0.0.1 and prints its URLs and the demo key(s) to give Trove;
 * without a site, or with --help, it lists the sites and their options. Where a site reads its key from
 * the environment (FAKE_<SITE>_KEY...), the listing says so. Stops on SIGINT / SIGTERM.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

interface Option {
  type: 'string' | 'boolean';
  default?: string;
  about: string;
  /** What the value is, in the usage text (default N: a number). */
  arg?: string;
}

/** The options as read from the command line, checked. */
interface Read {
  /** A whole number >= 0 (ports: 0 is any free one). */
  number(name: string): number;
  /** A whole number >= 1 (page sizes). */
  size(name: string): number;
  text(name: string): string | undefined;
  flag(name: string): boolean;
  oneOf<T extends string>(name: string, choices: readonly T[]): T;
}

export interface Site {
  about: string;
  /** Environment variables that replace the demo key(s). */
  env?: string;
  options: Record<string, Option>;
  start(read: Read): Promise<{ lines: string[]; close(): Promise<void> }>;
}

const port = (about: string): Option => ({ type: 'string', default: '0', about });
const pageSize = (fallback: number, about = 'most posts one page holds'): Option => ({ type: 'string', default: String(fallback), about });
const env = (name: string, fallback: string) => process.env[name] || fallback;

export const SITES: Record<string, Site> = {
  afdian: {
    about: 'afdian.com and its CDN; demoDataset (星野工作室, Lumen Audio, 旧梦)',
    env: 'FAKE_AFDIAN_KEY',
    options: {
      'cdn-port': port('pic1/vod.afdiancdn.com'),
      'page-size': pageSize(5),
      refusal: { type: 'string', default: 'http401', arg: 'http401|ec', about: 'how /api/my/* refuses a bad key' },
    },
    async start(o) {
      const { FAKE_AFDIAN_KEY, startFakeAfdian } = await import('./afdian.ts');
      const key = env('FAKE_AFDIAN_KEY', FAKE_AFDIAN_KEY);
      const fake = await startFakeAfdian({
        port: o.number('port'),
        cdnPort: o.number('cdn-port'),
        pageSize: o.size('page-size'),
        refusal: o.oneOf('refusal', ['http401', 'ec'] as const),
        key,
      });
      return {
        close: fake.close,
        lines: [
          `fake afdian API (afdian.com) on ${fake.url}`,
          `fake afdian CDN (pic1/vod.afdiancdn.com) on ${fake.cdnUrl}`,
          `key (the auth_token cookie): ${key}`,
        ],
      };
    },
  },
  boosty: {
    about: "api.boosty.to and its CDNs; demoDataset (blogs 'mariya-art' and 'synthwave-lab')",
    options: { 'cdn-port': port('images/cdn.boosty.to and the video CDN'), 'page-size': pageSize(5) },
    async start(o) {
      const { FAKE_BOOSTY_AUTH, FAKE_BOOSTY_KEY, startFakeBoosty } = await import('./boosty.ts');
      const fake = await startFakeBoosty({ port: o.number('port'), cdnPort: o.number('cdn-port'), pageSize: o.size('page-size') });
      return {
        close: fake.close,
        lines: [
          `fake boosty API (api.boosty.to) on ${fake.url}`,
          `fake boosty CDN (images/cdn.boosty.to, video) on ${fake.cdnUrl}`,
          `key (the auth cookie): ${FAKE_BOOSTY_KEY}`,
          `bearer token: ${FAKE_BOOSTY_AUTH.accessToken}`,
        ],
      };
    },
  },
  candfans: {
    about:
      "candfans.jp (API under /api: send a candfans.jp Referer and do the XSRF handshake); demoDataset (Sakura: plan 'ライト' joined; Ren: followed only)",
    options: { 'image-port': port('image.candfans.jp'), 'video-port': port('video.candfans.jp'), 'page-size': pageSize(12) },
    async start(o) {
      const { startFakeCandfans } = await import('./candfans.ts');
      const fake = await startFakeCandfans({
        port: o.number('port'),
        imagePort: o.number('image-port'),
        videoPort: o.number('video-port'),
        pageSize: o.size('page-size'),
      });
      return {
        close: fake.close,
        lines: [
          `fake candfans listening on ${fake.url} (API ${fake.url}/api, images ${fake.imageUrl}, video ${fake.videoUrl})`,
          `secure_candfans_session: ${fake.key}`,
        ],
      };
    },
  },
  dlsite: {
    about: 'the .dlsite.com hosts on one origin, and img.dlsite.jp; demoDataset (eleven works of three makers)',
    env: 'FAKE_DLSITE_KEY',
    options: { 'cdn-port': port('img.dlsite.jp'), 'page-limit': pageSize(50, 'most worknos one content/works request may ask for') },
    async start(o) {
      const { FAKE_DLSITE_KEY, FAKE_DLSITE_LOGIN, startFakeDlsite } = await import('./dlsite.ts');
      const key = env('FAKE_DLSITE_KEY', FAKE_DLSITE_KEY);
      const fake = await startFakeDlsite({ key, port: o.number('port'), cdnPort: o.number('cdn-port'), pageLimit: o.size('page-limit') });
      return {
        close: fake.close,
        lines: [
          `fake dlsite (www/play/login/download .dlsite.com) on ${fake.url}`,
          `fake dlsite images (img.dlsite.jp) on ${fake.cdnUrl}`,
          `key (the __DLsite_SID cookie): ${key}`,
          `password login: ${FAKE_DLSITE_LOGIN.loginId} / ${FAKE_DLSITE_LOGIN.password}`,
        ],
      };
    },
  },
  fansly: {
    about:
      'apiv3.fansly.com (API <url>/api/v1; the home page and main.*.js with the check key at <url>/) and cdn3.fansly.com; demoDataset (Mika, subscribed; Noah, followed only)',
    env: 'FAKE_FANSLY_TOKEN, FAKE_FANSLY_CHECK_KEY',
    options: { 'cdn-port': port('cdn3.fansly.com'), 'page-size': pageSize(5) },
    async start(o) {
      const { FAKE_FANSLY_CHECK_KEY, FAKE_FANSLY_TOKEN, startFakeFansly } = await import('./fansly.ts');
      const fake = await startFakeFansly({
        port: o.number('port'),
        cdnPort: o.number('cdn-port'),
        pageSize: o.size('page-size'),
        token: env('FAKE_FANSLY_TOKEN', FAKE_FANSLY_TOKEN),
        checkKey: env('FAKE_FANSLY_CHECK_KEY', FAKE_FANSLY_CHECK_KEY),
      });
      return {
        close: fake.close,
        lines: [
          `fake fansly listening on ${fake.url} (API ${fake.apiUrl}, CDN ${fake.cdnUrl})`,
          `token: ${fake.token}`,
          `check key: ${fake.checkKey}   session id: ${fake.sessionId}`,
        ],
      };
    },
  },
  fantia: {
    about:
      'fantia.jp, and c.fantia.jp + cc.fantia.jp on the CDN URL; demoDataset (ゆめかわ工房, Night Owl Studio, one fanclub only followed)',
    env: 'FAKE_FANTIA_KEY',
    options: { 'cdn-port': port('c.fantia.jp and cc.fantia.jp'), 'page-size': pageSize(5) },
    async start(o) {
      const { FAKE_FANTIA_KEY, startFakeFantia } = await import('./fantia.ts');
      const fake = await startFakeFantia({
        port: o.number('port'),
        cdnPort: o.number('cdn-port'),
        key: env('FAKE_FANTIA_KEY', FAKE_FANTIA_KEY),
        pageSize: o.size('page-size'),
      });
      return {
        close: fake.close,
        lines: [`fake fantia listening on ${fake.url} (files on ${fake.cdnUrl})`, `session key (_session_id): ${fake.key}`],
      };
    },
  },
  gumroad: {
    about:
      'app.gumroad.com, one host per seller ({username}.gumroad.com) and the file hosts; demoDataset (Alice Brushes and Bob Sounds, 19 purchases)',
    env: 'FAKE_GUMROAD_KEY (send it URL-encoded)',
    options: {
      'cdn-port': port('files, public-files and assets.gumroad.com'),
      'page-size': pageSize(15, 'library results per page'),
      'react-on-rails': { type: 'boolean', about: 'the 2025 react_on_rails pages instead of the 2026 Inertia ones' },
    },
    async start(o) {
      const { FAKE_GUMROAD_KEY, startFakeGumroad } = await import('./gumroad.ts');
      const fake = await startFakeGumroad({
        port: o.number('port'),
        cdnPort: o.number('cdn-port'),
        key: env('FAKE_GUMROAD_KEY', FAKE_GUMROAD_KEY),
        pageSize: o.size('page-size'),
        generation: o.flag('react-on-rails') ? 'react_on_rails' : 'inertia',
      });
      return {
        close: fake.close,
        lines: [
          `fake gumroad listening on ${fake.url} (app.gumroad.com), files on ${fake.cdnUrl}`,
          ...fake.dataset.sellers.map((seller) => `  ${seller.username}.gumroad.com: ${fake.creatorUrl(seller.username)}`),
          `session key (_gumroad_app_session): ${fake.key}`,
          `as a Cookie header: ${fake.cookie}`,
        ],
      };
    },
  },
  onlyfans: {
    about:
      'onlyfans.com (API <url>/api2/v2, requests signed with the rules file), cdn2 and public.onlyfans.com; demoDataset (Luna, active; Kai, expired)',
    options: {
      'cdn-port': port('cdn2.onlyfans.com'),
      'public-port': port('public.onlyfans.com'),
      'page-size': pageSize(10),
      rules: {
        type: 'string',
        arg: 'FILE',
        about: 'the dynamic-rules JSON to sign with (default tests/fakes/onlyfans-rules.json; give the importer the same file)',
      },
    },
    async start(o) {
      const { DEFAULT_ONLYFANS_RULES, FAKE_ONLYFANS_CREDENTIAL, startFakeOnlyfans } = await import('./onlyfans.ts');
      const rules = o.text('rules');
      const fake = await startFakeOnlyfans({
        port: o.number('port'),
        cdnPort: o.number('cdn-port'),
        publicPort: o.number('public-port'),
        pageSize: o.size('page-size'),
        rules: rules ? JSON.parse(fs.readFileSync(rules, 'utf8')) : DEFAULT_ONLYFANS_RULES,
        credential: FAKE_ONLYFANS_CREDENTIAL,
      });
      return {
        close: fake.close,
        lines: [
          `fake onlyfans listening on ${fake.url} (API ${fake.apiUrl}, CDN ${fake.cdnUrl}, public ${fake.publicUrl})`,
          `credential: ${JSON.stringify(fake.credential)}`,
          `rules: ${rules ?? 'tests/fakes/onlyfans-rules.json'}`,
        ],
      };
    },
  },
  patreon: {
    about:
      "www.patreon.com's API and files; demoDataset (one campaign 'Fake Patreon Creator'). Point Trove at it with IMPORTER_PATREON_URL=<url> TROVE_ENV=test IMPORTER_ALLOW_PRIVATE_ADDRESSES=1",
    env: 'FAKE_PATREON_KEY',
    options: { posts: { type: 'string', default: '12', about: 'posts of the campaign' }, 'page-size': pageSize(5) },
    async start(o) {
      const { FAKE_PATREON_KEY, demoDataset, startFakePatreon } = await import('./patreon.ts');
      const key = env('FAKE_PATREON_KEY', FAKE_PATREON_KEY);
      const fake = await startFakePatreon({
        port: o.number('port'),
        key,
        dataset: demoDataset({ posts: o.number('posts') }),
        pageSize: o.size('page-size'),
      });
      return { close: fake.close, lines: [`fake patreon listening on ${fake.url}`, `key (the session_id cookie): ${key}`] };
    },
  },
  subscribestar: {
    about:
      'www.subscribestar.com, the adult site (subscribestar.adult / .art) and the upload hosts; demoDataset (Ada Studio on .com, 夜桜アトリエ on the adult site)',
    env: 'FAKE_SUBSCRIBESTAR_KEY, FAKE_SUBSCRIBESTAR_ADULT_KEY',
    options: { 'adult-port': port('subscribestar.adult'), 'cdn-port': port('the upload hosts'), 'page-size': pageSize(5) },
    async start(o) {
      const { FAKE_SUBSCRIBESTAR_ADULT_KEY, FAKE_SUBSCRIBESTAR_KEY, startFakeSubscribestar } = await import('./subscribestar.ts');
      const fake = await startFakeSubscribestar({
        port: o.number('port'),
        adultPort: o.number('adult-port'),
        cdnPort: o.number('cdn-port'),
        keys: {
          com: env('FAKE_SUBSCRIBESTAR_KEY', FAKE_SUBSCRIBESTAR_KEY),
          adult: env('FAKE_SUBSCRIBESTAR_ADULT_KEY', FAKE_SUBSCRIBESTAR_ADULT_KEY),
        },
        pageSize: o.size('page-size'),
      });
      return {
        close: fake.close,
        lines: [
          `fake subscribestar listening on ${fake.url} (www.subscribestar.com), ${fake.adultUrl} (subscribestar.adult), files on ${fake.cdnUrl}`,
          `session keys (the ${fake.cookieName} cookie of each site):`,
          `  .com:  ${fake.keys.com}`,
          `  adult: ${fake.keys.adult} (with 18_plus_agreement_generic=true)`,
        ],
      };
    },
  },
};

const PORT: Option = { type: 'string', default: '0', about: 'port of the main host (0: any free one)' };

function usage(): string {
  const lines = ['usage: npx tsx tests/fakes/serve.ts <site> [--port N] [options]', ''];
  for (const [name, site] of Object.entries(SITES)) {
    lines.push(`${name}: ${site.about}`);
    for (const [option, o] of Object.entries({ port: PORT, ...site.options }))
      lines.push(
        `  --${option}${o.type === 'string' ? ` ${o.arg ?? 'N'}` : ''}  ${o.about}${o.default !== undefined ? ` (default ${o.default})` : ''}`,
      );
    if (site.env) lines.push(`  key(s) from the environment: ${site.env}`);
  }
  return lines.join('\n');
}

/** A command line that asks for something wrong; serve() prints it with the usage and exits 2. */
export class UsageError extends Error {}

const wrong = (message: string): never => {
  throw new UsageError(message);
};

/** The options `args` give a site, parsed and checked as they are read (a bad one throws a UsageError). */
export function readOptions(site: Site, args: string[]): Read {
  const spec = { port: PORT, ...site.options };
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args,
      options: Object.fromEntries(
        Object.entries(spec).map(([k, o]) => [k, o.default === undefined ? { type: o.type } : { type: o.type, default: o.default }]),
      ),
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const number = (option: string) => {
    const n = Number(values[option]);
    return Number.isInteger(n) && n >= 0 ? n : wrong(`--${option} must be a whole number`);
  };
  return {
    number,
    size: (option) => Math.max(1, number(option)),
    text: (option) => values[option] as string | undefined,
    flag: (option) => values[option] === true,
    oneOf: (option, choices) =>
      choices.includes(values[option] as never)
        ? (values[option] as (typeof choices)[number])
        : wrong(`--${option} must be ${choices.join(' or ')}`),
  };
}

/** Starts the fake that `args` (a site name, then its options) asks for, prints its lines and serves until stopped. */
export async function serve(args: string[]): Promise<void> {
  const [name, ...rest] = args;
  const site = name ? SITES[name] : undefined;
  if (!site || rest.includes('--help')) {
    if (name && name !== '--help' && !site) console.error(`no fake site '${name}'`);
    console.error(usage());
    process.exit(2);
  }
  let fake: Awaited<ReturnType<Site['start']>>;
  try {
    fake = await site.start(readOptions(site, rest));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${usage()}`);
    process.exit(2);
  }
  for (const line of fake.lines) console.log(line);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await serve(process.argv.slice(2));
