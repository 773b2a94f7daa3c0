import type { PaysiteEndpointSettings } from '@api/importer/context.ts';

/** Discord's REST API; attachments and server icons come from its CDN. The token goes to the API host only. */
export const discordEndpoints: PaysiteEndpointSettings = {
  id: 'discord',
  url: { variable: 'IMPORTER_DISCORD_URL', default: 'https://discord.com/api/v10' },
  hosts: ['discord.com', 'cdn.discordapp.com', 'media.discordapp.net'],
  credentialHosts: [],
  cdn: { variable: 'IMPORTER_DISCORD_CDN_URL', default: 'https://cdn.discordapp.com' },
};
