/**
 * The route an answer is counted under in the metrics (trove_http_requests_total{route}): a route's
 * declared template ('/api/v1/{service}/user/{id}/posts') or one of a few fixed names, never a raw path,
 * so the number of series stays bounded. Set by whoever answers (the API's handlers, the front server),
 * read by the front server when the answer is finished.
 */
import type { ServerResponse } from 'node:http';

const labels = new WeakMap<ServerResponse, string>();

export function labelRoute(res: ServerResponse, route: string): void {
  labels.set(res, route);
}

export function routeLabelOf(res: ServerResponse): string | undefined {
  return labels.get(res);
}
