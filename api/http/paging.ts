/**
 * The next page of a cursor-paged API listing (docs/product.md#stable-paging): a `Link: <...>;
 * rel="next"` header beside the unchanged kemono body, the request's own URL with `after` set to the
 * last post's cursor and `o` dropped (a cursor request ignores it).
 */
import type { Request, Response } from 'express';

export function setNextLink(req: Request, res: Response, cursor: string | null): void {
  if (!cursor) return;
  const url = new URL(req.originalUrl, 'http://internal');
  url.searchParams.delete('o');
  url.searchParams.set('after', cursor);
  res.setHeader('Link', `<${url.pathname}${url.search}>; rel="next"`);
}
