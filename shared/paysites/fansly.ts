import { definePaysite } from './types.ts';
import { base64Text, fail, maxLength, parseJsonObject, sessionKeyField } from './key-rules.ts';

/** Fansly's token: 71 letters and digits, or base64 JSON holding a `token`. */
function fanslyKey(value: string): string {
  maxLength(value);
  if (value.length === 71) {
    if (!/^[A-Za-z0-9]{71}$/.test(value)) fail("The key doesn't match the required pattern.");
    return value;
  }
  const json = parseJsonObject(base64Text(value));
  if (!json) fail('Key is not valid JSON.');
  const token = json!.token;
  if (typeof token !== 'string' || token.trim() === '') fail('Token not found in JSON.');
  return value;
}

/** Creator ids are numeric Fansly account ids. */
export const fansly = definePaysite({
  id: 'fansly',
  label: 'Fansly',
  profileUrl: (id) => `https://fansly.com/${id}/posts`,
  tabs: ['tags'],
  attachmentThumbnail: true,
  keyFields: [sessionKeyField(fanslyKey)],
  dms: true,
});
