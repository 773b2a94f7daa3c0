/**
 * Receiving a multipart/form-data upload: text fields into memory, each file handed as a stream to
 * `store` (api/media/store.ts storeStream: hashed into a temporary file, then renamed to its content
 * address), with limits on each file, the file count and the total. Nothing is buffered whole.
 *
 * When a limit is exceeded or the body is malformed, the streams in flight are cut (their temporary
 * files go with them), `undo` is given what was already stored, and the error (413 or 400) is raised
 * once that is done: a failed upload leaves nothing behind. After success the caller owns the results
 * (and calls undo itself if it cannot use them).
 */
import type { IncomingMessage } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import busboy from 'busboy';
import { BadRequestError, HttpError, PayloadTooLargeError } from '../http/errors.ts';
import { FileTooLargeError } from './store.ts';
import { uploadMessages, type UploadLimits } from '@shared/upload-limits.ts';

export { uploadMessages, type UploadLimits };

export interface UploadPart {
  /** The form field the file came in. */
  field: string;
  /** The name the client gave, without any directory part (never empty). */
  filename: string;
  mimeType: string;
}

export interface UploadHandlers<R> {
  /** Called with the fields sent so far before the first file is stored; throw an HttpError to refuse early. */
  beforeFirstFile?(fields: Record<string, string>): Promise<void> | void;
  /** Stores one file's bytes. Reject when the stream fails (it is destroyed on a limit). */
  store(part: UploadPart, stream: Readable): Promise<R>;
  /** Undoes what `store` kept, when the upload as a whole fails. */
  undo(results: R[]): Promise<void>;
}

export interface ReceivedUpload<R> {
  /** Text fields; a repeated field keeps its first value. */
  fields: Record<string, string>;
  files: (UploadPart & { result: R })[];
}

const MiB = 1024 * 1024;

/** A body declared this much larger than the total limit cannot be valid (headers, boundaries, fields). */
const MULTIPART_OVERHEAD = MiB;

/** After a refusal, read at most this much more of the body (so the client sees the answer), then hang up. */
const DRAIN_AFTER_REJECT = 64 * MiB;

/** The last path segment of a client-given name (old browsers send full Windows paths). */
function baseName(name: string): string {
  return name.split(/[\\/]/).pop() ?? '';
}

/** Stops reading a refused body: drain a little so the answer gets through, then close the connection. */
function stopReading(req: IncomingMessage): void {
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_AFTER_REJECT) req.socket.destroy();
  });
  req.resume();
}

/**
 * Reads a multipart/form-data request. Throws PayloadTooLargeError (413) when a limit is exceeded (a
 * FileTooLargeError from `store` included), BadRequestError (400) for a body that is not multipart or
 * cannot be parsed, or what beforeFirstFile / store threw.
 */
export async function receiveUpload<R>(
  req: IncomingMessage,
  limits: UploadLimits,
  handlers: UploadHandlers<R>,
): Promise<ReceivedUpload<R>> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxTotalBytes + MULTIPART_OVERHEAD) {
    stopReading(req);
    throw new PayloadTooLargeError(uploadMessages.totalTooLarge(limits));
  }
  const maxFields = limits.maxFields ?? 20;
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      // Browsers send file names as raw UTF-8 in the Content-Disposition parameters.
      defParamCharset: 'utf8',
      limits: {
        // busboy reports the limit on reaching it; a file of exactly maxFileBytes is allowed.
        fileSize: limits.maxFileBytes + 1,
        files: limits.maxFiles,
        fields: maxFields,
        fieldSize: limits.maxFieldBytes ?? 64 * 1024,
        parts: limits.maxFiles + maxFields,
      },
    });
  } catch (error) {
    // busboy refuses a request whose Content-Type is missing or not multipart when it is made.
    if (!(error instanceof Error)) throw error;
    stopReading(req);
    throw new BadRequestError(uploadMessages.notMultipart);
  }

  return new Promise<ReceivedUpload<R>>((resolve, reject) => {
    const fields: Record<string, string> = {};
    // Slots in part order: a small later file may finish storing before a large earlier one.
    const files: (UploadPart & { result: R })[] = [];
    let parts = 0;
    const pending: Promise<unknown>[] = [];
    const active = new Set<Readable>();
    let total = 0;
    let sawFile = false;
    // The files are stored only once beforeFirstFile has accepted the fields (it may read the database).
    let accepted: Promise<void> = Promise.resolve();
    let failure: unknown;

    const fail = (error: unknown) => {
      if (failure) return;
      failure = error;
      req.unpipe(parser);
      stopReading(req);
      for (const stream of active) stream.destroy(new Error('upload refused'));
      void Promise.allSettled(pending)
        .then(() => handlers.undo(files.filter(Boolean).map((file) => file.result)))
        .catch(() => undefined)
        .finally(() => reject(error));
    };

    parser.on('file', (field, stream, info) => {
      const filename = baseName(info.filename ?? '');
      // An empty file input still sends a part, with no name and no bytes.
      if (failure || !filename) {
        stream.resume();
        return;
      }
      if (!sawFile) {
        sawFile = true;
        accepted = Promise.resolve().then(() => handlers.beforeFirstFile?.(fields));
      }
      const part: UploadPart = { field, filename, mimeType: info.mimeType };
      const slot = parts++;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          total += chunk.length;
          if (total > limits.maxTotalBytes) done(new PayloadTooLargeError(uploadMessages.totalTooLarge(limits)));
          else done(null, chunk);
        },
      });
      active.add(counted);
      stream.on('limit', () => fail(new PayloadTooLargeError(uploadMessages.fileTooLarge(filename, limits))));
      stream.on('error', (error) => counted.destroy(error));
      counted.on('error', (error) => {
        stream.resume();
        fail(error instanceof HttpError ? error : new BadRequestError(uploadMessages.malformed));
      });
      stream.pipe(counted);
      pending.push(
        accepted
          .then(() => handlers.store(part, counted))
          .then((result) => void (files[slot] = { ...part, result }))
          // A store that enforces the size itself (storeStream's maxBytes) refuses like busboy's limit.
          .catch((error) =>
            fail(error instanceof FileTooLargeError ? new PayloadTooLargeError(uploadMessages.fileTooLarge(filename, limits)) : error),
          )
          .finally(() => active.delete(counted)),
      );
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated || info.nameTruncated) fail(new PayloadTooLargeError(uploadMessages.fieldTooLarge));
      else if (!(name in fields)) fields[name] = value;
    });
    parser.on('filesLimit', () => fail(new PayloadTooLargeError(uploadMessages.tooManyFiles(limits))));
    parser.on('fieldsLimit', () => fail(new PayloadTooLargeError(uploadMessages.tooManyFields)));
    parser.on('partsLimit', () => fail(new PayloadTooLargeError(uploadMessages.tooManyFields)));
    parser.on('error', () => fail(new BadRequestError(uploadMessages.malformed)));
    parser.on('close', () => {
      void Promise.allSettled(pending).then(() => {
        if (!failure) resolve({ fields, files });
      });
    });
    req.on('close', () => {
      // The client went away before the body was complete: nobody will read the answer, but clean up.
      if (!req.complete) fail(new BadRequestError(uploadMessages.malformed));
    });
    req.pipe(parser);
  });
}
