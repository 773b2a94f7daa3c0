/**
 * The import status view (docs/product.md#import-status-page): rendered by the server with the import's
 * current state, then polled every IMPORT_POLL_MS until it has a finish time or is gone. Minimize and
 * Newest first are toggle buttons (aria-pressed) whose labels stay the same in both states.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { ApiError, api } from '@site/client/api-client.ts';
import { apiPaths } from '@shared/api-paths.ts';
import { IMPORT_POLL_MS } from '@shared/constants.ts';
import { formatDateTime } from '@shared/format.ts';
import { importStatusLabel } from '@shared/import-state.ts';
import { paysiteLabel } from '@shared/paysites/index.ts';
import type { ImportView } from '@site/loaders/importer.ts';

export const NOT_FOUND = 'Your import could not be found.';

interface Props {
  importId: string;
  initial: { view: ImportView; logs: string[] } | null;
}

const when = (value: string | null) => (value ? <time dateTime={value}>{formatDateTime(value)}</time> : '—');

export default function ImportStatus({ importId, initial }: Props) {
  const [state, setState] = useState(initial);
  const [newestFirst, setNewestFirst] = useState(true);
  const [minimized, setMinimized] = useState(false);
  const done = !state || !!state.view.finished_at;

  useEffect(() => {
    if (done) return;
    let stopped = false;
    const timer = setInterval(async () => {
      try {
        // One call: the import carries its log lines.
        const { logs, ...view } = await api.v1.get<ImportView & { logs: string[] }>(apiPaths.importStatus(importId), { cache: false });
        if (!stopped) setState({ view, logs });
      } catch (error) {
        if (!stopped && error instanceof ApiError && error.status === 404) setState(null);
      }
    }, IMPORT_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [importId, done]);

  if (!state) return <p className="import-missing error">{NOT_FOUND}</p>;
  const { view, logs } = state;
  const rows: [string, ReactNode][] = [
    // Finished, Failed (key refused or gave up), Cancelled or In Progress.
    ['Status', importStatusLabel(view)],
    ['Service', paysiteLabel(view.service)],
    ['Priority', view.priority],
    ['Subscriptions', view.sub_count ?? '—'],
    ['Save DMs', view.save_dms ? 'Yes' : 'No'],
    ['Submitted at', when(view.created_at)],
    ['First tried at', when(view.first_started_at)],
    ...(view.retry_count > 0 ? ([['Retries', view.retry_count]] as [string, ReactNode][]) : []),
    ['Started at', when(view.current_try_started_at)],
    ['Resuming at', when(view.resuming_at)],
    ['Finished at', when(view.finished_at)],
    ['Key failed at', when(view.key_failed_at)],
    ...(view.cancelled_at ? ([['Cancelled at', when(view.cancelled_at)]] as [string, ReactNode][]) : []),
  ];
  const shownLogs = newestFirst ? [...logs].reverse() : logs;

  return (
    <div className="import-status">
      <div className="import-status__bar">
        <button
          type="button"
          className="button import-status__toggle"
          aria-pressed={minimized}
          aria-controls="import-status-table"
          onClick={() => setMinimized((m) => !m)}
        >
          Minimize
        </button>
      </div>
      <table className="import-status__table" id="import-status-table" hidden={minimized}>
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td data-field={label}>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {view.save_dms && (
        <p className="import-status__notice">
          DMs are not published automatically: once the log says 'Done importing DMs', approve them on{' '}
          <a href="/account/review_dms">Review DMs</a>.
        </p>
      )}
      <section className="import-log" aria-labelledby="import-log-title">
        <div className="import-log__head">
          <h2 id="import-log-title">Log</h2>
          <button
            type="button"
            className="button import-status__toggle"
            aria-pressed={newestFirst}
            aria-controls="import-log-lines"
            onClick={() => setNewestFirst((n) => !n)}
          >
            Newest first
          </button>
        </div>
        <ol className="import-log__lines" id="import-log-lines" reversed={newestFirst}>
          {shownLogs.map((line, index) => (
            <li key={`${newestFirst ? logs.length - index : index}`}>{line}</li>
          ))}
        </ol>
      </section>
    </div>
  );
}
