/**
 * `npm run nginx-config -- --upstream 10.0.0.11:4321 --upstream 10.0.0.12:4321 [--listen 80]
 * [--client-dir dist/client]`: prints the nginx configuration for this deployment (the http-level part,
 * for /etc/nginx/conf.d/trove.conf; deploy/nginx/README.md), rendered from the same environment the web
 * nodes run with (DATA_DIR, PUBLIC_URL, IMAGE_HOST, ICONS_PATH, BANNERS_PATH, DISCORD_CONTENT_HOST).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { renderSiteConfig } from '../api/cluster/nginx.ts';
import { config } from '../api/config.ts';
import { CLIENT_DIR } from './lib/site.ts';

const USAGE = 'Usage: npm run nginx-config -- --upstream <host:port> [--upstream <host:port>...] [--listen 80] [--client-dir dist/client]';

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function options() {
  try {
    return parseArgs({
      options: {
        upstream: { type: 'string', multiple: true, default: [] },
        listen: { type: 'string', default: '80' },
        'client-dir': { type: 'string', default: CLIENT_DIR },
      },
    }).values;
  } catch (error) {
    fail((error as Error).message);
  }
}

const values = options();
if (values.upstream.length === 0) fail('Name at least one web node with --upstream.');
for (const upstream of values.upstream) {
  if (!/^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(upstream)) fail(`--upstream must be host:port, not ${upstream}.`);
}
const listenPort = Number(values.listen);
if (!Number.isInteger(listenPort) || listenPort < 1 || listenPort > 65535) fail(`--listen must be a port number, not ${values.listen}.`);

const settings = config();
process.stdout.write(
  renderSiteConfig({
    listenHost: '0.0.0.0',
    listenPort,
    upstreams: values.upstream,
    dataDir: settings.dataDir,
    clientDir: path.resolve(values['client-dir']),
    // Not used by the http-level part (it has no pid or temp folders of its own).
    runDir: '/run/nginx',
    config: settings,
  }),
);
