import { KEY_MAX_LENGTH } from '../constants.ts';
import { definePaysite } from './types.ts';
import { fail, sessionKeyField } from './key-rules.ts';

/** Creator ids are numeric pixiv user ids (the creator's handle is its public_id). */
export const fanbox = definePaysite({
  id: 'fanbox',
  label: 'Pixiv Fanbox',
  profileUrl: (id) => `https://www.pixiv.net/fanbox/creator/${id}`,
  tabs: ['fancards', 'announcements', 'tags'],
  attachmentThumbnail: false,
  // The FANBOXSESSID cookie: the pixiv user id, an underscore, then a token.
  keyFields: [sessionKeyField((v) => (v.length <= KEY_MAX_LENGTH && /^\d+_\w+$/.test(v) ? v : fail('Invalid key.')))],
  dms: false,
});
