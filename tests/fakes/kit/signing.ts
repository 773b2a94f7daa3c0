/**
 * Signatures the fakes hand out and check: HMACs under a secret of the fake's own (only the fake has to
 * verify them), timing-safe comparison, and CloudFront-style signed URLs (Policy + Signature +
 * Key-Pair-Id, in the query or as CloudFront-* cookies, as CloudFront takes them) with CloudFront's 403
 * XML bodies. CloudFront signs with RSA-SHA1; the fakes use HMAC-SHA256 instead, and keep CloudFront's
 * URL-safe base64 ('+' to '-', '=' to '_', '/' to '~') for Policy and Signature. Each site's own
 * signing scheme (the query it writes, what it checks) stays in the site's file.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const hmacHex = (secret: string, ...parts: (string | number)[]) =>
  createHmac('sha256', secret).update(parts.join('\n')).digest('hex');
export const md5Hex = (text: string) => createHash('md5').update(text).digest('hex');

/** Equal texts, compared in constant time. */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** HMAC signatures (base64url) over a text, with a random secret of this signer only. */
export class Signer {
  private secret = randomBytes(32);
  sign(text: string): string {
    return createHmac('sha256', this.secret).update(text).digest('base64url');
  }
  check(text: string, signature: string | null | undefined): boolean {
    return !!signature && sameText(this.sign(text), signature);
  }
}

/** CloudFront's URL-safe base64 of some bytes. */
export const cfEncode = (data: string | Buffer) =>
  Buffer.from(data).toString('base64').replaceAll('+', '-').replaceAll('=', '_').replaceAll('/', '~');
/** The bytes of a CloudFront URL-safe base64 text. */
export const cfDecode = (text: string) => Buffer.from(text.replaceAll('-', '+').replaceAll('_', '=').replaceAll('~', '/'), 'base64');

/** An S3 / CloudFront XML error body. */
export const awsError = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;

export type SignCheck = 'ok' | 'missing' | 'bad' | 'expired';

/** CloudFront's 403 bodies for each refusal. */
export const CLOUDFRONT_ERRORS: Record<Exclude<SignCheck, 'ok'>, string> = {
  missing: awsError('MissingKey', 'Missing Key-Pair-Id query parameter or cookie value'),
  bad: awsError('AccessDenied', 'Access denied'),
  expired: awsError('AccessDenied', 'Access denied'),
};

/** S3's answer for a path it does not hold. */
export const NO_SUCH_KEY = awsError('NoSuchKey', 'The specified key does not exist.');

export interface CloudFrontParams {
  Policy: string;
  Signature: string;
  'Key-Pair-Id': string;
}

/** CloudFront custom-policy signing: a resource (a URL, '*' allowed) valid until an epoch time. */
export class UrlSigner {
  constructor(
    private readonly secret: string,
    readonly keyPairId: string,
    private readonly now: () => number,
  ) {}

  private mac(policy: string): string {
    return cfEncode(createHmac('sha256', this.secret).update(policy).digest());
  }

  /** Signing parameters for `resource` (a URL, '*' allowed), valid for `ttlSeconds` from now. */
  params(resource: string, ttlSeconds: number): CloudFrontParams {
    const expires = Math.floor(this.now() / 1000) + ttlSeconds;
    const policy = cfEncode(
      JSON.stringify({ Statement: [{ Resource: resource, Condition: { DateLessThan: { 'AWS:EpochTime': expires } } }] }),
    );
    return { Policy: policy, Signature: this.mac(policy), 'Key-Pair-Id': this.keyPairId };
  }

  /** `url` with the signature of itself (or of `resource`) in its query. */
  sign(url: string, ttlSeconds: number, resource = url): string {
    const p = this.params(resource, ttlSeconds);
    const sep = url.includes('?') ? '&' : '?';
    return `${url}${sep}Policy=${p.Policy}&Signature=${p.Signature}&Key-Pair-Id=${p['Key-Pair-Id']}`;
  }

  /** Checks the signature of a request for `fullUrl` (origin + path), from the query or the CloudFront-* cookies. */
  check(fullUrl: string, query: URLSearchParams, cookies: Map<string, string>): SignCheck {
    const policy = query.get('Policy') ?? cookies.get('CloudFront-Policy');
    const signature = query.get('Signature') ?? cookies.get('CloudFront-Signature');
    const keyPair = query.get('Key-Pair-Id') ?? cookies.get('CloudFront-Key-Pair-Id');
    if (!policy || !signature || !keyPair) return 'missing';
    if (keyPair !== this.keyPairId || !sameText(this.mac(policy), signature)) return 'bad';
    let statement: { Resource: string; Condition: { DateLessThan: { 'AWS:EpochTime': number } } };
    try {
      statement = JSON.parse(cfDecode(policy).toString()).Statement[0];
    } catch {
      return 'bad';
    }
    const pattern = new RegExp(
      `^${statement.Resource.split('*')
        .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    if (!pattern.test(fullUrl)) return 'bad';
    return statement.Condition.DateLessThan['AWS:EpochTime'] * 1000 > this.now() ? 'ok' : 'expired';
  }
}
