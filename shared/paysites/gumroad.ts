import { KEY_MAX_LENGTH } from '../constants.ts';
import { definePaysite } from './types.ts';
import { fail, sessionKeyField } from './key-rules.ts';

/** Creator ids are numeric Gumroad user ids (the user name is the public_id). */
export const gumroad = definePaysite({
  id: 'gumroad',
  label: 'Gumroad',
  profileUrl: (id) => `https://gumroad.com/${id}`,
  tabs: [],
  attachmentThumbnail: true,
  keyFields: [
    sessionKeyField((v) => (v.length >= 200 && v.length <= KEY_MAX_LENGTH ? v : fail('Invalid key: Expected 200 to 1024 characters.'))),
  ],
  dms: false,
});
