import type { PaysiteEndpointSettings } from '@api/importer/context.ts';

/**
 * SubscribeStar runs two sites on one engine: www.subscribestar.com and the adult site, which moved
 * from subscribestar.adult to subscribestar.art in August 2026 (the old host redirects). Uploads come
 * from a CloudFront distribution (uploads_v2, signed URLs) and ss-uploads-prod.b-cdn.net (avatars,
 * covers, older uploads); adult gallery URLs are /uploads?payload= links on the site that redirect there.
 * The session cookie goes to the two sites only, never to an upload host.
 */
export const subscribestarEndpoints: PaysiteEndpointSettings = {
  id: 'subscribestar',
  url: { variable: 'IMPORTER_SUBSCRIBESTAR_URL', default: 'https://www.subscribestar.com' },
  urls: { adult: { variable: 'IMPORTER_SUBSCRIBESTAR_ADULT_URL', default: 'https://subscribestar.art' } },
  hosts: [
    'www.subscribestar.com',
    'subscribestar.com',
    'subscribestar.art',
    'www.subscribestar.art',
    'subscribestar.adult',
    'www.subscribestar.adult',
    'ss-uploads-prod.b-cdn.net',
    '.cloudfront.net',
  ],
  credentialHosts: [
    'www.subscribestar.com',
    'subscribestar.art',
    'www.subscribestar.art',
    'subscribestar.adult',
    'www.subscribestar.adult',
  ],
};
