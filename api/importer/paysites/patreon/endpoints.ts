import type { PaysiteEndpointSettings } from '@api/importer/context.ts';

/** Patreon's website API; files come from patreonusercontent.com. The cookie goes to the API host only. */
export const patreonEndpoints: PaysiteEndpointSettings = {
  id: 'patreon',
  url: { variable: 'IMPORTER_PATREON_URL', default: 'https://www.patreon.com' },
  hosts: ['.patreon.com', 'patreon.com', '.patreonusercontent.com'],
  credentialHosts: [],
};
