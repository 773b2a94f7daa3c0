/**
 * The Astro SSR handler (@astrojs/node, middleware mode) loaded from dist/server, and a renderer that
 * asks it for a page over a private loopback socket, so the page store and `scripts/rebuild` get exactly
 * the bytes a visitor would.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export type SsrHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

export async function loadSsrHandler(distDir: string): Promise<SsrHandler> {
  const entry = path.join(distDir, 'server', 'entry.mjs');
  if (!fs.existsSync(entry)) throw new Error(`No SSR build at ${entry}: run \`npm run build\` first.`);
  const module = (await import(pathToFileURL(entry).href)) as { handler: SsrHandler };
  return module.handler;
}

export interface RenderedPage {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface PageRenderer {
  render(key: string): Promise<RenderedPage>;
  close(): Promise<void>;
}

export async function createPageRenderer(handler: SsrHandler, options: { host?: string } = {}): Promise<PageRenderer> {
  const socketPath = path.join(os.tmpdir(), `trove-ssr-${process.pid}-${Math.random().toString(36).slice(2, 8)}.sock`);
  const server = http.createServer((req, res) => handler(req, res));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const host = options.host ?? 'localhost';

  return {
    render(key) {
      return new Promise((resolve, reject) => {
        const request = http.request(
          { socketPath, path: key, method: 'GET', agent, headers: { host, 'accept-encoding': 'identity' } },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => resolve({ status: response.statusCode ?? 500, headers: response.headers, body: Buffer.concat(chunks) }));
            response.on('error', reject);
          },
        );
        request.on('error', reject);
        request.end();
      });
    },
    async close() {
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(socketPath, { force: true });
    },
  };
}
