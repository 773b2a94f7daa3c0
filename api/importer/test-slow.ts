/**
 * A test-only importer (TROVE_TEST_IMPORTER=slow under TROVE_ENV=test): writes one creator and
 * TROVE_TEST_IMPORTER_POSTS posts (default 20), one post per committed step with
 * TROVE_TEST_IMPORTER_DELAY_MS (default 150) between steps, so a test can kill the worker mid-import.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import type { ImportContext, PaysiteImporter } from './context.ts';

export const SLOW_TEST_CREATOR = 'slow-test-creator';

export function slowTestImporter(env: NodeJS.ProcessEnv): PaysiteImporter {
  const total = Number(env.TROVE_TEST_IMPORTER_POSTS ?? 20);
  const delayMs = Number(env.TROVE_TEST_IMPORTER_DELAY_MS ?? 150);
  return {
    async run(ctx: ImportContext) {
      let next = (await ctx.cursor<{ next: number }>())?.next ?? 0;
      if (next === 0) {
        await ctx.step(() => upsertCreator(ctx.db, { service: ctx.service, id: SLOW_TEST_CREATOR, name: 'Slow Test Creator' }), {
          cursor: { next: 0 },
          log: ['Saved the creator.'],
        });
        await ctx.setSubCount(1);
      }
      for (; next < total; next++) {
        if (ctx.signal.aborted) return;
        const index = next;
        await ctx.step(
          () =>
            upsertPost(ctx.db, {
              service: ctx.service,
              user: SLOW_TEST_CREATOR,
              id: `slow-${index}`,
              title: `Slow post ${index}`,
              published: `2024-01-01T00:00:${String(index % 60).padStart(2, '0')}`,
            }),
          { cursor: { next: index + 1 }, log: [`Saved post ${index + 1} of ${total}.`] },
        );
        await sleep(delayMs);
      }
    },
  };
}
