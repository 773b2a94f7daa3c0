/**
 * The registry of importers: one folder per paysite with an importer (./<id>/index.ts, its
 * PaysiteServer), and every paysite has one (tests/api/importer/paysite-servers.test.ts checks it).
 * Each folder's endpoint settings are also listed in ./endpoints.ts, which the configuration reads.
 */
import type { PaysiteImporter, PaysiteServer } from '@api/importer/context.ts';
import { slowTestImporter } from '@api/importer/test-slow.ts';
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

const IMPORTERS = new Map<string, PaysiteImporter>(PAYSITE_SERVERS.map((server) => [server.id, server.importer]));

/**
 * The importer of a service. TROVE_TEST_IMPORTER=slow (honoured only when TROVE_ENV=test) replaces every
 * paysite's with a test importer that writes posts one step at a time, for the crash test.
 */
export function importerFor(service: string, env: NodeJS.ProcessEnv = process.env): PaysiteImporter {
  if (env.TROVE_ENV === 'test' && env.TROVE_TEST_IMPORTER === 'slow') return slowTestImporter(env);
  const importer = IMPORTERS.get(service);
  // Submissions are checked against the paysite list, so only a damaged import row gets here.
  if (!importer) throw new Error(`No importer for the service '${service}'.`);
  return importer;
}
