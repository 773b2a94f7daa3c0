import { KEY_MAX_LENGTH } from '../constants.ts';
import { definePaysite } from './types.ts';
import { fail, maxLength, sessionKeyField } from './key-rules.ts';

/**
 * Discord user tokens: base64 user id, a timestamp part and an HMAC part separated by dots, or the
 * older 'mfa.' form. The exact lengths vary between token generations, so only the shape is checked.
 */
const DISCORD_TOKEN = /^(?:mfa\.[\w-]{20,}|[\w-]{18,40}\.[\w-]{4,10}\.[\w-]{20,})$/;

/** Comma-separated snowflakes; spaces and empty entries are dropped. */
function channelIds(value: string): string {
  maxLength(value, 'Channel IDs are too long.');
  const ids = value
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  if (ids.length === 0) fail('Channel IDs are required.');
  for (const id of ids) if (!/^\d+$/.test(id)) fail(`${id} is not a valid channel ID.`);
  return ids.join(',');
}

/** A Discord "creator" is a server (guild); its page is the server's. */
export const discord = definePaysite({
  id: 'discord',
  label: 'Discord',
  profileUrl: (id) => `https://discord.com/channels/${id}`,
  tabs: [],
  attachmentThumbnail: false,
  keyFields: [
    sessionKeyField((v) => (DISCORD_TOKEN.test(maxLength(v)) ? v : fail('Invalid token format.')), 'Token'),
    {
      name: 'channel_ids',
      label: 'Channel IDs',
      hint: 'Comma separated, e.g. 123456789012345678,234567890123456789',
      maxLength: KEY_MAX_LENGTH,
      requiredMessage: 'Channel IDs are required.',
      check: channelIds,
    },
  ],
  dms: false,
});
