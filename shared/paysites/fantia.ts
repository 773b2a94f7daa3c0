import { definePaysite } from './types.ts';
import { fail, sessionKeyField } from './key-rules.ts';

/** Creator ids are numeric fanclub ids. */
export const fantia = definePaysite({
  id: 'fantia',
  label: 'Fantia',
  profileUrl: (id) => `https://fantia.jp/fanclubs/${id}`,
  tabs: [],
  attachmentThumbnail: false,
  keyFields: [sessionKeyField((v) => (v.length === 32 || v.length === 64 ? v : fail('Invalid key: Expected 32 or 64 characters.')))],
  dms: false,
});
