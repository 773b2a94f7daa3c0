/** The administrator's account pages: account ids, the list's filters and the role form. */
import { z } from 'zod';
import { rule, scalarText, trimmed } from './rules.ts';
import { ACCOUNT_ROLES, type AccountRole } from './accounts.ts';

/** The roles the administrator's role form offers (docs/product.md#account-list). */
export const ASSIGNABLE_ROLES = ['consumer', 'moderator'] as const satisfies readonly AccountRole[];

export const accountRole = z.preprocess((raw) => scalarText(raw)?.trim(), z.enum(ACCOUNT_ROLES, { error: 'Invalid account role.' }));

export const accountId = rule(
  (raw, fail) => {
    const value = scalarText(raw)?.trim() ?? '';
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < 1 || !Number.isSafeInteger(n)) fail('Account ID must be positive.');
    return n;
  },
  { type: 'integer', minimum: 1 },
);

/** Account list filters: name and role trimmed; an empty role means all roles. */
export const accountsFilterSchema = z.object({
  name: rule((raw) => trimmed(raw), { type: 'string' }),
  role: rule(
    (raw, fail): AccountRole | undefined => {
      const value = trimmed(raw);
      if (value === undefined) return undefined;
      if (!(ACCOUNT_ROLES as readonly string[]).includes(value)) fail('Invalid account role.');
      return value as AccountRole;
    },
    { type: 'string', enum: [...ACCOUNT_ROLES] },
  ),
});

export const roleChangeSchema = z.object({ role: accountRole });
