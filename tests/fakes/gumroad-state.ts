/**
 * What the fake Gumroad's hosts share (gumroad.ts starts them, gumroad-routes.ts answers on them): the
 * dataset, the knobs' state and the hosts' origins, and the signatures the fake hands out and checks:
 * signed file URLs (Cloudflare's `verify` style or CloudFront's), a session's CSRF token and the cookie of a
 * confirmed e-mail.
 */
import { createHmac } from 'node:crypto';
import { digest, fileNameOf, type GrDataset, type GrFile, type GrView } from './gumroad-data.ts';
import type { Faults } from './kit/server.ts';
import type { Signer } from './kit/signing.ts';

export interface GumroadState {
  dataset: GrDataset;
  /** The accepted `_gumroad_app_session`. */
  key: string;
  /** False once expireKey() ran: the key is refused from then on. */
  live: boolean;
  /** Library results per page. */
  pageSize: number;
  generation: 'inertia' | 'react_on_rails';
  now: () => number;
  faults: Faults;
  signer: Signer;
  csrfSecret: Buffer;
  /** Each file's size in bytes, by file id. */
  sizes: Map<string, number>;
  /** Every product file with its seller's external id, by file id. */
  files: Map<string, { file: GrFile; sellerId: string }>;
  /** The public files' names by the digest in their URL (filled as view.publicUrl hands them out). */
  publicFiles: Map<string, string>;
  /** app.gumroad.com's origin (`view.app`), the sellers' and the public URL builders. */
  view: GrView;
  /** The file hosts' origin. */
  cdnOrigin: string;
}

/** A signed URL of a file on the file hosts, valid for `ttlSeconds`. */
export const signedFile = (state: GumroadState, path: string, ttlSeconds: number, style: 'cloudflare' | 'cloudfront' = 'cloudflare') => {
  const expires = Math.floor(state.now() / 1000) + ttlSeconds;
  const sig = state.signer.sign(`${path}|${expires}`);
  return style === 'cloudflare'
    ? `${state.cdnOrigin}${path}?response-content-disposition=attachment&verify=${expires}-${encodeURIComponent(sig)}`
    : `${state.cdnOrigin}${path}?Expires=${expires}&Signature=${sig}&Key-Pair-Id=APKAFAKEGUMROAD`;
};
/** How long a signed file URL lives: size / 50 KiB/s clamped to 10 min..3 h, 12 h for video. */
export const fileTtl = (state: GumroadState, f: GrFile) =>
  f.extension === 'MP4' ? 12 * 3600 : Math.min(10800, Math.max(600, Math.ceil((state.sizes.get(f.id) ?? 0) / 51200)));
/** The path of a purchased file on the file hosts. */
export const filePath = (f: GrFile, sellerId: string) =>
  `/attachments/${sellerId}/${digest(f.id, 32)}/original/${encodeURIComponent(fileNameOf(f))}`;

/** The CSRF token of a session (the page's csrf-token meta, checked by POST /confirm-redirect). */
export const csrf = (state: GumroadState, session: string) => createHmac('sha256', state.csrfSecret).update(session).digest('base64');
/** The signature in the `confirmed_redirect` cookie of a purchase whose buyer confirmed the e-mail. */
export const confirmation = (state: GumroadState, token: string) => state.signer.sign(`confirmed:${token}`);
