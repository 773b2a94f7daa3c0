/**
 * Server-side configuration, read from the environment (documented in README.md).
 * Islands never import this module: the values they need are rendered into the page.
 */
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  siteName: string;
  /** Origin that serves files, e.g. https://img.example.org; empty means this server. */
  imageHost: string;
  iconsPath: string;
  bannersPath: string;
  /** Name of the build environment shown in the footer (development, production, ...). */
  environment: string;
  /**
   * A reverse proxy sits in front (TRUST_PROXY=1): the client's address is the last one of
   * X-Forwarded-For. Without it every visitor would share the proxy's address in the rate limits.
   */
  trustProxy: boolean;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 4321);
  return {
    port: Number.isInteger(port) && port > 0 && port < 65536 ? port : 4321,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || 'data'),
    siteName: env.SITE_NAME || 'Trove',
    imageHost: (env.IMAGE_HOST || '').replace(/\/+$/, ''),
    iconsPath: (env.ICONS_PATH || '/icons').replace(/\/+$/, ''),
    bannersPath: (env.BANNERS_PATH || '/banners').replace(/\/+$/, ''),
    environment: env.TROVE_ENV || env.NODE_ENV || 'development',
    trustProxy: /^(1|true|yes)$/i.test(env.TRUST_PROXY ?? ''),
  };
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
  };
}
