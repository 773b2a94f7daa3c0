/**
 * Accounts: registration, login, logout, the signed-in account, its notifications and password change
 * (SPEC.md sections 2, 5 and 7; API-NOTES.md "Accounts"). Login and registration are rate limited
 * before any hashing (api/auth/rate-limits.ts) and refuse requests sent by another site's page.
 */
import type { Request } from 'express';
import { z } from 'zod';
import {
  createAccount,
  deleteAccountSessions,
  getAccountByUsername,
  getPasswordHash,
  setPasswordHash,
  type Account,
} from '../data/accounts.ts';
import type { Db } from '../data/db.ts';
import { addFavoriteCreator } from '../data/favorites.ts';
import { countUnseenNotifications, listNotifications, markNotificationsSeen } from '../data/notifications.ts';
import { checkPassword, hashPassword } from '../auth/passwords.ts';
import {
  checkUsernameFailures,
  clearLoginFailures,
  clientAddress,
  recordLoginFailure,
  takeLoginAttempt,
  takeRegistration,
} from '../auth/rate-limits.ts';
import { clearSessionCookie, endRequestSession, startSession } from '../auth/sessions.ts';
import { ConflictError, ForbiddenError, UnauthorizedError, ValidationError } from '../http/errors.ts';
import { defineRoutes, route, type AppContext } from '../http/route.ts';
import { CSRF_MESSAGE, cameFromThisSite } from '../http/session.ts';
import { changePasswordSchema, loginSchema, registrationSchema } from '@shared/validation/accounts.ts';

export const ACCOUNT_MESSAGES = {
  taken: 'Username already taken.',
  badCredentials: 'Incorrect username or password.',
  alreadyLoggedIn: 'You are already logged in.',
  wrongCurrentPassword: 'Current password is incorrect.',
} as const;

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

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

function createWithFavorites(db: Db, username: string, passwordHash: string, favorites: { service: string; id: string }[]): Account {
  const created = createAccount(db, { username, password_hash: passwordHash });
  // Unknown creators are skipped: the guest cookie may name creators this archive never had.
  for (const favorite of favorites) addFavoriteCreator(db, created.id, favorite.service, favorite.id);
  return created;
}

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
        await takeRegistration(deps.db, addressOf(req, deps));
        if (getAccountByUsername(deps.db, body.username)) throw new ConflictError(ACCOUNT_MESSAGES.taken);
        const passwordHash = await hashPassword(body.password);
        let created: Account;
        try {
          created = createWithFavorites(deps.db, body.username, passwordHash, body.favorites_json);
        } catch (error) {
          // Two registrations of one name at once: the second loses at the UNIQUE constraint.
          if (isUniqueViolation(error)) throw new ConflictError(ACCOUNT_MESSAGES.taken);
          throw error;
        }
        startSession(deps.db, req, res, created.id);
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
        await takeLoginAttempt(deps.db, addressOf(req, deps));
        await checkUsernameFailures(deps.db, body.username);
        const found = getAccountByUsername(deps.db, body.username);
        if (!(await checkPassword(found?.password_hash, body.password)) || !found) {
          await recordLoginFailure(deps.db, body.username);
          throw new UnauthorizedError(ACCOUNT_MESSAGES.badCredentials);
        }
        await clearLoginFailures(deps.db, body.username);
        startSession(deps.db, req, res, found.id);
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
      handler: ({ deps, req, res }) => {
        endRequestSession(deps.db, req);
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
      handler: ({ account: current, deps }) => ({
        props: {
          currentPage: 'account' as const,
          account: publicAccount(current!),
          notifications_count: countUnseenNotifications(deps.db, current!.id),
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
      handler: ({ account: current, deps }) => {
        const notifications = listNotifications(deps.db, current!.id).map((n) => ({
          id: n.id,
          type: n.type,
          extra_info: n.extra_info,
          created_at: n.created_at,
          isSeen: n.is_seen,
        }));
        markNotificationsSeen(deps.db, current!.id);
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
        await takeLoginAttempt(deps.db, addressOf(req, deps));
        if (!(await checkPassword(getPasswordHash(deps.db, current!.id), body['current-password']))) {
          throw new ValidationError(ACCOUNT_MESSAGES.wrongCurrentPassword);
        }
        setPasswordHash(deps.db, current!.id, await hashPassword(body['new-password']));
        deleteAccountSessions(deps.db, current!.id);
        startSession(deps.db, req, res, current!.id);
        return true as const;
      },
    }),
  ],
  'Registration, sessions, the signed-in account, notifications and password change.',
);
