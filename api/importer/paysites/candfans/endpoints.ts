import type { PaysiteEndpointSettings } from '@api/importer/context.ts';

/**
 * CandFans' website (a Laravel app: its API is under /api on the same host). Answers give image paths
 * relative to image.candfans.jp (IMPORTER_CANDFANS_CDN_URL) and absolute attachment URLs on
 * image.candfans.jp / video.candfans.jp (HLS); the 2022 S3 origin is allowed for old absolute paths.
 * The session cookie lives in the import's cookie jar (Laravel re-encrypts it on every answer): it goes
 * back to candfans.jp, and to its subdomains only if the site sets it for the whole domain, as a browser does.
 */
export const candfansEndpoints: PaysiteEndpointSettings = {
  id: 'candfans',
  url: { variable: 'IMPORTER_CANDFANS_URL', default: 'https://candfans.jp' },
  hosts: ['.candfans.jp', 'fanty-master-storage.s3.ap-northeast-1.amazonaws.com'],
  credentialHosts: ['.candfans.jp'],
  cdn: { variable: 'IMPORTER_CANDFANS_CDN_URL', default: 'https://image.candfans.jp' },
};
