/**
 * Export and import of favourites on the favourites pages (docs/product.md#export-and-import-of-favourites).
 * Accounts download the API's export and send a file's text to the import route; guests export and import
 * the device list here (an import keeps only what the archive has). A file over the size limit is refused
 * before it is read; the report (added, already there, not in the archive) stays on the page.
 */
import { useId, useState, type DragEvent } from 'react';
import { stringify } from 'csv-stringify/browser/esm/sync';
import { api, describeError } from '@site/client/api-client.ts';
import { apiPaths, apiUrl } from '@shared/api-paths.ts';
import {
  FAVORITES_IMPORT_MAX_BYTES,
  FAVORITES_TRANSFER_MESSAGES,
  favoritesCsvRecords,
  favoritesExportName,
  type FavoritesImportReport,
} from '@shared/favorites-transfer.ts';
import { readDeviceFavorites } from '@site/client/device-favorites.ts';
import { importIntoDevice } from '@site/client/device-favorites-lookup.ts';
import { publishDeviceFavorites, reloadFavorites } from '@site/client/stores/favorites.ts';

type Status = { kind: 'busy' } | { kind: 'error'; message: string } | { kind: 'done'; file: string; report: FavoritesImportReport };

function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The device list as the account export's file: newest favourite first. */
function exportDevice(format: 'json' | 'csv'): void {
  const { creators, posts } = readDeviceFavorites();
  const artists = [...creators].sort((a, b) => b.faved_seq - a.faved_seq);
  const sortedPosts = [...posts].sort((a, b) => b.faved_seq - a.faved_seq);
  const name = favoritesExportName(format);
  if (format === 'json') download(name, 'application/json', `${JSON.stringify({ artists, posts: sortedPosts }, null, 2)}\n`);
  else download(name, 'text/csv', stringify(favoritesCsvRecords(artists, sortedPosts)));
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function Report({ file, report }: { file: string; report: FavoritesImportReport }) {
  return (
    <div className="favorites-transfer__report">
      <p>
        {file}: added {plural(report.added.artists, 'creator')} and {plural(report.added.posts, 'post')}
        {report.unchanged > 0 && `; ${report.unchanged} already were favourites`}
        {report.skipped > 0 && `; ${plural(report.skipped, 'entry')} could not be read`}.
      </p>
      {report.not_found.length > 0 && (
        <details open={report.not_found.length <= 10}>
          <summary>Not in this archive: {report.not_found.length}</summary>
          <ul className="favorites-transfer__missing">
            {report.not_found.map((key) => (
              <li key={key}>
                <code>{key}</code>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

export default function FavoritesTransfer({ guest }: { guest: boolean }) {
  const id = useId();
  const [status, setStatus] = useState<Status | undefined>(undefined);
  const [dragging, setDragging] = useState(false);

  async function importFile(file: File | undefined) {
    if (!file || status?.kind === 'busy') return;
    if (file.size > FAVORITES_IMPORT_MAX_BYTES) return setStatus({ kind: 'error', message: FAVORITES_TRANSFER_MESSAGES.tooLarge });
    setStatus({ kind: 'busy' });
    try {
      const text = await file.text();
      const report = guest ? await importIntoDevice(text) : await api.v1.post<FavoritesImportReport>(apiPaths.favoritesImport(), { text });
      if (typeof report === 'string') return setStatus({ kind: 'error', message: report });
      setStatus({ kind: 'done', file: file.name, report });
      if (guest) publishDeviceFavorites();
      else await reloadFavorites();
    } catch (error) {
      setStatus({ kind: 'error', message: describeError(error) });
    }
  }

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    void importFile(event.dataTransfer.files[0]);
  };
  const exportHref = (format: 'json' | 'csv') => `${apiUrl(apiPaths.favoritesExport())}?format=${format}`;

  return (
    <section className="favorites-transfer" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Export and import</h2>
      <div className="favorites-transfer__row">
        {(['json', 'csv'] as const).map((format) =>
          guest ? (
            <button key={format} type="button" className="button" onClick={() => exportDevice(format)}>
              Export {format.toUpperCase()}
            </button>
          ) : (
            <a key={format} className="button" href={exportHref(format)} download>
              Export {format.toUpperCase()}
            </a>
          ),
        )}
      </div>
      <label
        className={`favorites-transfer__drop${dragging ? ' favorites-transfer__drop--over' : ''}`}
        htmlFor={`${id}-file`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        Import a favourites file (JSON or CSV, from here or from kemono, at most {FAVORITES_IMPORT_MAX_BYTES / 1024} KB): choose it or drop
        it here.
        <input
          id={`${id}-file`}
          type="file"
          accept=".json,.csv,application/json,text/csv"
          disabled={status?.kind === 'busy'}
          onChange={(event) => {
            void importFile(event.currentTarget.files?.[0]);
            event.currentTarget.value = '';
          }}
        />
      </label>
      <div role="status" aria-live="polite">
        {status?.kind === 'busy' && <p>Importing...</p>}
        {status?.kind === 'done' && <Report file={status.file} report={status.report} />}
      </div>
      {status?.kind === 'error' && (
        <p className="error" role="alert">
          {status.message}
        </p>
      )}
    </section>
  );
}
