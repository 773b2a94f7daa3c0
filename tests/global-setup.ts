/** Builds the site once before any test file runs (several files render pages through the real build). */
import { ensureBuild } from '../scripts/lib/build.ts';

export default async function setup(): Promise<void> {
  await ensureBuild((line) => console.log(line));
}
