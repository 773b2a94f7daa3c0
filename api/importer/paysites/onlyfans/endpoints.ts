import type { PaysiteEndpointSettings } from '@api/importer/context.ts';

/**
 * OnlyFans' web API (onlyfans.com/api2/v2); post media come from cdnN.onlyfans.com (CloudFront-signed
 * URLs, no cookie needed), avatars and headers from public.onlyfans.com. The session goes to
 * onlyfans.com only. Every request is signed with rules OnlyFans changes with its deploys: they are
 * read from IMPORTER_ONLYFANS_RULES (a JSON file, relative to the Trove folder, or an https URL),
 * by default the copy shipped beside this file (docs/importing.md says how to update it).
 */
export const onlyfansEndpoints: PaysiteEndpointSettings = {
  id: 'onlyfans',
  url: { variable: 'IMPORTER_ONLYFANS_URL', default: 'https://onlyfans.com' },
  hosts: ['.onlyfans.com'],
  credentialHosts: [],
  settings: { rules: { variable: 'IMPORTER_ONLYFANS_RULES', default: 'api/importer/paysites/onlyfans/rules.json' } },
};
