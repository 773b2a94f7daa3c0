/** The build the footer reports (version, commit) and the environment of the site's settings. Server side only. */
import { buildInfo, type BuildInfo } from '@api/build-info.ts';
import type { SiteDeps } from './deps.ts';

export function loadBuildInfo(deps: SiteDeps): BuildInfo {
  return { ...buildInfo(), environment: deps.config.environment };
}
