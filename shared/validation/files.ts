/** Files: SHA-256 hashes (hash search, archive files) and archive passwords. */
import { rule, scalarText } from './rules.ts';

/** A SHA-256 hash: trimmed, lowercased, 64 hex characters. */
export const sha256Hash = rule(
  (raw, fail) => {
    const value = (scalarText(raw) ?? '').trim().toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(value)) fail('Invalid hash!');
    return value;
  },
  { type: 'string', pattern: '^[0-9a-f]{64}$' },
);

/** Archive passwords are taken as typed (no trimming). */
export const archivePassword = rule(
  (raw, fail) => {
    const value = scalarText(raw) ?? '';
    if (value === '') fail('Please enter a password.');
    return value;
  },
  { type: 'string', minLength: 1 },
);
