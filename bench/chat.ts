/**
 * `npm run bench -- chat`: a channel of 100,000 messages (Discord and Patreon community) opened at its
 * first, middle and last page, through the data module, the API and the SSR page render. The archive
 * is seeded once into bench/.data/chat; the step runs in its own process because pages read DATA_DIR.
 */
import { archiveDir, runStep } from './lib.ts';

export function chatBenchmark(): Promise<unknown> {
  return runStep('bench/chat-step.ts', [], { DATA_DIR: archiveDir('chat') });
}
