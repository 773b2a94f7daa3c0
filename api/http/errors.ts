/**
 * The API's one error map: typed errors carry their HTTP status, a v2 error type and a message that is
 * safe to show to clients. Routes and the services they call throw these; api/app.ts turns any thrown
 * value into a JSON answer through asHttpError() and errorBody(): the framework's own errors and the few
 * errors of other modules that reach a route (ArchiveBusyError) are mapped below, anything else becomes
 * a logged 500. No other module picks a status for an API answer.
 *
 * v1 body: {"error": message}
 * v2 body: {"type": "api_error", "error": {"type": <error type>, "message": message}}
 */
import { ArchiveBusyError } from '../media/archives.ts';

export type ApiVersion = 1 | 2;

/** The 404 messages of several areas. */
export const CREATOR_NOT_FOUND = 'Creator not found.';
export const POST_NOT_FOUND = 'Post not found.';

export class HttpError extends Error {
  readonly status: number;
  /** Machine-readable kind, sent as error.type in v2 answers. */
  readonly type: string;
  /** Extra response headers (Allow for 405, Retry-After for 503, ...). */
  readonly headers: Record<string, string>;

  constructor(status: number, type: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.type = type;
    this.headers = headers;
  }
}

/** 400: the request is malformed (unparsable body, bad encoding, ...). */
export class BadRequestError extends HttpError {
  constructor(message = 'Bad request.') {
    super(400, 'bad_request', message);
  }
}

/** 400: an input failed its validator; the message is the first failing rule's message. */
export class ValidationError extends HttpError {
  constructor(message: string) {
    super(400, 'validation_error', message);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(message = 'You must be registered to access this page.') {
    super(401, 'unauthorized', message);
  }
}

export class ForbiddenError extends HttpError {
  constructor(message = 'You are not allowed to do this.') {
    super(403, 'forbidden', message);
  }
}

export class NotFoundError extends HttpError {
  constructor(message = 'Not found.') {
    super(404, 'not_found', message);
  }
}

/** 409: the request conflicts with the current state (already done, already exists). */
export class ConflictError extends HttpError {
  constructor(message: string) {
    super(409, 'conflict', message);
  }
}

/** 429 with Retry-After (seconds): a rate limit was reached. */
export class TooManyRequestsError extends HttpError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, 'too_many_requests', message, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

/** 405 with the Allow header listing the methods the path does answer. */
export class MethodNotAllowedError extends HttpError {
  constructor(allow: readonly string[], message = 'Method not allowed.') {
    super(405, 'method_not_allowed', message, { Allow: normalizeAllow(allow).join(', ') });
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(message = 'Request body is too large.') {
    super(413, 'payload_too_large', message);
  }
}

/** 422: well-formed input the server cannot act on (e.g. an invalid session key). */
export class UnprocessableError extends HttpError {
  constructor(message: string) {
    super(422, 'unprocessable', message);
  }
}

export class ServiceUnavailableError extends HttpError {
  constructor(message = 'Service is unavailable, try again later.', retryAfterSeconds?: number) {
    super(503, 'service_unavailable', message, retryAfterSeconds ? { 'Retry-After': String(retryAfterSeconds) } : {});
  }
}

export const INTERNAL_ERROR_MESSAGE = 'Internal server error.';

export class InternalError extends HttpError {
  constructor() {
    super(500, 'internal_error', INTERNAL_ERROR_MESSAGE);
  }
}

/** Methods in a stable order, HEAD added wherever GET is answered. */
function normalizeAllow(methods: readonly string[]): string[] {
  const set = new Set(methods.map((m) => m.toUpperCase()));
  if (set.has('GET')) set.add('HEAD');
  const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
  return [...set].sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
}

/**
 * Errors raised by Express itself or by its body parsers carry a 4xx `status` and a `type`
 * (body-parser) or come from the router (undecodable URL parameter). They are the client's fault:
 * map them to typed errors with our own messages, never to a 500.
 */
export function fromFrameworkError(error: unknown): HttpError | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as { status?: unknown; statusCode?: unknown; type?: unknown; message?: unknown };
  const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : 0;
  if (status < 400 || status >= 500) return undefined;
  switch (e.type) {
    case 'entity.parse.failed':
      return new BadRequestError('The request body is not valid JSON.');
    case 'entity.too.large':
      return new PayloadTooLargeError();
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new BadRequestError('The request body uses an unsupported encoding.');
    case 'request.size.invalid':
    case 'request.aborted':
    case 'entity.verify.failed':
      return new BadRequestError('The request body could not be read.');
    case 'parameters.too.many':
      return new BadRequestError('The request body has too many parameters.');
  }
  if (typeof e.message === 'string' && e.message.startsWith('Failed to decode param')) {
    return new BadRequestError('The request path is not valid URL encoding.');
  }
  if (status === 404) return new NotFoundError();
  return new BadRequestError();
}

export interface V1ErrorBody {
  error: string;
}
export interface V2ErrorBody {
  type: 'api_error';
  error: { type: string; message: string };
}

export const V2_SUCCESS_TYPE = 'api_response';
export const V2_ERROR_TYPE = 'api_error';

export function errorBody(error: HttpError, version: ApiVersion): V1ErrorBody | V2ErrorBody {
  return version === 2 ? { type: V2_ERROR_TYPE, error: { type: error.type, message: error.message } } : { error: error.message };
}

/** How long a client should wait before asking again for an archive the busy lister refused. */
const ARCHIVE_BUSY_RETRY_SECONDS = 5;

/** Any thrown value as an HttpError; `undefined` means it is unexpected (log it, answer 500). */
export function asHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  // The archive lister's queue is full (api/media/archives.ts): the client may retry.
  if (error instanceof ArchiveBusyError) return new ServiceUnavailableError(error.message, ARCHIVE_BUSY_RETRY_SECONDS);
  return fromFrameworkError(error);
}
