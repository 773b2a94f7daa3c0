/**
 * What a paysite importer is and what the worker gives it. An importer works in steps: each step's
 * writes, its resume position (cursor) and its log lines commit together in one transaction (ctx.step),
 * so after a crash the import resumes at the last committed step with nothing written twice. Writes are
 * upserts keyed by the paysite's ids, so a step repeated after a crash mid-step changes nothing.
 *
 * A paysite with an importer has a folder api/importer/paysites/<id>/: `endpoints.ts` (its
 * PaysiteEndpointSettings, plain data that api/config.ts reads) and `index.ts` (its PaysiteServer).
 */
import type { Store } from '@api/data/store.ts';
import type { Config } from '@api/config.ts';
import type { Paysite } from '@shared/paysites/index.ts';

export interface ImportContext {
  db: Store;
  /** DATA_DIR (the file store) and the paysite endpoints (config.importer). */
  config: Config;
  importId: string;
  service: string;
  /** The importing account (its DMs wait for its review), or null for a guest's import. */
  accountId: number | null;
  /** The session key, in memory only; never log it or put it in an error message. */
  key: string;
  channelIds: string[];
  saveDms: boolean;
  /** The resume position committed by the last step, or undefined on a fresh start. */
  cursor<T>(): Promise<T | undefined>;
  /**
   * Runs fn in a transaction with the new cursor and log lines; rolls back (and throws LeaseLostError)
   * when this worker no longer holds the import.
   */
  step<T>(fn: () => T, commit: { cursor?: unknown; log?: string[] }): Promise<Awaited<T>>;
  /** Appends a log line outside any step (progress that need not survive a crash exactly once). */
  log(line: string): Promise<void>;
  /** Sets the number of subscriptions found. */
  setSubCount(count: number): Promise<void>;
  /** Aborted when the worker stops (SIGTERM) or loses the lease; check it between steps. */
  signal: AbortSignal;
}

export interface PaysiteImporter {
  run(ctx: ImportContext): Promise<void>;
}

/** An environment variable and its value when unset. */
export interface EnvSetting {
  variable: string;
  default: string;
}

/**
 * Where a paysite's importer may connect, as configuration (resolved into config.importer.endpoints,
 * api/config.ts). Host names: a leading '.' allows subdomains (not the bare domain).
 */
export interface PaysiteEndpointSettings {
  id: Paysite;
  /** The base URL of the paysite's API (IMPORTER_<ID>_URL); the default is the real one. */
  url: EnvSetting;
  /** Hosts the importer may contact besides the base URL's host (file CDNs). */
  hosts: readonly string[];
  /**
   * Hosts that receive the session cookie or token, besides the base URL's host; each must be within
   * `hosts`. Empty: only the base URL's host, so a key never travels to a file CDN.
   */
  credentialHosts: readonly string[];
  /** Base of URLs the importer builds from asset ids (IMPORTER_<ID>_CDN_URL), e.g. Discord's server icons. */
  cdn?: EnvSetting;
  /** Other base URLs of the site by name (IMPORTER_<ID>_<NAME>_URL), e.g. SubscribeStar's adult site. */
  urls?: Readonly<Record<string, EnvSetting>>;
  /**
   * Other settings of the importer (IMPORTER_<ID>_*), by name, passed on as given (not a base URL): e.g.
   * OnlyFans' signing rules, a file path or a URL.
   */
  settings?: Readonly<Record<string, EnvSetting>>;
}

/** A paysite's server side: its endpoint settings and its importer. */
export interface PaysiteServer {
  id: Paysite;
  endpoints: PaysiteEndpointSettings;
  importer: PaysiteImporter;
}
