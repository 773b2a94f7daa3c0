/** The signed-in account's stored session keys: listed without their material, and revoked. */
import { z } from 'zod';
import { listAccountKeys, revokeKeys } from '../data/auto-import-keys.ts';
import { defineRoutes, route } from '../http/route.ts';
import { keysRevokeSchema } from '@shared/validation/keys.ts';

const serviceKey = z.object({ id: z.number().int(), service: z.string(), dead: z.boolean(), added: z.string() });

export default defineRoutes(
  'keys',
  [
    route({
      method: 'get',
      version: 1,
      path: '/account/keys',
      summary: "The account's stored session keys (never the keys themselves) and, per key id, the imports that used it.",
      access: 'account',
      response: z.object({
        props: z.object({
          currentPage: z.literal('account'),
          service_keys: z.array(serviceKey),
          import_ids: z.record(z.string(), z.array(z.string())),
        }),
      }),
      handler: async ({ account, deps }) => {
        const keys = await listAccountKeys(deps.db, account!.id);
        return {
          props: {
            currentPage: 'account' as const,
            service_keys: keys.map(({ id, service, dead, added }) => ({ id, service, dead, added })),
            import_ids: Object.fromEntries(keys.map((key) => [String(key.id), key.import_ids])),
          },
        };
      },
    }),
    route({
      method: 'post',
      version: 1,
      path: '/account/keys',
      summary: "Revokes (deletes) the listed keys of the account; ids of other accounts' keys change nothing.",
      access: 'account',
      body: keysRevokeSchema,
      response: z.literal(true),
      form: true,
      handler: async ({ account, body, deps }) => {
        await revokeKeys(deps.db, account!.id, body.revoke);
        return true as const;
      },
    }),
  ],
  'Stored session keys of the signed-in account.',
);
