/**
 * The endpoint settings of every paysite with an importer (one per folder), and how api/config.ts
 * resolves them from the environment. Plain data: the configuration never loads importer code.
 */
import type { PaysiteEndpoint } from '@api/config.ts';
import type { EnvSetting, PaysiteEndpointSettings } from '@api/importer/context.ts';
import type { Paysite } from '@shared/paysites/index.ts';
import { candfansEndpoints } from './candfans/endpoints.ts';
import { discordEndpoints } from './discord/endpoints.ts';
import { fanboxEndpoints } from './fanbox/endpoints.ts';
import { patreonEndpoints } from './patreon/endpoints.ts';

export const PAYSITE_ENDPOINTS: readonly PaysiteEndpointSettings[] = [
  patreonEndpoints,
  fanboxEndpoints,
  discordEndpoints,
  candfansEndpoints,
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
  };
}

/** The endpoints of every paysite with an importer, keyed by paysite id. */
export function readPaysiteEndpoints(env: NodeJS.ProcessEnv): Partial<Record<Paysite, PaysiteEndpoint>> {
  return Object.fromEntries(PAYSITE_ENDPOINTS.map((settings) => [settings.id, resolveEndpoint(settings, env)]));
}
