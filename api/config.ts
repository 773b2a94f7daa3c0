/**
 * Server-side configuration, read from the environment (documented in README.md).
 * Islands never import this module: the values they need are rendered into the page.
 */
import path from 'node:path';
import { readPaysiteEndpoints } from '@api/importer/paysites/endpoints.ts';
import type { Paysite } from '@shared/paysites/index.ts';
import { parseUrl } from '@shared/parse.ts';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  siteName: string;
  /** Origin that serves files, e.g. https://img.example.org; empty means this server. */
  imageHost: string;
  /**
   * This site's own origin as visitors reach it (PUBLIC_URL, e.g. https://archive.example.org): the
   * absolute links of the feeds, which are stored and must not depend on a request's Host. Default
   * http://localhost:<PORT>.
   */
  publicUrl: string;
  /**
   * DATABASE_URL: a postgres:// (or postgresql://) URL runs the archive on that PostgreSQL database;
   * unset, the SQLite file in DATA_DIR.
   */
  databaseUrl: string | undefined;
  iconsPath: string;
  bannersPath: string;
  /**
   * Where chat pages load Discord avatars and custom emojis from (DISCORD_CONTENT_HOST, default
   * https://cdn.discordapp.com): the chat network's content host, not archived.
   */
  discordContentHost: string;
  /** Name of the build environment shown in the footer (development, production, ...). */
  environment: string;
  /**
   * A reverse proxy sits in front (TRUST_PROXY=1): the client's address is the last one of
   * X-Forwarded-For. Without it every visitor would share the proxy's address in the rate limits.
   */
  trustProxy: boolean;
  /**
   * PEM file of the operator's RSA public key that encrypts stored session keys (OPERATOR_PUBLIC_KEY).
   * Empty: a demo pair is generated once into DATA_DIR/operator-keys (api/importer/operator-key.ts).
   */
  operatorPublicKey: string;
  /**
   * How often the running server refreshes the stored pages a write affected (REBUILD_INTERVAL_SECONDS;
   * 0 turns it off). Off by default in the test environment, whose specs run `scripts/rebuild` themselves.
   */
  rebuildIntervalSeconds: number;
  /** Whether the server runs the import worker (IMPORT_WORKER=0 turns it off; `scripts/worker` runs it alone). */
  importWorker: boolean;
  /** How long a worker's claim on an import lasts without a heartbeat (IMPORT_LEASE_SECONDS, default 60). */
  importLeaseSeconds: number;
  /** Where the importers reach the paysites (api/importer/fetch.ts); tests point these at fake paysites. */
  importer: ImporterConfig;
  /**
   * Free space (MB) the data folder's disk must keep (MIN_FREE_DISK_MB, default 1024; 0 under TROVE_ENV=test,
   * whose machines may be short of space, and whose tests of the rule set it): below it /readyz fails and
   * imports pause until space returns.
   */
  minFreeDiskMb: number;
  /** Bearer token that opens GET /metrics from other hosts (METRICS_TOKEN); empty: loopback only. */
  metricsToken: string;
  /** pino's level (LOG_LEVEL, default info) and whether lines are JSON (LOG_FORMAT=json, the default in production) or readable. */
  logLevel: string;
  logFormat: 'json' | 'pretty';
  /**
   * How long an import that gave up after its retries keeps its sealed key so that an administrator can
   * retry it (IMPORT_RETRY_KEEP_HOURS, default 72); then the key is wiped.
   */
  importRetryKeepHours: number;
}

/** A paysite the importers talk to: its API base URL and the hosts its files come from. */
export interface PaysiteEndpoint {
  /** IMPORTER_{SERVICE}_URL; the default is the paysite's real API. */
  baseUrl: string;
  /** Host names the importer may contact; a leading '.' allows subdomains. The base URL's host is always allowed. */
  hosts: string[];
  /** Hosts that receive the session key besides the base URL's host (same matching as `hosts`). */
  credentialHosts?: string[];
  /** Base of URLs the importer builds from asset ids (Discord's CDN: server icons); IMPORTER_{SERVICE}_CDN_URL. */
  cdnUrl?: string;
  /** The site's other base URLs by name (its folder's `urls`), e.g. SubscribeStar's adult site. */
  urls?: Record<string, string>;
  /** The importer's other settings by name (its folder's `settings`), e.g. OnlyFans' `rules`. */
  settings?: Record<string, string>;
}

export interface ImporterConfig {
  /**
   * Keyed by paysite id, one per paysite with an importer; the settings (variables, defaults, hosts) are
   * in each importer's folder, api/importer/paysites/<id>/endpoints.ts.
   */
  endpoints: Partial<Record<Paysite, PaysiteEndpoint>>;
  /**
   * Loopback and private addresses are refused unless IMPORTER_ALLOW_PRIVATE_ADDRESSES=1 (honoured only
   * under TROVE_ENV=test, for the fake paysites the tests start on 127.0.0.1).
   */
  allowPrivateAddresses: boolean;
  /** Per request, until the whole answer has arrived (IMPORTER_TIMEOUT_SECONDS, default 60; files get 10 times that). */
  timeoutMs: number;
  /** Largest file downloaded (IMPORTER_MAX_FILE_MB, default 2048); bigger ones are logged and skipped. */
  maxFileBytes: number;
}

function importerConfig(env: NodeJS.ProcessEnv): ImporterConfig {
  return {
    endpoints: readPaysiteEndpoints(env),
    allowPrivateAddresses: env.TROVE_ENV === 'test' && /^(1|true|yes)$/i.test(env.IMPORTER_ALLOW_PRIVATE_ADDRESSES ?? ''),
    timeoutMs: positiveNumber(env.IMPORTER_TIMEOUT_SECONDS, 60) * 1000,
    maxFileBytes: positiveNumber(env.IMPORTER_MAX_FILE_MB, 2048) * 1024 * 1024,
  };
}

/** The endpoint of a paysite with an importer (its folder lists its settings). */
export function paysiteEndpoint(importer: ImporterConfig, service: Paysite): PaysiteEndpoint {
  const endpoint = importer.endpoints[service];
  if (!endpoint) throw new Error(`No importer endpoint is configured for ${service}.`);
  return endpoint;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 4321);
  return {
    port: Number.isInteger(port) && port > 0 && port < 65536 ? port : 4321,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || 'data'),
    siteName: env.SITE_NAME || 'Trove',
    imageHost: (env.IMAGE_HOST || '').replace(/\/+$/, ''),
    publicUrl: publicUrl(env.PUBLIC_URL, Number.isInteger(port) && port > 0 && port < 65536 ? port : 4321),
    databaseUrl: databaseUrl(env.DATABASE_URL),
    iconsPath: (env.ICONS_PATH || '/icons').replace(/\/+$/, ''),
    bannersPath: (env.BANNERS_PATH || '/banners').replace(/\/+$/, ''),
    discordContentHost: (env.DISCORD_CONTENT_HOST || 'https://cdn.discordapp.com').replace(/\/+$/, ''),
    environment: env.TROVE_ENV || env.NODE_ENV || 'development',
    trustProxy: /^(1|true|yes)$/i.test(env.TRUST_PROXY ?? ''),
    operatorPublicKey: env.OPERATOR_PUBLIC_KEY ? path.resolve(env.OPERATOR_PUBLIC_KEY) : '',
    rebuildIntervalSeconds: rebuildInterval(env),
    importWorker: !/^(0|false|no|off)$/i.test(env.IMPORT_WORKER ?? ''),
    importLeaseSeconds: positiveNumber(env.IMPORT_LEASE_SECONDS, 60),
    importer: importerConfig(env),
    minFreeDiskMb: nonNegativeNumber(env.MIN_FREE_DISK_MB, env.TROVE_ENV === 'test' ? 0 : 1024),
    metricsToken: env.METRICS_TOKEN ?? '',
    logLevel: env.LOG_LEVEL || 'info',
    logFormat: logFormat(env),
    importRetryKeepHours: nonNegativeNumber(env.IMPORT_RETRY_KEEP_HOURS, 72),
  };
}

/** An http(s) origin; anything else (or nothing) falls back to this server on localhost. */
/** DATABASE_URL, checked: an operator who names a database must not silently get the SQLite file. */
function databaseUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (!/^postgres(?:ql)?:\/\/./.test(raw)) throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL.');
  return raw;
}

function publicUrl(raw: string | undefined, port: number): string {
  const url = raw ? parseUrl(raw) : undefined;
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? url.origin : `http://localhost:${port}`;
}

function nonNegativeNumber(raw: string | undefined, fallback: number): number {
  const value = Number(raw);
  return raw && Number.isFinite(value) && value >= 0 ? value : fallback;
}

function logFormat(env: NodeJS.ProcessEnv): 'json' | 'pretty' {
  if (env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'pretty') return env.LOG_FORMAT;
  return (env.TROVE_ENV || env.NODE_ENV) === 'production' ? 'json' : 'pretty';
}

function positiveNumber(raw: string | undefined, fallback: number): number {
  const value = Number(raw);
  return raw && Number.isFinite(value) && value > 0 ? value : fallback;
}

function rebuildInterval(env: NodeJS.ProcessEnv): number {
  const raw = env.REBUILD_INTERVAL_SECONDS;
  if (raw === undefined || raw === '') return env.TROVE_ENV === 'test' ? 0 : 30;
  const seconds = Number(raw);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : 30;
}

let cached: Config | undefined;
export function config(): Config {
  cached ??= readConfig();
  return cached;
}

/** Paths inside DATA_DIR, defined once. */
export function dataPaths(dataDir = config().dataDir) {
  return {
    database: path.join(dataDir, 'trove.sqlite'),
    files: path.join(dataDir, 'files'),
    thumbnails: path.join(dataDir, 'thumbnails'),
    icons: path.join(dataDir, 'icons'),
    banners: path.join(dataDir, 'banners'),
    pages: path.join(dataDir, 'pages'),
    /** The demo operator key pair (only when OPERATOR_PUBLIC_KEY is unset). */
    operatorKeys: path.join(dataDir, 'operator-keys'),
    /** Server-side secrets that never leave the server (the session-key fingerprint key). */
    secrets: path.join(dataDir, 'secrets'),
  };
}
