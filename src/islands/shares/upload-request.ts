/**
 * Sends a FormData upload with XMLHttpRequest, the one browser API that reports upload progress
 * (fetch does not). Failures become the api-client's ApiError with the same section 8 messages, so the
 * form shows them as every other form does (describeError: the server's own message when it sent one).
 */
import { API_ERROR_MESSAGES, ApiError, messageForStatus } from '@site/client/api-client.ts';
import { clearLoginState } from '@site/client/stores/session.ts';
import { parseJsonText } from '@shared/parse.ts';

export interface UploadProgress {
  loaded: number;
  total: number;
}

function parseBody(xhr: XMLHttpRequest): unknown {
  const text = xhr.responseText;
  if (!text) return undefined;
  const parsed = parseJsonText(text);
  return parsed ? parsed.value : text;
}

/** POSTs `form` to `url` (same origin); resolves with the JSON answer, rejects with an ApiError. */
export function postWithProgress<T>(url: string, form: FormData, onProgress: (progress: UploadProgress) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress({ loaded: event.loaded, total: event.total });
    });
    // The whole body is sent: 100% even when the browser reported no intermediate progress.
    xhr.upload.addEventListener('load', () => onProgress({ loaded: 1, total: 1 }));
    const networkError = () =>
      reject(new ApiError(API_ERROR_MESSAGES.network, { status: 0, statusText: '', method: 'POST', url, version: 1 }));
    xhr.addEventListener('error', networkError);
    xhr.addEventListener('abort', networkError);
    xhr.addEventListener('load', () => {
      const body = parseBody(xhr);
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body as T);
        return;
      }
      if (xhr.status === 401) clearLoginState();
      const serverMessage =
        body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string'
          ? (body as { error: string }).error
          : undefined;
      reject(
        new ApiError(messageForStatus(xhr.status, xhr.statusText, url, body), {
          status: xhr.status,
          statusText: xhr.statusText,
          method: 'POST',
          url,
          version: 1,
          body,
          serverMessage,
        }),
      );
    });
    xhr.send(form);
  });
}
