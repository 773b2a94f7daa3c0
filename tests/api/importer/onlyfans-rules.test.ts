/**
 * OnlyFans' signing rules (api/importer/paysites/onlyfans/rules.ts): the signature in both published
 * rule shapes, and the importer with rules that OnlyFans refuses, rules from a URL and broken rules,
 * against the fake OnlyFans (which recomputes every signature from tests/fakes/onlyfans-rules.json).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addAutoImportKey } from '@api/data/auto-import-keys.ts';
import { getImport, getImportLogs } from '@api/data/imports.ts';
import { removesHeader, rulesSchema, signRequest } from '@api/importer/paysites/onlyfans/rules.ts';
import { send, startHost } from '../../fakes/kit/server.ts';
import { DEFAULT_ONLYFANS_RULES, onlyfansSign, startFakeOnlyfans, type FakeOnlyfans } from '../../fakes/onlyfans.ts';
import { closeHarness, harness, queue, worker, type Harness } from './onlyfans-import.ts';

describe('onlyfans signing rules', () => {
  it('signs like the notes worked example, from either published rules shape, and reads remove_headers', () => {
    const expected = '62830:cf9f7b98b965985ddf9114cc873076864935b2c9:75e:6a67571d';
    const shipped = rulesSchema.parse(JSON.parse(fs.readFileSync('api/importer/paysites/onlyfans/rules.json', 'utf8')));
    expect(signRequest(shipped, '/api2/v2/users/me', '1700000000000', '123456')).toBe(expected);
    const rg = rulesSchema.parse({ ...shipped, format: undefined, start: '62830', end: '6a67571d' });
    expect(signRequest(rg, '/api2/v2/users/me', '1700000000000', '123456')).toBe(expected);
    const query = '/api2/v2/users/4815162/posts?limit=10&order=publish_date_desc&pinned=0&format=infinite';
    expect(signRequest(shipped, query, '1717243200123', '48151623421')).toBe(
      onlyfansSign(DEFAULT_ONLYFANS_RULES, query, '1717243200123', '48151623421'),
    );
    expect(removesHeader(shipped, 'user-id')).toBe(true);
    expect(removesHeader(rulesSchema.parse({ ...shipped, remove_headers: ['user_id'] }), 'user-id')).toBe(true);
    expect(removesHeader(rulesSchema.parse({ ...shipped, remove_headers: [] }), 'user-id')).toBe(false);
    expect(rulesSchema.safeParse({ ...shipped, format: '62830:%s:6a67571d' }).success).toBe(false);
  });
});

describe('onlyfans import with other rules', () => {
  let fake: FakeOnlyfans;
  let h: Harness;
  beforeEach(async () => {
    fake = await startFakeOnlyfans();
    h = harness(fake);
  });
  afterEach(async () => {
    await closeHarness(h);
    await fake.close();
  });
  const logsOf = (id: string) => getImportLogs(h.t.db, id);

  it('ends the import with a clear line when OnlyFans refuses the signature (other rules), without blaming the key', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'of-rules-'));
    const wrong = path.join(dir, 'rules.json');
    fs.writeFileSync(wrong, JSON.stringify({ ...fake.rules, static_param: 'hlH65SiFJONFFuIFbTwYvt3HpXzsg4MC', revision: 'stale-1' }));
    await closeHarness(h);
    h = harness(fake, { IMPORTER_ONLYFANS_RULES: wrong });
    const keyId = await addAutoImportKey(h.t.db, { service: 'onlyfans', encrypted_key: Buffer.from('sealed elsewhere') });
    const id = await queue(h, 'wrong-sign', keyId);
    await worker(h).runOnce();
    const job = (await getImport(h.t.db, id))!;
    expect(job).toMatchObject({ is_key_invalid: false, key_failed_at: null });
    expect(job.finished_at).not.toBeNull();
    expect(fake.requests.map((r) => r.status)).toEqual([400]);
    const logs = await logsOf(id);
    expect(logs.at(-2)).toBe(
      `OnlyFans refused the request signature (400 "Please refresh the page"): the signing rules (revision stale-1 from ${wrong}) are out of date, or this server's clock is off. The import stopped; what was imported so far is kept. The operator has to update IMPORTER_ONLYFANS_RULES (docs/importing.md) before OnlyFans can be imported again.`,
    );
    expect((h.t.db.prepare('SELECT dead FROM auto_import_keys WHERE id = ?').get(keyId) as { dead: number }).dead).toBe(0);
    expect(fake.sessionAlive()).toBe(true);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads the rules from a URL, and ends with a line when the rules are unusable', async () => {
    const served = await startHost({
      handler: (_req, res, url) =>
        url.pathname === '/onlyfans.json'
          ? send(res, 200, JSON.stringify(fake.rules), 'application/json')
          : send(res, 200, '{"static_param": 5}', 'application/json'),
    });
    try {
      await closeHarness(h);
      h = harness(fake, { IMPORTER_ONLYFANS_RULES: `${served.origin}/onlyfans.json` });
      const id = await queue(h, 'by-url');
      await worker(h).runOnce();
      expect(await logsOf(id)).toContain('Creator Luna 月: imported 20 posts.');

      await closeHarness(h);
      h = harness(fake, { IMPORTER_ONLYFANS_RULES: `${served.origin}/broken.json` });
      const broken = await queue(h, 'broken');
      const requests = fake.requests.length;
      await worker(h).runOnce();
      expect((await logsOf(broken)).at(-2)).toBe(
        `The OnlyFans signing rules (${served.origin}/broken.json) are not usable: static_param: Invalid input: expected string, received number. The import stopped; the operator has to fix IMPORTER_ONLYFANS_RULES (docs/importing.md).`,
      );
      expect(fake.requests.length).toBe(requests);
    } finally {
      await served.close();
    }
  });
});
