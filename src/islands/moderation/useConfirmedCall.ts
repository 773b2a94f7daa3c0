/**
 * A moderation button's one call: asks first (when given a question), then calls the API and keeps
 * whether it is running, done, or failed with the API's message.
 */
import { useState } from 'react';
import { describeError } from '@site/client/api-client';

export function useConfirmedCall(call: () => Promise<unknown>, question?: string) {
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle');
  const [error, setError] = useState<string | null>(null);

  async function run() {
    if (question !== undefined && !globalThis.confirm(question)) return;
    setState('busy');
    setError(null);
    try {
      await call();
      setState('done');
    } catch (failure) {
      setState('idle');
      setError(describeError(failure));
    }
  }

  return { state, error, run };
}
