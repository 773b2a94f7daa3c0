/** What a page loader decides: render with data, redirect, or fail with the spec's message. */
export type PageOutcome<T> =
  | { kind: 'ok'; data: T }
  | { kind: 'redirect'; location: string; status: 301 | 302 | 303 | 307 }
  | { kind: 'not-found' }
  | { kind: 'bad-request'; message: string };

export const notFound = { kind: 'not-found' } as const;
export const badRequest = (message: string) => ({ kind: 'bad-request', message }) as const;
export const redirect = (location: string, status: 301 | 302 | 303 | 307 = 302) => ({ kind: 'redirect', location, status }) as const;
export const ok = <T>(data: T) => ({ kind: 'ok', data }) as const;

/** Reads `o` the way every listing does: absent is 0, otherwise a non-negative multiple of 50. */
export function readOffset(raw: string | null, pageSize: number): { offset: number } | { error: string } {
  if (raw === null || raw === '') return { offset: 0 };
  if (!/^\d+$/.test(raw)) return { error: `Offset ${raw} is not a multiple of ${pageSize}.` };
  const offset = Number(raw);
  if (offset % pageSize !== 0) return { error: `Offset ${raw} is not a multiple of ${pageSize}.` };
  return { offset };
}
