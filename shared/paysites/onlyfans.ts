import { KEY_MAX_LENGTH } from '../constants.ts';
import { definePaysite } from './types.ts';
import { fail, maxLength, sessionKeyField } from './key-rules.ts';

/**
 * OnlyFans signs requests with four values that must come from one browser session: the `sess` and
 * `auth_id` cookies, the x-bc token and the browser's User-Agent (the form fills in the browser's own).
 * The server seals them together as the import's credential (api/importer/credential.ts).
 */
export const onlyfans = definePaysite({
  id: 'onlyfans',
  label: 'OnlyFans',
  profileUrl: (id) => `https://onlyfans.com/${id}`,
  tabs: ['tags'],
  attachmentThumbnail: false,
  keyFields: [
    sessionKeyField((v) => maxLength(v), 'Session key (sess cookie)'),
    {
      name: 'auth_id',
      label: 'User ID (auth_id cookie)',
      maxLength: KEY_MAX_LENGTH,
      requiredMessage: 'User ID is required.',
      check: (v) => (/^\d+$/.test(maxLength(v, 'User ID is too long.')) ? v : fail('User ID must consist of only digits.')),
    },
    {
      name: 'x-bc',
      label: 'BC Token (x-bc)',
      maxLength: KEY_MAX_LENGTH,
      requiredMessage: 'BC token is required.',
      check: (v) => (/^[0-9a-f]{40}$/i.test(v) ? v : fail('Invalid BC token')),
    },
    {
      name: 'user_agent',
      label: 'User-Agent',
      hint: "Your browser's own User-Agent is filled in.",
      maxLength: KEY_MAX_LENGTH,
      requiredMessage: 'User-Agent is required.',
      check: (v) =>
        /^[\x20-\x7e]*$/.test(maxLength(v, 'User-Agent is too long.')) ? v : fail('Invalid User-Agent (contains non-ASCII characters).'),
    },
  ],
  dms: false,
});
