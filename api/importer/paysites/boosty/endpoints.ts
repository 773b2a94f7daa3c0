import type { PaysiteEndpointSettings } from '@api/importer/context.ts';

/**
 * Boosty's API (api.boosty.to, which alone gets the bearer token); images, avatars and covers from
 * images.boosty.to, files and audio from cdn.boosty.to (signed by the post's signedQuery, no token),
 * videos from the OK.ru video CDN that playerUrls name (okcdn.ru / mycdn.me: an assumption, no source
 * shows the real host names; a video elsewhere is skipped with a log line).
 */
export const boostyEndpoints: PaysiteEndpointSettings = {
  id: 'boosty',
  url: { variable: 'IMPORTER_BOOSTY_URL', default: 'https://api.boosty.to' },
  hosts: ['images.boosty.to', 'cdn.boosty.to', '.okcdn.ru', '.mycdn.me'],
  credentialHosts: [],
};
