/** Similar creators: the list the similarity job computed for a creator (docs/product.md#similar-creators). */
import { z } from 'zod';
import { listSimilarCreators } from '../data/similar.ts';
import { defineRoutes } from '../http/route.ts';
import { SIMILAR_LIMITS } from '../similar/score.ts';
import { creatorListRoute, creatorSummary } from './creator-common.ts';

const similarCreator = creatorSummary.extend({ score: z.number() });

export default defineRoutes('similar', [
  creatorListRoute(
    '/{service}/user/{id}/recommended',
    'Creators similar to this one (shared favouriters and tags), best first, each with its score between 0 and 1.',
    similarCreator,
    (db, p) => listSimilarCreators(db, p.service, p.id, SIMILAR_LIMITS.topK),
  ),
]);
