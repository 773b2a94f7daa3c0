/**
 * Administrator tools. Auto-import rounds: the web server cannot open kept keys (it has only the
 * operator's public key), so a request here is recorded and the process holding the private key
 * (scripts/auto-import.ts, or npm start with the demo pair) runs it within a minute.
 */
import { z } from 'zod';
import { listAutoImportRounds, requestAutoImportRound } from '../data/auto-import.ts';
import { nowIso } from '../data/util.ts';
import { defineRoutes, route } from '../http/route.ts';

const round = z.object({
  id: z.number().int(),
  requested_at: z.string(),
  /** The administrator who asked; null for a round that fell due by itself. */
  requested_by: z.number().int().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  queued: z.number().int().nullable(),
  skipped: z.number().int().nullable(),
  failed: z.number().int().nullable(),
});

export default defineRoutes(
  'admin',
  [
    route({
      method: 'post',
      version: 1,
      path: '/admin/auto_import',
      access: 'administrator',
      status: 202,
      summary: 'Asks for an auto-import round now; the auto-import process starts it within a minute.',
      description: 'A round already requested and not started yet is answered instead of a second one.',
      response: z.object({ round_id: z.number().int(), requested_at: z.string() }),
      errors: [401, 403],
      handler: async ({ deps, account }) => {
        const requested = await requestAutoImportRound(deps.db, account!, nowIso());
        return { round_id: requested.id, requested_at: requested.requested_at };
      },
    }),
    route({
      method: 'get',
      version: 1,
      path: '/admin/auto_import',
      access: 'administrator',
      summary: 'The 20 most recent auto-import rounds, newest first, with what each queued, skipped and failed.',
      response: z.array(round),
      errors: [401, 403],
      handler: ({ deps }) => listAutoImportRounds(deps.db, 20),
    }),
  ],
  'Administrator tools: auto-import rounds.',
);
