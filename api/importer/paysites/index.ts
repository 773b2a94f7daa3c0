/**
 * The registry of importers: one folder per paysite with an importer (./<id>/index.ts, its
 * PaysiteServer). Paysites without a folder end the import saying their importer is not available yet.
 * Each folder's endpoint settings are also listed in ./endpoints.ts, which the configuration reads.
 */
import type { PaysiteImporter, PaysiteServer } from '@api/importer/context.ts';
import { slowTestImporter } from '@api/importer/test-slow.ts';
import { paysiteLabel } from '@shared/paysites/index.ts';
import { afdian } from './afdian/index.ts';
import { boosty } from './boosty/index.ts';
import { candfans } from './candfans/index.ts';
import { discord } from './discord/index.ts';
import { dlsite } from './dlsite/index.ts';
import { fanbox } from './fanbox/index.ts';
import { fansly } from './fansly/index.ts';
import { fantia } from './fantia/index.ts';
import { gumroad } from './gumroad/index.ts';
import { onlyfans } from './onlyfans/index.ts';
import { patreon } from './patreon/index.ts';
import { subscribestar } from './subscribestar/index.ts';

export const PAYSITE_SERVERS: readonly PaysiteServer[] = [
  patreon,
  fanbox,
  discord,
  afdian,
  boosty,
  candfans,
  dlsite,
  fansly,
  fantia,
  gumroad,
  onlyfans,
  subscribestar,
];

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
