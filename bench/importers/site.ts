/**
 * One paysite in the per-importer benchmark (`npm run bench -- import`): each file beside this one
 * (bench/importers/<paysite>.ts) default-exports an ImportBenchSite. bench/importers-fake.ts starts it in
 * its own process, so serving the fake does not share an event loop with the importer being measured;
 * bench/importers-step.ts then submits `submission` as /importer would and runs the real worker until the
 * import ends.
 */
import type { Paysite } from '@shared/paysites/index.ts';

export interface BenchFake {
  /** Settings for Trove pointing its importer at the fake (IMPORTER_<ID>_URL and any other base URL). */
  env: Record<string, string>;
  /** The /importer form's fields for the fake's key: session_key and any other key field, as strings. */
  submission: Record<string, string>;
  /** Requests the fake answered so far (for the requests/s figure); 0 when the fake does not count. */
  requests(): number;
  close(): Promise<void>;
}

export interface ImportBenchSite {
  service: Paysite;
  /**
   * Starts the site's fake serving about `posts` visible posts spread over a few creators, each with
   * real file bytes (a post file or cover and at least one attachment or gallery image), so posts/s,
   * files/s and MB/s compare across importers.
   */
  start(posts: number): Promise<BenchFake>;
}
