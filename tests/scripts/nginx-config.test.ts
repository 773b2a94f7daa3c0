/** `npm run nginx-config` prints the configuration of deploy/nginx/trove.conf for the same deployment, and refuses bad options. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

function run(args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/nginx-config.ts', ...args], {
    encoding: 'utf8',
    env: {
      ...process.env,
      DATA_DIR: '/srv/trove/data',
      PUBLIC_URL: 'https://archive.example.org',
      TRUST_PROXY: '1',
      NODE_ENV: 'production',
    },
  });
}

describe('npm run nginx-config', () => {
  it('renders the example deployment of deploy/nginx/trove.conf', () => {
    const result = run(['--upstream', '10.0.0.11:4321', '--upstream', '10.0.0.12:4321', '--client-dir', '/srv/trove/app/dist/client']);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(fs.readFileSync('deploy/nginx/trove.conf', 'utf8'));
  });

  it.each([
    [[], 'Name at least one web node with --upstream.'],
    [['--upstream', 'bad host'], '--upstream must be host:port, not bad host.'],
    [['--upstream', 'a:1', '--listen', '70000'], '--listen must be a port number, not 70000.'],
  ])('refuses %j with a message and status 2', (args, message) => {
    const result = run(args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });
});
