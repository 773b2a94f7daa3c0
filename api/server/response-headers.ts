/**
 * Headers the front server sends, shared with the nginx configuration (api/cluster/nginx.ts) that sends
 * stored pages and built files in its place, so that both answer alike.
 */

/** Files whose name changes with their bytes (built assets, content-addressed files). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Pages and other files whose bytes change under the same URL: kept, but checked every time. */
export const REVALIDATE = 'public, max-age=0, must-revalidate';

/** Sent with every answer; pages add their Content-Security-Policy, https answers Strict-Transport-Security (csp.ts). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'SAMEORIGIN',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/**
 * Set by nginx in front (api/cluster/nginx.ts) to the internal location that serves the file store: a
 * stored file's answer then names the file there (X-Accel-Redirect) rather than carrying the bytes. A
 * client talking to a node directly and sending it only gets an empty answer itself.
 */
export const ACCEL_FILES_HEADER = 'x-trove-accel-files';
