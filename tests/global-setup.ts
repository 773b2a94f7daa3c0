/** Builds the site once before any test file runs (several files render pages through the real build). */
import { ensureBuild } from '../scripts/lib/build.ts';

export default function setup(): void {
  ensureBuild((line) => console.log(line));
}
