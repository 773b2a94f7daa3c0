/**
 * Page weight and speed of the demo archive, as a phone visitor gets it:
 * - the JavaScript a page ships, in gzip bytes: every script Chromium downloads (per island, its own
 *   modules, and shared: the React runtime and chunks several islands import) plus the inline scripts
 *   of the HTML, for the home, a text page (/dmca), the artists list, a creator and a post page;
 * - Lighthouse's mobile performance score (its default config: a mid-range phone on a slow 4G link,
 *   simulated throttling) of the home, artists, creator and post pages, median of three runs
 *   (BENCH_LIGHTHOUSE=0 skips it and measures the JavaScript only).
 * Runs `npm start` on its own demo archive (bench/.data/demo) in production mode.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import lighthouse from 'lighthouse';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findSystemChromium } from '../scripts/lib/chromium.ts';
import { archiveDir } from './lib.ts';
import { creatorUrl, postUrl } from '../shared/urls.ts';
import { startTrove, stop } from './serve.ts';

const PORT = 4571;
const DEBUG_PORT = 9337;
const RUNS = 3;
const origin = `http://127.0.0.1:${PORT}`;

/**
 * The demo pages measured: the showcase post (scripts/seed/showcase.ts: images, videos, poll, tags,
 * revisions, comments: the heaviest post page) and its creator, the busiest patreon creator.
 */
async function pickPages(): Promise<Record<string, string>> {
  const found = (await (await fetch(`${origin}/api/v1/posts?q=${encodeURIComponent('Dragon keep')}`)).json()) as {
    posts: Array<{ service: string; user: string; id: string; title: string }>;
  };
  const post = found.posts.find((candidate) => candidate.service === 'patreon' && candidate.title.startsWith('Dragon keep'));
  if (!post) throw new Error('the demo archive has no showcase post');
  return {
    home: '/',
    text: '/dmca',
    artists: '/artists',
    creator: creatorUrl(post.service, post.user),
    post: postUrl(post.service, post.user, post.id),
  };
}

const gzipSize = (body: Buffer) => zlib.gzipSync(body, { level: 9 }).length;

/** Static imports and dynamic import() of a built module, as its file names. */
function importsOf(source: string): string[] {
  const found = new Set<string>();
  for (const match of source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["']([^"']+\.js)["']/g)) found.add(path.basename(match[1]));
  return [...found];
}

interface ScriptWeight {
  url: string;
  islands: Array<{ island: string; hydrate: string; ownGzipBytes: number; modules: string[] }>;
  sharedGzipBytes: number;
  sharedModules: Array<{ module: string; gzipBytes: number }>;
  /** Every downloaded script. */
  totalGzipBytes: number;
  totalScripts: number;
  /** The inline scripts of the HTML (head scripts, Astro's island loader), gzipped together. */
  inlineGzipBytes: number;
  inlineScripts: number;
  /** Whether React's client runtime was among the downloads. */
  react: boolean;
}

/**
 * Loads the page, scrolls to the end (so islands waiting to be visible hydrate) and waits for the
 * network to settle; every script Chromium fetched is weighed. A module belongs to an island when
 * only that island's import graph reaches it; the rest is shared.
 */
async function scriptWeight(page: Page, url: string): Promise<ScriptWeight> {
  const bodies = new Map<string, Buffer>();
  const onResponse = async (response: import('@playwright/test').Response) => {
    if (response.request().resourceType() !== 'script') return;
    const name = path.basename(new URL(response.url()).pathname);
    bodies.set(name, await response.body().catch(() => Buffer.alloc(0)));
  };
  page.on('response', onResponse);
  await page.goto(origin + url, { waitUntil: 'networkidle' });
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(2_500); // requestIdleCallback islands (client:idle) after load
  page.off('response', onResponse);

  const inline = await page.$$eval('script:not([src])', (scripts) =>
    scripts.map((script) => script.textContent ?? '').filter((text) => text.trim() !== ''),
  );
  const islands = await page.$$eval('astro-island', (elements) =>
    elements.map((element) => ({
      component: element.getAttribute('component-url') ?? '',
      renderer: element.getAttribute('renderer-url') ?? '',
      hydrate: element.getAttribute('client') ?? '',
      name: element.getAttribute('opts') ? ((JSON.parse(element.getAttribute('opts')!) as { name?: string }).name ?? '') : '',
    })),
  );
  const closure = (entry: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [path.basename(entry)];
    while (stack.length > 0) {
      const name = stack.pop()!;
      if (seen.has(name) || !bodies.has(name)) continue;
      seen.add(name);
      stack.push(...importsOf(bodies.get(name)!.toString('utf8')));
    }
    return seen;
  };
  const byIsland = new Map<string, { hydrate: string; modules: Set<string> }>();
  for (const island of islands) {
    const modules = closure(island.component);
    byIsland.set(island.name || island.component, { hydrate: island.hydrate, modules });
  }
  const owners = new Map<string, number>();
  for (const { modules } of byIsland.values()) for (const name of modules) owners.set(name, (owners.get(name) ?? 0) + 1);
  const shared = [...bodies.keys()].filter((name) => (owners.get(name) ?? 0) !== 1);
  const weigh = (names: Iterable<string>) => [...names].reduce((sum, name) => sum + gzipSize(bodies.get(name)!), 0);
  return {
    url,
    islands: [...byIsland].map(([island, { hydrate, modules }]) => {
      const own = [...modules].filter((name) => owners.get(name) === 1);
      return { island, hydrate, ownGzipBytes: weigh(own), modules: own };
    }),
    sharedGzipBytes: weigh(shared),
    sharedModules: shared.map((module) => ({ module, gzipBytes: gzipSize(bodies.get(module)!) })).sort((a, b) => b.gzipBytes - a.gzipBytes),
    totalGzipBytes: weigh(bodies.keys()),
    totalScripts: bodies.size,
    inlineGzipBytes: inline.length > 0 ? gzipSize(Buffer.from(inline.join('\n'))) : 0,
    inlineScripts: inline.length,
    // React DOM's client runtime names itself in its error messages.
    react: [...bodies.values()].some((body) => body.includes('react-dom') || body.includes('__reactContainer')),
  };
}

interface LighthouseRun {
  score: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
}

async function lighthouseRun(url: string, attempt = 1): Promise<LighthouseRun> {
  const result = await lighthouse(origin + url, { port: DEBUG_PORT, onlyCategories: ['performance'], output: 'json', logLevel: 'error' });
  if (!result) throw new Error(`lighthouse gave no result for ${url}`);
  const { lhr } = result;
  // A lost trace (NO_NAVSTART and the like) says nothing about the page: Lighthouse asks for another run.
  if (lhr.runtimeError && attempt < 3) return lighthouseRun(url, attempt + 1);
  if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.message}`);
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    lcpMs: Math.round(audit('largest-contentful-paint')),
    fcpMs: Math.round(audit('first-contentful-paint')),
    tbtMs: Math.round(audit('total-blocking-time')),
    cls: Number(audit('cumulative-layout-shift').toFixed(3)),
    speedIndexMs: Math.round(audit('speed-index')),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function pagesBenchmark() {
  const dataDir = archiveDir('demo');
  fs.mkdirSync(dataDir, { recursive: true });
  const server = await startTrove(dataDir, PORT);
  const browser = await chromium.launch({
    executablePath: findSystemChromium(),
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${DEBUG_PORT}`],
  });
  try {
    const pages = await pickPages();
    const javascript: Record<string, ScriptWeight> = {};
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    for (const [name, url] of Object.entries(pages)) {
      const page = await context.newPage();
      javascript[name] = await scriptWeight(page, url);
      await page.close();
    }
    await context.close();
    const summary = Object.fromEntries(
      Object.entries(javascript).map(([name, weight]) => [
        name,
        {
          url: weight.url,
          scripts: weight.totalScripts,
          downloadedGzipBytes: weight.totalGzipBytes,
          inlineGzipBytes: weight.inlineGzipBytes,
          react: weight.react,
        },
      ]),
    );
    console.error(JSON.stringify(summary, null, 2));
    if (process.env.BENCH_LIGHTHOUSE === '0') return { chromium: browser.version(), summary, javascript };

    const scores: Record<string, LighthouseRun & { url: string; runs: number[] }> = {};
    for (const [name, url] of Object.entries(pages)) {
      if (name === 'text') continue; // a text page scores what the home scores
      const runs: LighthouseRun[] = [];
      for (let run = 0; run < RUNS; run++) {
        runs.push(await lighthouseRun(url));
        console.error(`lighthouse ${name} run ${run + 1}: ${runs.at(-1)!.score}`);
      }
      const middle = runs.find((run) => run.score === median(runs.map((r) => r.score)))!;
      scores[name] = { url, ...middle, runs: runs.map((run) => run.score) };
    }
    return { chromium: browser.version(), summary, javascript, lighthouse: scores };
  } finally {
    await browser.close();
    await stop(server);
  }
}
