/**
 * The upload form (/posts/upload): asks the server for the limits first (a 401 there means the visitor
 * must sign in: the form is replaced by the spec's message), checks the chosen files against them,
 * then sends fields and files with upload progress and opens the new share's page.
 */
import { useEffect, useId, useState } from 'react';
import { flushSync } from 'react-dom';
import ApiForm from '../forms/ApiForm.tsx';
import { ApiError, api, describeError } from '@site/client/api-client.ts';
import { apiPaths, apiUrl } from '@shared/api-paths.ts';
import { PAYSITES } from '@shared/paysites/index.ts';
import { checkUploadFiles, formatBytes } from '@shared/upload-limits.ts';
import { loginUrl, shareUrl } from '@shared/urls.ts';
import { postWithProgress } from './upload-request.ts';
import PaysiteOptions from '../forms/PaysiteOptions.tsx';

export interface UploadFormProps {
  service?: string;
  user?: string;
}

interface ServerLimits {
  max_file_bytes: number;
  max_files: number;
  max_total_bytes: number;
  name_max: number;
  description_max: number;
}

export const MUST_REGISTER = 'You must be registered to access this page.';

export default function UploadForm({ service = '', user = '' }: UploadFormProps) {
  const id = useId();
  const [limits, setLimits] = useState<ServerLimits | null>(null);
  const [guest, setGuest] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);

  useEffect(() => {
    let live = true;
    api.v1
      .get<ServerLimits>(apiPaths.sharesUpload(), { cache: false })
      .then((answer) => live && setLimits(answer))
      .catch((error) => {
        if (!live) return;
        if (error instanceof ApiError && error.status === 401) setGuest(true);
        else setLoadError(describeError(error));
      });
    return () => {
      live = false;
    };
  }, []);

  if (guest) {
    const login = loginUrl(globalThis.location?.pathname + globalThis.location?.search);
    return (
      <div className="upload-guest">
        <p className="error" role="alert">
          {MUST_REGISTER}
        </p>
        <p>
          <a href={login}>Login</a> or <a href="/authentication/register">Register</a>
        </p>
      </div>
    );
  }

  async function submit(data: FormData, form: HTMLFormElement) {
    if (!limits) return;
    const input = form.elements.namedItem('file') as HTMLInputElement;
    const files = Array.from(input.files ?? []);
    const problem = checkUploadFiles(files, {
      maxFileBytes: limits.max_file_bytes,
      maxFiles: limits.max_files,
      maxTotalBytes: limits.max_total_bytes,
    });
    if (problem) return [problem];
    // Fields first: the server checks them before it stores any file.
    const body = new FormData();
    for (const field of ['service', 'user', 'name', 'description']) body.append(field, String(data.get(field) ?? ''));
    for (const file of files) body.append('file', file, file.name);
    setProgress(0);
    try {
      const answer = await postWithProgress<{ share_id: number }>(apiUrl(apiPaths.sharesUpload()), body, ({ loaded, total }) =>
        setProgress(total > 0 ? Math.round((loaded / total) * 100) : 0),
      );
      // Committed before leaving, so the visitor sees 100% even when no progress event came in time.
      flushSync(() => setProgress(100));
      globalThis.location.assign(shareUrl(answer.share_id));
    } catch (error) {
      setProgress(null);
      if (error instanceof ApiError && error.status === 401) setGuest(true);
      throw error;
    }
  }

  return (
    <ApiForm
      id={`${id}upload`}
      className="upload-form"
      onSubmit={submit}
      loading={!limits && !loadError}
      errors={loadError ? [loadError] : []}
      submitDisabled={!limits}
      submitLabel="Upload"
      aria-label="Upload files"
    >
      <div className="upload-form__creator">
        <div className="form-field">
          <label htmlFor={`${id}service`}>Service</label>
          <select id={`${id}service`} name="service" defaultValue={service || PAYSITES[0]} required>
            <PaysiteOptions />
          </select>
        </div>
        <div className="form-field">
          <label htmlFor={`${id}user`}>Creator ID</label>
          <input id={`${id}user`} name="user" defaultValue={user} required autoComplete="off" />
        </div>
      </div>
      <div className="form-field">
        <label htmlFor={`${id}name`}>Name</label>
        <input id={`${id}name`} name="name" required maxLength={limits?.name_max} autoComplete="off" />
      </div>
      <div className="form-field">
        <label htmlFor={`${id}description`}>Description (optional)</label>
        <textarea id={`${id}description`} name="description" rows={4} maxLength={limits?.description_max} />
      </div>
      <div className="form-field">
        <label htmlFor={`${id}file`}>Files</label>
        <input id={`${id}file`} name="file" type="file" multiple required aria-describedby={`${id}limits`} />
        <p className="muted upload-form__limits" id={`${id}limits`}>
          {limits
            ? `Up to ${limits.max_files} files, ${formatBytes(limits.max_file_bytes)} each, ${formatBytes(limits.max_total_bytes)} in total.`
            : '\u00a0'}
        </p>
      </div>
      {progress !== null && (
        <div className="upload-progress">
          <label htmlFor={`${id}progress`}>Upload progress</label>
          <progress id={`${id}progress`} max={100} value={progress}>
            {progress}%
          </progress>
          <span className="upload-progress__value" aria-live="polite">
            {progress}%
          </span>
        </div>
      )}
    </ApiForm>
  );
}
