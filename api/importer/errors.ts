/** What an importer throws to tell the worker how an import ends (api/importer/worker.ts). */

/** The paysite failed in a way worth retrying later (5xx, timeout, 429): the worker backs off. */
export class TransientError extends Error {
  override name = 'TransientError';
  /** The paysite's Retry-After, when it sent one. */
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** The paysite refused the session key (expired, revoked): the import fails and a kept key is marked dead. */
export class KeyRejectedError extends Error {
  override name = 'KeyRejectedError';
}

/** This worker's lease was taken over (it ran past its expiry): it must stop writing. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
}
