/**
 * localStorage can refuse: reading it throws a SecurityError where storage is disabled (sandboxed
 * frames, some private modes) and writing a QuotaExceededError when it is full. Both are DOMExceptions;
 * in those cases the state lasts for this page only. Any other error is a bug and is thrown.
 */
export function unlessStorageRefuses<T>(action: () => T, fallback: T): T {
  try {
    return action();
  } catch (error) {
    if (typeof DOMException !== 'undefined' && error instanceof DOMException) return fallback;
    throw error;
  }
}
