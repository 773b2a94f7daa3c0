/**
 * The audit log's filters (GET /api/v1/admin/audit and the administrator's audit page): `o` the offset
 * (a multiple of 50), `actor` an account id, `action` one of the recorded actions. The list of actions
 * belongs to the server (api/data/audit-log.ts), so the schema is built from it.
 */
import { z } from 'zod';
import { rule, trimmed } from './rules.ts';
import { offset } from './params.ts';

export const auditActor = rule(
  (raw, fail): number | undefined => {
    const value = trimmed(raw);
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < 1 || !Number.isSafeInteger(n)) fail('Actor must be a positive account ID.');
    return n;
  },
  { type: 'integer', minimum: 1, description: 'Only the actions of this account.' },
);

/** An empty action means every action; anything else must be one of `actions`. */
export function auditAction<A extends string>(actions: readonly A[]) {
  return rule(
    (raw, fail): A | undefined => {
      const value = trimmed(raw);
      if (value === undefined) return undefined;
      if (!(actions as readonly string[]).includes(value)) fail(`Unknown action "${value}". Known actions: ${actions.join(', ')}.`);
      return value as A;
    },
    { type: 'string', enum: [...actions], description: 'Only this action.' },
  );
}

export function auditQuerySchema<A extends string>(actions: readonly A[]) {
  return z.object({ o: offset, actor: auditActor, action: auditAction(actions) });
}
