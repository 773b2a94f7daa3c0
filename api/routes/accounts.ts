/**
 * Accounts: registration, login, logout, the signed-in account, its notifications and password change
 * (docs/product.md#accounts-api, rules under docs/product.md#validation-rules). Login and registration refuse
 * requests sent by another site's page; their checks, rate limits and hashing are in api/auth/credentials.ts.
 */
import type { Request } from 'express';
import { z } from 'zod';
import type { Account } from '../data/accounts.ts';
import { countUnseenNotifications, listNotifications, markNotificationsSeen } from '../data/notifications.ts';
import { ACCOUNT_MESSAGES, changePassword, registerAccount, verifyLogin } from '../auth/credentials.ts';
import { clientAddress } from '../auth/rate-limits.ts';
import { clearSessionCookie, endRequestSession, startSession } from '../auth/sessions.ts';
import { ConflictError, ForbiddenError } from '../http/errors.ts';
import { defineRoutes, route, type AppContext } from '../http/route.ts';
import { CSRF_MESSAGE, cameFromThisSite } from '../http/session.ts';
import { changePasswordSchema, loginSchema, registrationSchema } from '@shared/validation/accounts.ts';

const account = z.object({
  id: z.number().int(),
  username: z.string(),
  created_at: z.string(),
  role: z.enum(['consumer', 'moderator', 'administrator']),
});

const notification = z.object({
  id: z.number().int(),
  type: z.number().int(),
  extra_info: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
  isSeen: z.boolean(),
});

function publicAccount(a: Account): z.input<typeof account> {
  return { id: a.id, username: a.username, created_at: a.created_at, role: a.role };
}

function requireSameSite(req: Request): void {
  if (!cameFromThisSite(req.headers)) throw new ForbiddenError(CSRF_MESSAGE);
}

const addressOf = (req: Request, deps: AppContext) => clientAddress(req, deps.config.trustProxy);

export default defineRoutes(
  'accounts',
  [
    route({
      method: 'post',
      version: 1,
      path: '/authentication/register',
      summary: 'Creates an account (username normalised), adds the guest favourites of favorites_json, and signs it in.',
      description:
        'Sets the `session` cookie. 409 when the username is taken; 429 with Retry-After when the address ' +
        'registered too often lately.',
      body: registrationSchema,
      response: account,
      errors: [403, 409, 429],
      form: true,
      handler: async ({ body, deps, req, res }) => {
        requireSameSite(req);
        const created = await registerAccount(deps.db, addressOf(req, deps), body);
        await startSession(deps.db, req, res, created.id);
        return publicAccount(created);
      },
    }),
    route({
      method: 'post',
      version: 1,
      path: '/authentication/login',
      summary: 'Signs in with username and password; answers the account and sets the `session` cookie.',
      description:
        '409 when the request already has a valid session (the client then fetches /account). Wrong ' +
        'password and unknown username answer the same 401 in the same time. 429 with Retry-After after ' +
        'too many attempts from the address or failures for the username.',
      body: loginSchema,
      response: account,
      errors: [401, 403, 409, 429],
      form: true,
      handler: async ({ body, deps, req, res, account: current }) => {
        requireSameSite(req);
        if (current) throw new ConflictError(ACCOUNT_MESSAGES.alreadyLoggedIn);
        const found = await verifyLogin(deps.db, addressOf(req, deps), body);
        await startSession(deps.db, req, res, found.id);
        return publicAccount(found);
      },
    }),
    route({
      method: 'post',
      version: 1,
      path: '/authentication/logout',
      summary: "Ends the request's session (if any) and clears the `session` cookie.",
      response: z.unknown(),
      status: 204,
      form: true,
      handler: async ({ deps, req, res }) => {
        await endRequestSession(deps.db, req);
        clearSessionCookie(req, res);
        return undefined;
      },
    }),
    route({
      method: 'get',
      version: 1,
      path: '/account',
      summary: 'The signed-in account, with the number of notifications it has not seen.',
      access: 'account',
      response: z.object({
        props: z.object({ currentPage: z.literal('account'), account, notifications_count: z.number().int() }),
      }),
      handler: async ({ account: current, deps }) => ({
        props: {
          currentPage: 'account' as const,
          account: publicAccount(current!),
          notifications_count: await countUnseenNotifications(deps.db, current!.id),
        },
      }),
    }),
    route({
      method: 'get',
      version: 1,
      path: '/account/notifications',
      summary: "The account's notifications, newest first; isSeen is the state before this call, which marks them all seen.",
      access: 'account',
      response: z.object({ props: z.object({ currentPage: z.literal('account'), notifications: z.array(notification) }) }),
      handler: async ({ account: current, deps }) => {
        const notifications = (await listNotifications(deps.db, current!.id)).map((n) => ({
          id: n.id,
          type: n.type,
          extra_info: n.extra_info,
          created_at: n.created_at,
          isSeen: n.is_seen,
        }));
        await markNotificationsSeen(deps.db, current!.id);
        return { props: { currentPage: 'account' as const, notifications } };
      },
    }),
    route({
      method: 'post',
      version: 1,
      path: '/account/change_password',
      summary: 'Changes the password; ends every session of the account and signs this browser in again.',
      description: 'Counts against the login attempts of the address (it verifies a password).',
      access: 'account',
      body: changePasswordSchema,
      response: z.literal(true),
      errors: [401, 429],
      form: true,
      handler: async ({ body, deps, req, res, account: current }) => {
        await changePassword(deps.db, addressOf(req, deps), current!.id, body['current-password'], body['new-password']);
        await startSession(deps.db, req, res, current!.id);
        return true as const;
      },
    }),
  ],
  'Registration, sessions, the signed-in account, notifications and password change.',
);
