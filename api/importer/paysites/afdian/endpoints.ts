import type { PaysiteEndpointSettings } from '@api/importer/context.ts';

/**
 * Afdian's web API on afdian.com (the domain the key help page sends users to; the same API answers on
 * ifdian.net and afdian.net, set IMPORTER_AFDIAN_URL for those). Pictures come from pic1.afdiancdn.com,
 * audio, video and attachments from vod.afdiancdn.com (signed links); downloads may pass through the
 * site's other domains. The auth_token cookie goes to the API host only, never to a CDN.
 */
export const afdianEndpoints: PaysiteEndpointSettings = {
  id: 'afdian',
  url: { variable: 'IMPORTER_AFDIAN_URL', default: 'https://afdian.com' },
  hosts: ['.afdiancdn.com', 'afdian.com', '.afdian.com', 'afdian.net', '.afdian.net', 'ifdian.net', '.ifdian.net'],
  credentialHosts: [],
};
