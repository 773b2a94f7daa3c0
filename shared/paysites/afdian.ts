import { definePaysite } from './types.ts';
import { fail, maxLength, sessionKeyField } from './key-rules.ts';

/** Creator ids are afdian's hex user ids. */
export const afdian = definePaysite({
  id: 'afdian',
  label: 'Afdian',
  profileUrl: (id) => `https://afdian.com/u/${id}`,
  tabs: [],
  attachmentThumbnail: false,
  keyFields: [sessionKeyField((v) => (/^[0-9a-f]+_\d+$/.test(maxLength(v)) ? v : fail('Invalid key.')))],
  dms: false,
});
