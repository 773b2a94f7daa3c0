/** A plain HTTP request for tests: status, headers and the whole body, with no client-side decoding. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawAnswer {
  status: number;
  /** The reason phrase of the status line. */
  statusText: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** The request target sent exactly as written, instead of the URL's (which has its dot segments resolved). */
  path?: string;
}

export function httpRequest(url: string, options: RequestOptions = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // An undefined `path` would still replace the URL's, hence only when given.
    const target = options.path === undefined ? {} : { path: options.path };
    const request = http.request(url, { method: options.method ?? 'GET', headers: options.headers, ...target }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          statusText: response.statusMessage ?? '',
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/** Listens on a free loopback port and answers the base URL. */
export async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes a server listen() started, its open connections too. */
export async function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
