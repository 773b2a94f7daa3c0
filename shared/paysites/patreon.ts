import { definePaysite } from './types.ts';
import { fail, sessionKeyField } from './key-rules.ts';

/** Creator ids are the campaign owner's numeric Patreon user id (kemono's patreon/user/{id}). */
export const patreon = definePaysite({
  id: 'patreon',
  label: 'Patreon',
  profileUrl: (id) => `https://www.patreon.com/user?u=${id}`,
  tabs: ['announcements', 'tags'],
  attachmentThumbnail: false,
  keyFields: [sessionKeyField((v) => (v.length === 43 ? v : fail(`Invalid key: Expected 43 characters, got ${v.length}`)))],
  dms: true,
});
