/**
 * The one command line of the fake paysites (tests/fakes/serve.ts): every site starts from its options,
 * prints URLs that answer and its demo key, and stops; options are checked and each site keeps its own
 * (gumroad's --react-on-rails, patreon's --posts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SITES, UsageError, readOptions } from '../../fakes/serve.ts';

let running: { close(): Promise<void> } | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(site: string, args: string[] = []) {
  const fake = await SITES[site].start(readOptions(SITES[site], args));
  running = fake;
  return fake.lines;
}
const firstUrl = (lines: string[]) => /http:\/\/127\.0\.0\.1:\d+/.exec(lines.join('\n'))![0];

describe('tests/fakes/serve.ts', () => {
  it.each(Object.keys(SITES))('starts the fake %s, prints where it listens and its key, and stops', async (site) => {
    const lines = await start(site);
    expect(lines.join('\n')).toMatch(/key|token|credential|session/i);
    const answer = await fetch(firstUrl(lines));
    expect(answer.status).toBeGreaterThanOrEqual(200);
    await answer.arrayBuffer();
  });

  it("keeps each site's own options", async () => {
    const gumroad = await start('gumroad', ['--react-on-rails', '--page-size', '3']);
    const cookie = /^as a Cookie header: (.+)$/m.exec(gumroad.join('\n'))![1];
    const library = await (await fetch(`${firstUrl(gumroad)}/library`, { headers: { cookie } })).text();
    expect(library).toContain('data-component-name="LibraryPage"');
    await running!.close();

    const patreon = await start('patreon', ['--posts', '3']);
    const key = /session_id cookie\): (\S+)/.exec(patreon.join('\n'))![1];
    const posts = await (
      await fetch(`${firstUrl(patreon)}/api/posts?filter%5Bcampaign_id%5D=4100001`, { headers: { cookie: `session_id=${key}` } })
    ).json();
    expect(posts.meta.pagination.total).toBe(3);
  });

  it('refuses unknown options and bad values', () => {
    expect(() => readOptions(SITES.boosty, ['--bogus'])).toThrow(UsageError);
    expect(() => readOptions(SITES.boosty, ['--port', 'abc']).number('port')).toThrow('--port must be a whole number');
    expect(() => readOptions(SITES.afdian, ['--refusal', 'x']).oneOf('refusal', ['http401', 'ec'])).toThrow(
      '--refusal must be http401 or ec',
    );
    expect(readOptions(SITES.fansly, ['--page-size', '0']).size('page-size')).toBe(1);
  });
});
