import { firstIssueMessage } from '@shared/validation/rules.ts';
import { offset } from '@shared/validation/params.ts';

/** What a page loader decides: render with data, redirect, or fail with the spec's message. */
export type PageOutcome<T> =
  | { kind: 'ok'; data: T }
  | { kind: 'redirect'; location: string; status: 301 | 302 | 303 | 307 }
  | { kind: 'not-found' }
  | { kind: 'gone'; message: string }
  | { kind: 'bad-request'; message: string }
  | { kind: 'denied'; status: 401 | 403; message: string };

export const notFound = { kind: 'not-found' } as const;
/** Removed at its owner's request while its do-not-post entry stands: 410 with the message (GONE_MESSAGES). */
export const gone = (message: string) => ({ kind: 'gone', message }) as const;
export const badRequest = (message: string) => ({ kind: 'bad-request', message }) as const;
export const redirect = (location: string, status: 301 | 302 | 303 | 307 = 302) => ({ kind: 'redirect', location, status }) as const;
export const denied = (status: 401 | 403, message: string) => ({ kind: 'denied', status, message }) as const;
export const ok = <T>(data: T) => ({ kind: 'ok', data }) as const;

/** Reads `o` with the one offset rule (shared/validation/params.ts): absent is 0, else a multiple of 50. */
export function readOffset(raw: string | null): { offset: number } | { error: string } {
  const result = offset.safeParse(raw ?? undefined);
  return result.success ? { offset: result.data } : { error: firstIssueMessage(result.error) };
}
