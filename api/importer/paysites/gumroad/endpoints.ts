import type { PaysiteEndpointSettings } from '@api/importer/context.ts';

/**
 * Gumroad's web application (app.gumroad.com; gumroad.com serves the same pages, download links in the
 * library point at gumroad.com/d/...). Creator pages live on {username}.gumroad.com; purchased files on
 * files.gumroad.com (or a CloudFront distribution for files over 8 GB), images on public-files,
 * static-2 and assets.gumroad.com. The session cookie goes to gumroad.com and app.gumroad.com only;
 * each creator's own subdomain is added by the importer for that creator (never a file host, which
 * `.gumroad.com` would also match).
 */
export const gumroadEndpoints: PaysiteEndpointSettings = {
  id: 'gumroad',
  url: { variable: 'IMPORTER_GUMROAD_URL', default: 'https://app.gumroad.com' },
  hosts: ['gumroad.com', '.gumroad.com', 'd2dw6lv4z9w0e2.cloudfront.net'],
  credentialHosts: ['gumroad.com'],
};
