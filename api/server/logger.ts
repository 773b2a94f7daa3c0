/**
 * The process's structured log (pino): JSON lines (LOG_FORMAT=json, the default in production) or
 * readable lines through pino-pretty (LOG_FORMAT=pretty), at LOG_LEVEL. pino-pretty runs as a
 * synchronous stream in this thread (no worker-thread transport): a line is written before the call
 * returns, so a crash never loses the lines before it.
 *
 * Redacted wherever they appear in a logged object (replaced by '[redacted]'): the request's Cookie and
 * Authorization headers, the response's Set-Cookie, and any field named like a credential (password,
 * session_key, key, token, auth_id, x-bc, cookie) down to a few levels deep.
 */
import type { Writable } from 'node:stream';
import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from '../config.ts';
import type { Logger as AppLogger } from '../http/route.ts';

export type Logger = PinoLogger;

export const REDACTED = '[redacted]';

/** Field names that hold a credential or a cookie, at any depth we log. */
const SECRET_FIELDS = ['password', 'session_key', 'key', 'token', 'auth_id', 'x-bc', 'cookie', 'authorization', 'set-cookie'];
const DEPTH = 4;

/** pino redact paths: each secret field at the top level and under up to DEPTH levels of objects. */
export function redactPaths(): string[] {
  const paths = ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'];
  for (const field of SECRET_FIELDS) {
    const name = /^[A-Za-z_$][\w$]*$/.test(field) ? field : `["${field}"]`;
    let prefix = '';
    for (let depth = 0; depth <= DEPTH; depth += 1) {
      paths.push(prefix ? `${prefix}${name.startsWith('[') ? name : `.${name}`}` : name);
      prefix = prefix ? `${prefix}.*` : '*';
    }
  }
  return [...new Set(paths)];
}

export interface LoggerOptions {
  /** Where lines go instead of stdout (tests). */
  destination?: Writable | DestinationStream;
  /** Names the process in every line (`trove`, `worker`, `auto-import`). */
  name?: string;
}

export function createLogger(config: Pick<Config, 'logLevel' | 'logFormat'>, options: LoggerOptions = {}): Logger {
  const settings = {
    level: config.logLevel,
    name: options.name,
    redact: { paths: redactPaths(), censor: REDACTED },
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (config.logFormat === 'pretty') {
    const stream = pretty({
      sync: true,
      colorize: false,
      // One line a record: a request's fields after its message, not a block of indented lines.
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      destination: (options.destination as Writable | undefined) ?? 1,
    });
    return pino(settings, stream);
  }
  return pino(settings, options.destination ?? pino.destination({ dest: 1, sync: true }));
}

/** The scripts' `log(line)` functions, writing info lines through the logger. */
export function lineLogger(logger: Logger): (line: string) => void {
  return (line) => logger.info(line);
}

/** The API's error logger (AppDeps.logger) on a pino logger. */
export function appLogger(logger: Logger): AppLogger {
  return {
    error: (message, details) => logger.error(details ?? {}, message),
    warn: (message, details) => logger.warn(details ?? {}, message),
  };
}
