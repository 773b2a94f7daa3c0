/**
 * Hash search (/search_hash, docs/product.md#hash-search-page): a chosen file (hashed here, 1 MiB at a time) or a
 * typed SHA-256, kept in the `hash` query parameter. The server renders the search of the page's own
 * URL (`initial`), so the form and its results work without JavaScript (the form sends GET); the island
 * starts from that answer and does not ask again. Back and forward replay earlier searches. The file
 * picker exists only once hydrated: a styled label for a visually hidden input, with the chosen name.
 * A chosen file wins over the typed hash (the hash input is disabled while a file is chosen); picking
 * another file or removing it cancels a running hash.
 */
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import ApiForm from '../forms/ApiForm.tsx';
import HashResults from './HashResults.tsx';
import { useHydrated } from '../shell/useHydrated.ts';
import { describeError } from '@site/client/api-client.ts';
import { sha256OfFile, type HashProgress } from '@site/client/file-hash.ts';
import { fetchHashSearch } from '@site/client/hash-search.ts';
import type { HashSearchFound } from '@shared/shapes/hash-search.ts';
import { hashSearchUrl } from '@shared/urls.ts';
import { firstIssueMessage } from '@shared/validation/rules.ts';
import { sha256Hash } from '@shared/validation/files.ts';

/** What the server made of the page's URL (src/loaders/hash-search.ts). */
export interface HashSearchInitial {
  /** The `hash` parameter as sent; null when absent. */
  query: string | null;
  found: HashSearchFound | null;
  error: string | null;
}

interface Props {
  imageHost: string;
  initial?: HashSearchInitial;
}

const NO_SEARCH: HashSearchInitial = { query: null, found: null, error: null };

/** The hash input's text for a URL: the searched (lowercased) hash, or the parameter as sent. */
const inputText = (state: HashSearchInitial) => state.found?.hash ?? state.query ?? '';

export default function HashSearch({ imageHost, initial = NO_SEARCH }: Props) {
  const hydrated = useHydrated();
  const [hashText, setHashText] = useState(() => inputText(initial));
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<HashProgress | null>(null);
  const [found, setFound] = useState<HashSearchFound | null>(initial.found);
  const [loading, setLoading] = useState(false);
  const [urlErrors, setUrlErrors] = useState<string[]>(initial.error ? [initial.error] : []);
  // The server's answer for the page's own URL, reused when back or forward returns to it.
  const served = useRef(initial);
  const fileInput = useRef<HTMLInputElement>(null);
  const hashing = useRef<AbortController | null>(null);
  // Only the latest search may show its answer (an older, slower one must not overwrite it).
  const latest = useRef(0);

  async function search(hash: string): Promise<void> {
    const ticket = ++latest.current;
    setFound(null);
    const answer = await fetchHashSearch(hash);
    if (ticket === latest.current) setFound({ hash, answer });
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, on mount; search() reads only refs and state setters
  useEffect(() => {
    function searchFromUrl() {
      const raw = new URLSearchParams(window.location.search).get('hash');
      latest.current++;
      setLoading(false);
      if (raw === served.current.query) {
        setFound(served.current.found);
        setUrlErrors(served.current.error ? [served.current.error] : []);
        setHashText(inputText(served.current));
        return;
      }
      setFound(null);
      setUrlErrors([]);
      setHashText(raw ?? '');
      if (raw === null) return;
      const parsed = sha256Hash.safeParse(raw);
      if (!parsed.success) {
        setUrlErrors([firstIssueMessage(parsed.error)]);
        return;
      }
      setLoading(true);
      search(parsed.data)
        .catch((error) => setUrlErrors([describeError(error)]))
        .finally(() => setLoading(false));
    }
    // The server rendered this URL's search: only a URL it did not see (another entry) is searched here.
    if (new URLSearchParams(window.location.search).get('hash') !== served.current.query) searchFromUrl();
    window.addEventListener('popstate', searchFromUrl);
    return () => window.removeEventListener('popstate', searchFromUrl);
  }, []);

  function cancelHashing() {
    hashing.current?.abort();
    hashing.current = null;
    setProgress(null);
  }

  function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    cancelHashing();
    setFile(event.currentTarget.files?.[0] ?? null);
  }

  function removeFile() {
    cancelHashing();
    setFile(null);
    if (fileInput.current) fileInput.current.value = '';
    fileInput.current?.focus();
  }

  async function hashOfFile(chosen: File): Promise<string | undefined> {
    cancelHashing();
    const controller = new AbortController();
    hashing.current = controller;
    try {
      return await sha256OfFile(chosen, { signal: controller.signal, onProgress: setProgress });
    } catch (error) {
      if (controller.signal.aborted) return undefined;
      throw error;
    } finally {
      if (hashing.current === controller) hashing.current = null;
    }
  }

  async function submit(data: FormData): Promise<readonly string[] | undefined> {
    setUrlErrors([]);
    let hash: string;
    if (file) {
      const computed = await hashOfFile(file);
      if (computed === undefined) return;
      hash = computed;
    } else {
      const parsed = sha256Hash.safeParse(data.get('hash'));
      if (!parsed.success) {
        latest.current++;
        setFound(null);
        return [firstIssueMessage(parsed.error)];
      }
      hash = parsed.data;
    }
    setHashText(hash);
    if (new URLSearchParams(window.location.search).get('hash') !== hash) {
      window.history.pushState(null, '', hashSearchUrl(hash));
    }
    await search(hash);
  }

  return (
    <div className="hash-search">
      <ApiForm
        id="hash-search-form"
        className="hash-search__form"
        aria-label="Hash search"
        action="/search_hash"
        method="get"
        loading={loading}
        errors={urlErrors}
        onSubmit={submit}
      >
        {hydrated && (
          <div className="form-field">
            <span className="hash-search__file-label">File</span>
            <div className="hash-search__file-row">
              {/* Visually hidden but focusable; the label after it is the visible button. No name:
                  the file never leaves the browser, even if the form were sent natively. */}
              <input
                id="hash-search-file"
                className="hash-search__file-input visually-hidden"
                ref={fileInput}
                type="file"
                aria-describedby="hash-search-file-name"
                onChange={chooseFile}
              />
              <label htmlFor="hash-search-file" className="button hash-search__file-button">
                Choose file
              </label>
              <span id="hash-search-file-name" className="hash-search__file-name">
                {file ? file.name : 'No file chosen'}
              </span>
              {file && (
                <button type="button" className="button" onClick={removeFile}>
                  Remove file
                </button>
              )}
            </div>
          </div>
        )}
        <div className="form-field">
          <label htmlFor="hash-search-hash">{hydrated ? 'Or SHA-256 hash' : 'SHA-256 hash'}</label>
          <input
            id="hash-search-hash"
            name="hash"
            type="text"
            autoComplete="off"
            spellCheck={false}
            placeholder="64 hexadecimal characters"
            aria-describedby="hash-search-hash-hint"
            value={hashText}
            disabled={!!file}
            onChange={(event) => setHashText(event.currentTarget.value)}
          />
          <small id="hash-search-hash-hint" className="muted">
            {file
              ? 'The chosen file is hashed in your browser and used instead.'
              : hydrated
                ? 'Used when no file is chosen.'
                : 'Choosing a file needs JavaScript; paste its hash here.'}
          </small>
        </div>
        {progress && (
          <div className="hash-search__progress">
            <label htmlFor="hash-search-progress">
              {progress.percent < 100 ? 'Hashing' : 'Hashed'} {file?.name ?? 'file'}
            </label>
            <progress
              id="hash-search-progress"
              max={100}
              value={progress.percent}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress.percent}
              aria-valuetext={`${progress.percent}%`}
            />
            <span className="hash-search__percent">{progress.percent}%</span>
          </div>
        )}
      </ApiForm>
      {found && <HashResults hash={found.hash} answer={found.answer} imageHost={imageHost} />}
    </div>
  );
}
