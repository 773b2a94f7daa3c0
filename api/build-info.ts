/** What the footer and GET /api/v1/app_version report about the running build. Server side only. */
import { spawnSync } from 'node:child_process';
import pkg from '../package.json' with { type: 'json' };

export interface BuildInfo {
  version: string;
  commit: string;
  environment: string;
}

let cachedCommit: string | undefined;

function commitId(): string {
  if (cachedCommit) return cachedCommit;
  const fromEnv = process.env.TROVE_COMMIT?.trim();
  if (fromEnv) return (cachedCommit = fromEnv);
  // Without git, or outside a checkout, the commit is unknown.
  const git = spawnSync('git', ['rev-parse', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] });
  cachedCommit = git.status === 0 ? git.stdout.toString().trim() || 'unknown' : 'unknown';
  return cachedCommit;
}

export function buildInfo(): BuildInfo {
  return {
    version: pkg.version,
    commit: commitId(),
    environment: process.env.TROVE_ENV || process.env.NODE_ENV || 'development',
  };
}
