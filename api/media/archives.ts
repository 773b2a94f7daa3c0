/**
 * Lists the names inside a .zip, .rar or .7z file without extracting it, and tests archive passwords.
 *
 * 7-Zip (7z-wasm) runs in a worker thread per job (api/media/archives-worker.ts), so a hostile archive
 * can never block the server: the worker is terminated at the time limit, at most `concurrency` jobs
 * run at once and at most `maxQueue` wait (more is refused with ArchiveBusyError). Names are capped at
 * `maxEntries` (then `truncated`), an archive declaring more than `maxDeclaredSize` bytes in total is
 * refused as too big (its password is never tested: that would decompress it). Entries with absolute
 * paths, `..` segments or links are returned as plain names flagged `unsafe`: nothing here ever
 * extracts or follows them.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ARCHIVE_WORKER_SOURCE } from './archives-worker.ts';
import { Slots } from './slots.ts';

export const ARCHIVE_TYPES = ['zip', 'rar', '7z'] as const;
export type ArchiveType = (typeof ARCHIVE_TYPES)[number];

export interface ArchiveEntry {
  name: string;
  /** Declared (uncompressed) size in bytes. */
  size: number;
  encrypted: boolean;
  /** An absolute path, a '..' segment or a link: shown as a name, never followed. */
  unsafe: boolean;
}

export type ArchiveListing =
  /** Names are readable; `encrypted` when entries are (then `password` was tested correct). */
  | { kind: 'listed'; entries: ArchiveEntry[]; truncated: boolean; declaredSize: number; encrypted: boolean }
  /** Entries (names may be visible, as in zip) or headers (no names: `entries` empty) need a password. */
  | { kind: 'password-required'; entries: ArchiveEntry[]; truncated: boolean; headersEncrypted: boolean }
  | { kind: 'wrong-password' }
  /** Not an archive of its type, or damaged. */
  | { kind: 'unreadable' }
  | { kind: 'too-big'; reason: 'size' | 'time' }
  | { kind: 'unsupported' };

export interface ArchiveListerOptions {
  /** Listings running at once (default 2). */
  concurrency?: number;
  /** Listings waiting for a slot before new ones are refused (default 32). */
  maxQueue?: number;
  /** Wall-clock limit of one job, from the moment its worker starts (default 15 s). */
  timeoutMs?: number;
  /** Names returned at most (default 10,000). */
  maxEntries?: number;
  /** Largest declared uncompressed total considered (default 64 GiB). */
  maxDeclaredSize?: number;
}

export class ArchiveBusyError extends Error {
  constructor() {
    super('Too many archives are being read, try again later.');
    this.name = 'ArchiveBusyError';
  }
}

export const ARCHIVE_DEFAULTS = {
  concurrency: 2,
  maxQueue: 32,
  timeoutMs: 15_000,
  maxEntries: 10_000,
  maxDeclaredSize: 64 * 1024 ** 3,
} as const satisfies Required<ArchiveListerOptions>;

/** 'zip' for '.zip' or 'ZIP'; undefined for anything that is not a listable archive. */
export function archiveTypeOf(ext: string): ArchiveType | undefined {
  const bare = ext.replace(/^\./, '').toLowerCase();
  return (ARCHIVE_TYPES as readonly string[]).includes(bare) ? (bare as ArchiveType) : undefined;
}

/** A name that would leave the extraction folder: absolute (/x, \x, C:x, //host) or with a '..' segment. */
export function isUnsafeEntryName(name: string): boolean {
  if (/^[\\/]/.test(name) || /^[A-Za-z]:/.test(name)) return true;
  return name.split(/[\\/]/).some((segment) => segment === '..');
}

/** Control characters (a newline could fake a second name) are shown as U+FFFD. */
function printableName(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f]/g, '\ufffd');
}

interface WorkerEntry {
  name: string;
  size: number;
  encrypted: boolean;
  link: boolean;
}

interface WorkerRun {
  code: number | null;
  threw: string | null;
  prompted: boolean;
  errors: string[];
  archiveErrors: string[];
  entries: WorkerEntry[];
  truncated: boolean;
  /** Sum of every file entry's declared size, kept or not. */
  declaredSize: number;
}

type WorkerMessage =
  | { type: 'entries'; entries: WorkerEntry[]; truncated: true; declaredSize: number }
  | { type: 'done'; list: WorkerRun; test: WorkerRun | null }
  | { type: 'failed'; message: string };

type WorkerOutcome = WorkerMessage | { type: 'timeout' } | { type: 'crashed'; message: string };

/** 7-Zip's handler names per type: RAR 5 and RAR 4 have one each. */
const FORMATS: Record<ArchiveType, string[]> = { zip: ['zip'], '7z': ['7z'], rar: ['rar5', 'rar'] };

const sevenZipLib = createRequire(import.meta.url).resolve('7z-wasm');

function toEntries(raw: WorkerEntry[]): ArchiveEntry[] {
  return raw.map((entry) => ({
    name: printableName(entry.name),
    size: entry.size,
    encrypted: entry.encrypted,
    unsafe: entry.link || isUnsafeEntryName(entry.name),
  }));
}

const WRONG_PASSWORD = /wrong password/i;
const NOT_ARCHIVE = /Is not archive|Cannot open the file as/i;

/** Turns what 7-Zip printed into one clear result. */
function classify(outcome: WorkerOutcome, password: string | null, maxDeclaredSize: number): ArchiveListing {
  if (outcome.type === 'timeout') return { kind: 'too-big', reason: 'time' };
  if (outcome.type === 'entries') {
    // The cap was reached before the end: the archive is big but readable. Its password (if any) is
    // only known correct once tested, which a truncated run did not get to do.
    if (outcome.declaredSize > maxDeclaredSize) return { kind: 'too-big', reason: 'size' };
    const entries = toEntries(outcome.entries);
    const encrypted = entries.some((entry) => entry.encrypted);
    if (encrypted) return { kind: 'password-required', entries, truncated: true, headersEncrypted: false };
    return { kind: 'listed', entries, truncated: true, declaredSize: outcome.declaredSize, encrypted: false };
  }
  if (outcome.type !== 'done') return { kind: 'unreadable' };
  const { list, test } = outcome;
  const messages = [...list.errors, ...list.archiveErrors].join('\n');
  if (list.prompted) return { kind: 'password-required', entries: [], truncated: false, headersEncrypted: true };
  if (password !== null && WRONG_PASSWORD.test(messages)) return { kind: 'wrong-password' };
  if (list.entries.length === 0 && (list.code === null || list.code > 1 || NOT_ARCHIVE.test(messages))) return { kind: 'unreadable' };
  if (list.threw !== null && list.entries.length === 0) return { kind: 'unreadable' };
  const entries = toEntries(list.entries);
  const declaredSize = list.declaredSize;
  if (declaredSize > maxDeclaredSize) return { kind: 'too-big', reason: 'size' };
  const encrypted = entries.some((entry) => entry.encrypted);
  const truncated = list.truncated;
  if (!encrypted) return { kind: 'listed', entries, truncated, declaredSize, encrypted: false };
  if (password === null || !test) return { kind: 'password-required', entries, truncated, headersEncrypted: false };
  if (test.code === 0 && !test.prompted) return { kind: 'listed', entries, truncated, declaredSize, encrypted: true };
  // A wrong password shows as 'Wrong password', or as a CRC/data error "in encrypted file".
  const testMessages = [...test.errors, ...test.archiveErrors].join('\n');
  if (test.prompted || WRONG_PASSWORD.test(testMessages) || /encrypted/i.test(testMessages)) return { kind: 'wrong-password' };
  return { kind: 'unreadable' };
}

function runWorker(
  file: string,
  type: ArchiveType,
  password: string | null,
  options: { timeoutMs: number; maxEntries: number },
): Promise<WorkerOutcome> {
  return new Promise((resolve) => {
    const worker = new Worker(ARCHIVE_WORKER_SOURCE, {
      eval: true,
      workerData: {
        lib: sevenZipLib,
        dir: path.dirname(file),
        name: path.basename(file),
        formats: FORMATS[type],
        password,
        maxEntries: options.maxEntries,
      },
      // 7-Zip's wasm heap grows as it needs; this bounds the JavaScript side of a hostile listing.
      resourceLimits: { maxOldGenerationSizeMb: 256 },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const settle = (outcome: WorkerOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(() => settle({ type: 'timeout' }), options.timeoutMs);
    worker.on('message', (message: WorkerMessage) => settle(message));
    worker.on('error', (error) => settle({ type: 'crashed', message: error.message }));
    worker.on('exit', () => settle({ type: 'crashed', message: 'worker exited' }));
  });
}

export interface ArchiveLister {
  /** Lists `file` (a path on disk) as an archive of type `type`; with a password, also tests it. */
  list(file: string, type: ArchiveType | string, password?: string | null): Promise<ArchiveListing>;
  /** Jobs running and waiting (for tests and monitoring). */
  load(): { active: number; queued: number };
}

export function createArchiveLister(options: ArchiveListerOptions = {}): ArchiveLister {
  const settings = { ...ARCHIVE_DEFAULTS, ...options };
  const slots = new Slots(settings.concurrency, settings.maxQueue);

  return {
    async list(file, rawType, password = null) {
      const type = archiveTypeOf(rawType);
      if (!type) return { kind: 'unsupported' };
      if (slots.full()) throw new ArchiveBusyError();
      await slots.acquire();
      try {
        const outcome = await runWorker(file, type, password, settings);
        return classify(outcome, password, settings.maxDeclaredSize);
      } finally {
        slots.release();
      }
    },
    load: () => slots.load(),
  };
}

/** The process's one lister: the API and the pages share its limits. */
export function sharedArchiveLister(): ArchiveLister {
  const registry = globalThis as { __troveArchiveLister?: ArchiveLister };
  registry.__troveArchiveLister ??= createArchiveLister();
  return registry.__troveArchiveLister;
}
