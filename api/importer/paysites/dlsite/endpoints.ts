import type { PaysiteEndpointSettings } from '@api/importer/context.ts';

/**
 * DLsite: the store (www.dlsite.com: the Play session exchange, product.json, work pages, download
 * redirects) is the base URL; `cdn` holds the second base the importer builds paths on, the Play API
 * (play.dlsite.com/api/v3/...; its streamed files on play.dl.dlsite.com, the Play host with `dl.` added).
 * Archives come from download.dlsite.com through the store's redirect, covers from img.dlsite.jp. The
 * session cookie goes to .dlsite.com hosts only (the file server needs the store's cookies); never to
 * img.dlsite.jp.
 */
export const dlsiteEndpoints: PaysiteEndpointSettings = {
  id: 'dlsite',
  url: { variable: 'IMPORTER_DLSITE_URL', default: 'https://www.dlsite.com' },
  hosts: ['.dlsite.com', 'img.dlsite.jp'],
  credentialHosts: ['.dlsite.com'],
  cdn: { variable: 'IMPORTER_DLSITE_PLAY_URL', default: 'https://play.dlsite.com' },
};
