import type { PaysiteEndpointSettings } from '@api/importer/context.ts';

/**
 * Fansly's API (apiv3.fansly.com/api/v1/...). The web app (fansly.com: its home page and main.*.js,
 * where the request-signing check key lives) and the file CDN (cdn3.fansly.com, CloudFront-signed URLs)
 * are other fansly.com hosts. The token goes to the API host only.
 */
export const fanslyEndpoints: PaysiteEndpointSettings = {
  id: 'fansly',
  url: { variable: 'IMPORTER_FANSLY_URL', default: 'https://apiv3.fansly.com' },
  hosts: ['fansly.com', '.fansly.com'],
  credentialHosts: [],
};
