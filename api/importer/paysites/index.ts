/**
 * The registry of importers: one folder per paysite with an importer (./<id>/index.ts, its
 * PaysiteServer). Paysites without a folder end the import saying their importer is not available yet.
 * Each folder's endpoint settings are also listed in ./endpoints.ts, which the configuration reads.
 */
import type { PaysiteImporter, PaysiteServer } from '@api/importer/context.ts';
import { slowTestImporter } from '@api/importer/test-slow.ts';
import { paysiteLabel } from '@shared/paysites/index.ts';
import { candfans } from './candfans/index.ts';
import { discord } from './discord/index.ts';
import { fanbox } from './fanbox/index.ts';
import { patreon } from './patreon/index.ts';

export const PAYSITE_SERVERS: readonly PaysiteServer[] = [patreon, fanbox, discord, candfans];

export function notAvailableLine(service: string): string {
  return `${paysiteLabel(service)} importer is not available yet; nothing was imported.`;
}

export const notAvailable: PaysiteImporter = {
  async run(ctx) {
    ctx.step(() => undefined, { log: [notAvailableLine(ctx.service)] });
  },
};

const IMPORTERS = new Map<string, PaysiteImporter>(PAYSITE_SERVERS.map((server) => [server.id, server.importer]));

/**
 * The importer of a service. TROVE_TEST_IMPORTER=slow (honoured only when TROVE_ENV=test) replaces every
 * paysite's with a test importer that writes posts one step at a time, for the crash test.
 */
export function importerFor(service: string, env: NodeJS.ProcessEnv = process.env): PaysiteImporter {
  if (env.TROVE_ENV === 'test' && env.TROVE_TEST_IMPORTER === 'slow') return slowTestImporter(env);
  return IMPORTERS.get(service) ?? notAvailable;
}
