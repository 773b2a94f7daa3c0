/** Telling a file that is not there (or not readable as asked) from a real failure of the disk. */

const ABSENT = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

/** Whether `error` says the path does not exist (or is not the kind of entry asked for). */
export function isAbsent(error: unknown): boolean {
  return error instanceof Error && ABSENT.has((error as NodeJS.ErrnoException).code ?? '');
}

/** Runs `read`, answering `fallback` when the path is absent; every other error is thrown. */
export function unlessAbsent<T, F>(read: () => T, fallback: F): T | F {
  try {
    return read();
  } catch (error) {
    if (isAbsent(error)) return fallback;
    throw error;
  }
}
