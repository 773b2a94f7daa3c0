/** The error details of the generic error page: where the error came from by status, and the request's facts. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import ErrorDetails, { errorOrigin } from '@site/islands/shell/ErrorDetails.tsx';

const origin = (status?: number) => {
  const html = renderToStaticMarkup(<ErrorDetails error={{ status, method: 'get', url: '/api/v1/x' }} page="/posts" />);
  return /<p class="error-details__origin">(.*?)<\/p>/
    .exec(html)![1]
    .replace(/<[^>]+>/g, '')
    .replace(/&#x27;/g, "'");
};

describe('ErrorDetails', () => {
  it("says 4xx came from the client's request and 5xx from the server; a 503 needs no report", () => {
    for (const status of [400, 401, 403, 404, 409, 422, 429]) expect(origin(status)).toMatch(/^The error came from the client's request: /);
    expect(origin(500)).toMatch(/^The error came from the server\. If it keeps happening, please report it/);
    expect(origin(502)).toMatch(/^The error came from the server\./);
    expect(origin(503)).toMatch(
      /^The error came from the server: it is in maintenance or not available right now\. There is no need to report it/,
    );
    expect(origin(undefined)).toMatch(/^The error came from the client: the request did not reach the server/);
    expect([400, 404, 500, 503, 0].map(errorOrigin)).toEqual(['client', 'client', 'server', 'maintenance', 'network']);
  });

  it('lists the page, status, method and URL', () => {
    const html = renderToStaticMarkup(
      <ErrorDetails
        error={{ status: 400, method: 'get', url: '/posts?o=13', message: 'Offset 13 is not a multiple of 50.' }}
        page="/posts?o=13"
      />,
    );
    expect(html).toContain(
      '<dl><dt>Page</dt><dd>/posts?o=13</dd><dt>Status</dt><dd>400</dd><dt>Method</dt><dd>GET</dd><dt>URL</dt><dd>/posts?o=13</dd>' +
        '<dt>Message</dt><dd>Offset 13 is not a multiple of 50.</dd></dl>',
    );
  });
});
