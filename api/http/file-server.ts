/** The origin that serves files (`server` in post, attachment and fancard answers; clients fetch {server}/data{path}). */
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config.ts';

/** A host as it may appear in a URL: a name or IPv4 address, or a bracketed IPv6 address, and a port. */
const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,251}[A-Za-z0-9_])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** The first value of a header that may be repeated or a comma-separated list, trimmed; undefined when empty. */
function firstValue(header: string | string[] | undefined): string | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim();
  return value || undefined;
}

function validHost(value: string | undefined): string | undefined {
  return value && HOST.test(value) ? value : undefined;
}

/**
 * This server's origin as the client reached it. With `trustProxy` (TRUST_PROXY=1: a proxy such as a
 * TLS-terminating nginx sits in front and sets these headers) the scheme is X-Forwarded-Proto's and the
 * host X-Forwarded-Host's, else the Host header's; without it the socket gives the scheme (TLS or not)
 * and the Host header the host. Values that are not a scheme or a host are ignored.
 */
export function requestOrigin(req: IncomingMessage, trustProxy: boolean): string {
  const socketScheme = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const forwardedScheme = trustProxy ? firstValue(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const scheme = forwardedScheme === 'http' || forwardedScheme === 'https' ? forwardedScheme : socketScheme;
  const forwardedHost = trustProxy ? validHost(firstValue(req.headers['x-forwarded-host'])) : undefined;
  const host = forwardedHost ?? validHost(firstValue(req.headers.host)) ?? 'localhost';
  return `${scheme}://${host}`;
}

/** IMAGE_HOST when set, else this server's origin as the client reached it (requestOrigin). */
export function fileServer(config: Config, req: IncomingMessage): string {
  if (config.imageHost) return config.imageHost.replace(/\/+$/, '');
  return requestOrigin(req, config.trustProxy);
}
