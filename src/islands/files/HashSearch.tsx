/**
 * Hash search (/search_hash, SPEC.md section 2): a chosen file (hashed here, 1 MiB at a time) or a
 * typed SHA-256, kept in the `hash` query parameter. Opening the page with ?hash= searches at once;
 * back and forward replay earlier searches. A chosen file wins over the typed hash (the hash input is
 * disabled while a file is chosen); picking another file or removing it cancels a running hash.
 */
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import ApiForm from '../forms/ApiForm.tsx';
import HashResults from './HashResults.tsx';
import { describeError } from '../../lib/api-client.ts';
import { sha256OfFile, type HashProgress } from '../../lib/file-hash.ts';
import { fetchHashSearch, type HashSearchAnswer } from '../../lib/hash-search.ts';
import { hashSearchUrl } from '../../lib/urls.ts';
import { firstIssueMessage, sha256Hash } from '../../lib/validators.ts';

interface Props {
  imageHost: string;
  /** The `hash` parameter of the request, so the server's HTML already shows it. */
  initialHash?: string;
}

interface Found {
  hash: string;
  answer: HashSearchAnswer | null;
}

export default function HashSearch({ imageHost, initialHash = '' }: Props) {
  const [hashText, setHashText] = useState(initialHash);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<HashProgress | null>(null);
  const [found, setFound] = useState<Found | null>(null);
  const [loading, setLoading] = useState(false);
  const [urlErrors, setUrlErrors] = useState<string[]>([]);
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

  useEffect(() => {
    function searchFromUrl() {
      const raw = new URLSearchParams(window.location.search).get('hash');
      latest.current++;
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
    searchFromUrl();
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

  async function submit(data: FormData): Promise<readonly string[] | void> {
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
        <div className="form-field">
          <label htmlFor="hash-search-file">File</label>
          <div className="hash-search__file-row">
            <input id="hash-search-file" ref={fileInput} type="file" name="file" onChange={chooseFile} />
            {file && (
              <button type="button" className="button" onClick={removeFile}>
                Remove file
              </button>
            )}
          </div>
        </div>
        <div className="form-field">
          <label htmlFor="hash-search-hash">Or SHA-256 hash</label>
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
            {file ? 'The chosen file is hashed in your browser and used instead.' : 'Used when no file is chosen.'}
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
