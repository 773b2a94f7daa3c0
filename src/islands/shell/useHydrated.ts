import { useSyncExternalStore } from 'react';

const noopSubscribe = () => () => {};

/**
 * False during the server render and while hydrating (so the first client render matches the
 * server's HTML), true afterwards and for components mounted later.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noopSubscribe,
    () => true,
    () => false,
  );
}
