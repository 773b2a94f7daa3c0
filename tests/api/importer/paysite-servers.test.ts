/**
 * The importer folders (api/importer/paysites/<id>/) are complete and consistent: each is in the
 * registry and in the endpoint list the configuration reads, its endpoint variables are its own and
 * documented in README.md, its credential hosts are within its allowed hosts, and the configuration
 * resolves its settings from the environment.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from '@api/config.ts';
import type { PaysiteEndpointSettings } from '@api/importer/context.ts';
import { PAYSITE_ENDPOINTS } from '@api/importer/paysites/endpoints.ts';
import { PAYSITE_SERVERS, importerFor } from '@api/importer/paysites/index.ts';
import { PAYSITES, isPaysite } from '@shared/paysites/index.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const FOLDER = path.join(ROOT, 'api/importer/paysites');

const folders = () =>
  fs
    .readdirSync(FOLDER, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

const variables = (s: PaysiteEndpointSettings) => [s.url, ...(s.cdn ? [s.cdn] : []), ...Object.values(s.urls ?? {})];
/** The other settings (a path or URL given as is, e.g. OnlyFans' signing rules). */
const others = (s: PaysiteEndpointSettings) => Object.values(s.settings ?? {});

/** Whether a host entry ('a.example' or '.example' for subdomains) is covered by an allowlist. */
function within(host: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => entry === host || (entry.startsWith('.') && host.endsWith(entry)));
}

describe('importer folders', () => {
  it('are the registry and the endpoint list, one paysite each, in the same order', async () => {
    const ids = PAYSITE_SERVERS.map((s) => s.id);
    expect([...ids].sort()).toEqual(folders());
    expect(new Set(ids).size).toBe(ids.length);
    expect(PAYSITE_ENDPOINTS).toEqual(PAYSITE_SERVERS.map((s) => s.endpoints));
    for (const server of PAYSITE_SERVERS) {
      expect(isPaysite(server.id), server.id).toBe(true);
      expect(server.endpoints.id, server.id).toBe(server.id);
      expect(PAYSITE_ENDPOINTS, server.id).toContain(server.endpoints);
      expect(importerFor(server.id, {})).toBe(server.importer);
      for (const file of ['index.ts', 'endpoints.ts'])
        expect(fs.existsSync(path.join(FOLDER, server.id, file)), `${server.id}/${file}`).toBe(true);
      const index = (await import(path.join(FOLDER, server.id, 'index.ts'))) as Record<string, unknown>;
      expect(index[server.id], `${server.id}/index.ts exports \`${server.id}\``).toBe(server);
    }
  });

  it('cover every paysite, and no service outside the list', () => {
    expect(PAYSITE_SERVERS.map((s) => s.id).sort()).toEqual([...PAYSITES].sort());
    expect(() => importerFor('myspace', {})).toThrow("No importer for the service 'myspace'.");
  });

  it('have their own environment variables, documented in README.md with their defaults', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const seen = new Set<string>();
    for (const settings of PAYSITE_ENDPOINTS) {
      const prefix = `IMPORTER_${settings.id.toUpperCase()}_`;
      expect(settings.url.variable, settings.id).toBe(`${prefix}URL`);
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${settings.url.variable}\` |`));
      expect(row, `README.md configuration row of ${settings.url.variable}`).toBeDefined();
      for (const setting of variables(settings)) {
        expect(setting.variable, settings.id).toMatch(new RegExp(`^${prefix}[A-Z0-9_]+$`));
        expect(seen.has(setting.variable), setting.variable).toBe(false);
        seen.add(setting.variable);
        expect(new URL(setting.default).protocol, setting.variable).toBe('https:');
        expect(row, setting.variable).toContain(`\`${setting.variable}\``);
        expect(row, setting.variable).toContain(`\`${setting.default}\``);
      }
      for (const setting of others(settings)) {
        expect(setting.variable, settings.id).toMatch(new RegExp(`^${prefix}[A-Z0-9_]+$`));
        expect(seen.has(setting.variable), setting.variable).toBe(false);
        seen.add(setting.variable);
        expect(row, setting.variable).toContain(`\`${setting.variable}\``);
        expect(row, setting.variable).toContain(`\`${setting.default}\``);
      }
    }
  });

  it('send credentials only to hosts they may contact', () => {
    for (const settings of PAYSITE_ENDPOINTS) {
      const hosts = [new URL(settings.url.default).hostname, ...settings.hosts];
      for (const host of [...settings.hosts, ...settings.credentialHosts]) expect(host, settings.id).toBe(host.toLowerCase());
      for (const host of settings.credentialHosts) expect(within(host, hosts), `${settings.id} credential host ${host}`).toBe(true);
    }
  });

  it('are resolved by the configuration, from the environment or the defaults', () => {
    const defaults = readConfig({}).importer.endpoints;
    expect(Object.keys(defaults)).toEqual(PAYSITE_ENDPOINTS.map((s) => s.id));
    const env = Object.fromEntries(
      PAYSITE_ENDPOINTS.flatMap((s) => variables(s).map((v) => [v.variable, `https://${v.variable.toLowerCase()}.example/base/`])),
    );
    const set = readConfig(env).importer.endpoints;
    for (const settings of PAYSITE_ENDPOINTS) {
      expect(defaults[settings.id], settings.id).toEqual({
        baseUrl: settings.url.default,
        hosts: [...settings.hosts],
        credentialHosts: [...settings.credentialHosts],
        ...(settings.cdn ? { cdnUrl: settings.cdn.default } : {}),
        ...(settings.urls ? { urls: Object.fromEntries(Object.entries(settings.urls).map(([k, v]) => [k, v.default])) } : {}),
        ...(settings.settings
          ? { settings: Object.fromEntries(Object.entries(settings.settings).map(([name, s]) => [name, s.default])) }
          : {}),
      });
      expect(set[settings.id]?.baseUrl).toBe(`https://${settings.url.variable.toLowerCase()}.example/base`);
      if (settings.cdn) expect(set[settings.id]?.cdnUrl).toBe(`https://${settings.cdn.variable.toLowerCase()}.example/base`);
      for (const [name, setting] of Object.entries(settings.urls ?? {}))
        expect(set[settings.id]?.urls?.[name]).toBe(`https://${setting.variable.toLowerCase()}.example/base`);
      for (const [name, setting] of Object.entries(settings.settings ?? {}))
        expect(readConfig({ [setting.variable]: 'given/as is.json' }).importer.endpoints[settings.id]?.settings?.[name]).toBe(
          'given/as is.json',
        );
    }
  });
});
