/**
 * Account administration (docs/product.md#moderation-and-administration-api), for administrators; on v1 and v2
 * (v2 enveloped):
 *   GET /account/administrator/accounts           a bare integer (the page uses it as a count)
 *   PATCH /account/administrator/account/{id}     consumer or moderator only; never an
 *                                                  administrator's role nor one's own (403)
 * Role changes are checked by api/moderation/account-roles.ts. Documented with the link requests
 * (api/routes/link-requests.ts) under 'moderation'.
 */
import { z } from 'zod';
import { defineRoutes, route } from '../http/route.ts';
import { countAccounts, listAccounts } from '../data/accounts.ts';
import { changeAccountRole, requireAccount } from '../moderation/account-roles.ts';
import { PAGE_SIZE } from '@shared/constants.ts';
import { accountId, accountsFilterSchema, roleChangeSchema } from '@shared/validation/administration.ts';
import { pageNumber } from '@shared/validation/params.ts';

const account = z.object({
  id: z.number().int(),
  username: z.string(),
  role: z.enum(['consumer', 'moderator', 'administrator']),
  created_at: z.string(),
});

const accountsQuery = accountsFilterSchema;
const accountIdParams = z.object({ id: accountId });

export default defineRoutes(
  'accounts-admin',
  [
    route({
      method: 'get',
      version: [1, 2],
      path: '/account/administrator/accounts',
      access: 'administrator',
      summary: 'How many accounts match the filters (name: part of the username; role), as a bare number.',
      query: accountsQuery,
      response: z.number().int(),
      errors: [401, 403],
      handler: ({ query, deps }) => countAccounts(deps.db, query),
    }),
    route({
      method: 'get',
      version: [1, 2],
      path: '/account/administrator/accounts/{page}',
      access: 'administrator',
      summary: `One page (${PAGE_SIZE} accounts, by id) of the accounts matching the filters; past the end an empty list.`,
      params: z.object({ page: pageNumber }),
      query: accountsQuery,
      response: z.array(account),
      errors: [401, 403],
      handler: ({ params, query, deps }) => listAccounts(deps.db, { ...query, offset: (params.page - 1) * PAGE_SIZE, limit: PAGE_SIZE }),
    }),
    route({
      method: 'get',
      version: [1, 2],
      path: '/account/administrator/account/{id}',
      access: 'administrator',
      summary: 'One account.',
      params: accountIdParams,
      response: account,
      errors: [401, 403, 404],
      handler: ({ params, deps }) => requireAccount(deps.db, params.id),
    }),
    route({
      method: 'patch',
      version: [1, 2],
      path: '/account/administrator/account/{id}',
      access: 'administrator',
      form: true,
      summary: "Changes an account's role to consumer or moderator and notifies the account (notification type 1).",
      description: "Refused (403) for an administrator's account and for one's own.",
      params: accountIdParams,
      body: roleChangeSchema,
      response: account,
      errors: [401, 403, 404],
      handler: ({ params, body, deps, account: me }) => changeAccountRole(deps.db, params.id, body.role, me!),
    }),
  ],
  { section: 'moderation' },
);
