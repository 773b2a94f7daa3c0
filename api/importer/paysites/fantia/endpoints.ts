import type { PaysiteEndpointSettings } from '@api/importer/context.ts';

/**
 * Fantia's site and API are both on fantia.jp (no separate API host). Files come from c.fantia.jp
 * (public post thumbnails, fanclub icons and covers) and cc.fantia.jp (CloudFront-signed content files,
 * reached through fantia.jp's download and album_image redirects). The `_session_id` cookie goes to
 * fantia.jp only: the signature in a cc.fantia.jp URL's query is what opens it.
 */
export const fantiaEndpoints: PaysiteEndpointSettings = {
  id: 'fantia',
  url: { variable: 'IMPORTER_FANTIA_URL', default: 'https://fantia.jp' },
  hosts: ['c.fantia.jp', 'cc.fantia.jp'],
  credentialHosts: [],
};
