/**
 * Details of an API or route error for the generic error page (docs/product.md#error-pages): where the error
 * came from (server or client; a 503 needs no report), the page, status, method and URL.
 *
 * Usable as an island (`<ErrorDetails client:load error={...} />`), inside other islands, or rendered
 * statically from Astro (src/components/ErrorView.astro) with `page` given.
 */
import { Fragment } from 'react';
import { useHydrated } from './useHydrated';

export interface ShellError {
  /** HTTP status of the failed request; 0 or absent when no answer arrived (network failure). */
  status?: number;
  /** HTTP method of the failed request. */
  method?: string;
  /** URL of the failed request (API path or page path). */
  url?: string;
  /** Human-readable message (e.g. one of docs/product.md#api-client-errors). */
  message?: string;
  /** Which server answered, when known, e.g. 'API' or 'page renderer' (shown as a detail row). */
  serverType?: string;
}

export type ErrorOrigin = 'maintenance' | 'server' | 'client' | 'network';

/** Classifies an error by its status. */
export function errorOrigin(status: number | undefined): ErrorOrigin {
  if (!status) return 'network';
  if (status === 503) return 'maintenance';
  if (status >= 500) return 'server';
  return 'client';
}

interface Props {
  error: ShellError;
  /** The page the error happened on; defaults to the browser's current path once hydrated. */
  page?: string;
}

function OriginText({ origin, status }: { origin: ErrorOrigin; status?: number }) {
  switch (origin) {
    case 'maintenance':
      return (
        <>
          The error came from the server: it is in maintenance or not available right now. There is no need to report it; please try again
          later.
        </>
      );
    case 'server':
      return (
        <>
          The error came from the server. If it keeps happening, please report it through the <a href="/contact">contact page</a> with the
          details below.
        </>
      );
    case 'network':
      return (
        <>
          The error came from the client: the request did not reach the server (network problem, browser extension or browser settings).
          Check your connection and try again.
        </>
      );
    default:
      if (status === 401) return <>The error came from the client's request: this page needs you to be logged in.</>;
      if (status === 403) return <>The error came from the client's request: your account may not open this page.</>;
      if (status === 404) {
        return (
          <>
            The error came from the client's request: there is nothing at this address. Check the address; if a link on this site led here,
            report it through the <a href="/contact">contact page</a> with the details below.
          </>
        );
      }
      return (
        <>
          The error came from the client's request: the server did not accept it. Check the address or the values you entered; if you
          believe they are right, report it through the <a href="/contact">contact page</a> with the details below.
        </>
      );
  }
}

export default function ErrorDetails({ error, page }: Props) {
  const hydrated = useHydrated();
  const shownPage = page ?? (hydrated ? window.location.pathname + window.location.search : '');
  const origin = errorOrigin(error.status);
  const rows: [string, string][] = [
    ['Page', shownPage || '-'],
    ['Status', error.status ? String(error.status) : 'no answer'],
    ['Method', error.method?.toUpperCase() || '-'],
    ['URL', error.url || '-'],
  ];
  if (error.serverType) rows.push(['Server', error.serverType]);
  if (error.message) rows.push(['Message', error.message]);

  return (
    <section className="error-details" aria-label="Error details" data-origin={origin}>
      <h2>Error details</h2>
      <p className="error-details__origin">
        <OriginText origin={origin} status={error.status} />
      </p>
      <dl>
        {rows.map(([label, value]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}
