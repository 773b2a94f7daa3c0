import type { PaysiteEndpointSettings } from '@api/importer/context.ts';

/**
 * Fanbox's API; images come from pximg.net. The session cookie goes to fanbox.cc hosts only
 * (downloads.fanbox.cc needs it); pximg.net images need only the Referer.
 */
export const fanboxEndpoints: PaysiteEndpointSettings = {
  id: 'fanbox',
  url: { variable: 'IMPORTER_FANBOX_URL', default: 'https://api.fanbox.cc' },
  hosts: ['.fanbox.cc', '.pximg.net'],
  credentialHosts: ['.fanbox.cc'],
};
