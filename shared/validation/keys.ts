/** The signed-in account's stored session keys. */
import { z } from 'zod';
import { list, rule, scalarText } from './rules.ts';

/** POST /account/keys: ids of the keys to revoke. */
export const keysRevokeSchema = z.object({
  revoke: rule(
    (raw, fail) => {
      const ids = list(raw).map((v) => scalarText(v)?.trim() ?? '');
      if (ids.length === 0) fail('At least one key must be selected for revocation.');
      return ids.map((id) => {
        if (!/^\d+$/.test(id) || Number(id) < 1 || !Number.isSafeInteger(Number(id))) fail(`Invalid key ID "${id}".`);
        return Number(id);
      });
    },
    { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1 },
  ),
});
