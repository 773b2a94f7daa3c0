/**
 * scripts/similar (`npm run similar`): scores every creator's similar creators again (shared favouriters
 * and tags, docs/product.md#similar-creators) and stores the lists. The server keeps them current after
 * each rebuild; run this once on an archive that has none yet, or to refresh every score. Creators whose
 * shown list changed get a change-log row, so the next rebuild (or the running server) renders their
 * page again. Its messages go through the structured log, the progress bar to the terminal.
 */
import { createProgress } from './lib/progress.ts';
import { config } from '../api/config.ts';
import { closeArchiveDatabase, openArchiveDatabase } from '../api/data/open.ts';
import { createLogger } from '../api/server/logger.ts';
import { recomputeAllSimilar } from '../api/similar/job.ts';

const logger = createLogger(config(), { name: 'similar' });
const db = await openArchiveDatabase(config());
const progress = createProgress('Scoring creators');
let total = 0;
const summary = await recomputeAllSimilar(db, {
  onStart: (count) => progress.start((total = count)),
  onProgress: (done) => progress.update(done, total),
});
progress.stop();
logger.info(`Scored ${summary.scored} creators in ${summary.seconds.toFixed(2)} s; ${summary.marked} pages to render again.`);
await closeArchiveDatabase(db);
