import { definePaysite } from './types.ts';
import { base64Text, decodeUri, fail, maxLength, parseJsonObject, sessionKeyField } from './key-rules.ts';

/** CandFans' session cookie: a Laravel encrypted value, base64 JSON, usually URL-encoded. */
function candfansKey(value: string): string {
  maxLength(value);
  let json: Record<string, unknown> | undefined;
  for (const candidate of [value, decodeUri(value)]) {
    if (candidate === undefined || json) continue;
    json = parseJsonObject(base64Text(candidate));
  }
  if (!json) fail('The key was not decodable.');
  for (const name of ['mac', 'iv', 'tag', 'value']) {
    if (typeof json![name] !== 'string') fail('The key does not contain the appropriate values.');
  }
  return value;
}

/** Creator ids are numeric CandFans user ids. */
export const candfans = definePaysite({
  id: 'candfans',
  label: 'CandFans',
  profileUrl: (id) => `https://candfans.jp/${id}`,
  tabs: ['tags'],
  attachmentThumbnail: true,
  keyFields: [sessionKeyField(candfansKey)],
  dms: false,
});
