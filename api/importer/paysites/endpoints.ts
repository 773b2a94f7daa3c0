/**
 * The endpoint settings of every paysite with an importer (one per folder), and how api/config.ts
 * resolves them from the environment. Plain data: the configuration never loads importer code.
 */
import type { PaysiteEndpoint } from '@api/config.ts';
import type { EnvSetting, PaysiteEndpointSettings } from '@api/importer/context.ts';
import type { Paysite } from '@shared/paysites/index.ts';
import { afdianEndpoints } from './afdian/endpoints.ts';
import { boostyEndpoints } from './boosty/endpoints.ts';
import { candfansEndpoints } from './candfans/endpoints.ts';
import { discordEndpoints } from './discord/endpoints.ts';
import { dlsiteEndpoints } from './dlsite/endpoints.ts';
import { fanboxEndpoints } from './fanbox/endpoints.ts';
import { fanslyEndpoints } from './fansly/endpoints.ts';
import { fantiaEndpoints } from './fantia/endpoints.ts';
import { gumroadEndpoints } from './gumroad/endpoints.ts';
import { onlyfansEndpoints } from './onlyfans/endpoints.ts';
import { patreonEndpoints } from './patreon/endpoints.ts';
import { subscribestarEndpoints } from './subscribestar/endpoints.ts';

export const PAYSITE_ENDPOINTS: readonly PaysiteEndpointSettings[] = [
  patreonEndpoints,
  fanboxEndpoints,
  discordEndpoints,
  afdianEndpoints,
  boostyEndpoints,
  candfansEndpoints,
  dlsiteEndpoints,
  fanslyEndpoints,
  fantiaEndpoints,
  gumroadEndpoints,
  onlyfansEndpoints,
  subscribestarEndpoints,
];

function urlSetting(setting: EnvSetting, env: NodeJS.ProcessEnv): string {
  return (env[setting.variable] || setting.default).replace(/\/+$/, '');
}

/** One paysite's endpoint from the environment. */
export function resolveEndpoint(settings: PaysiteEndpointSettings, env: NodeJS.ProcessEnv): PaysiteEndpoint {
  return {
    baseUrl: urlSetting(settings.url, env),
    hosts: [...settings.hosts],
    credentialHosts: [...settings.credentialHosts],
    ...(settings.cdn ? { cdnUrl: urlSetting(settings.cdn, env) } : {}),
    ...(settings.urls
      ? { urls: Object.fromEntries(Object.entries(settings.urls).map(([name, setting]) => [name, urlSetting(setting, env)])) }
      : {}),
    ...(settings.settings
      ? { settings: Object.fromEntries(Object.entries(settings.settings).map(([name, s]) => [name, env[s.variable] || s.default])) }
      : {}),
  };
}

/** The endpoints of every paysite with an importer, keyed by paysite id. */
export function readPaysiteEndpoints(env: NodeJS.ProcessEnv): Partial<Record<Paysite, PaysiteEndpoint>> {
  return Object.fromEntries(PAYSITE_ENDPOINTS.map((settings) => [settings.id, resolveEndpoint(settings, env)]));
}
