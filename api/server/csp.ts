/**
 * The Content-Security-Policy of every page (stored archive pages, prerendered text pages, pages
 * rendered on demand) and Strict-Transport-Security for https requests. Media under /data keep their
 * own sandboxing policy (media.ts).
 *
 * Scripts: files of this origin ('self': the bundled /_astro/ modules and the islands they import),
 * and inline scripts only by the sha256 of their exact text. The inline scripts are fixed strings of
 * the build: ours (shared/inline-scripts.ts) and Astro's island loader and hydration directives, taken
 * from the installed astro package, which also built the pages (a new astro version means a new build).
 * One policy per server therefore fits every stored page; nothing is computed per request, and an
 * injected inline script, event handler attribute or javascript: URL does not run.
 *
 * 'wasm-unsafe-eval' lets hash search compile hash-wasm's WebAssembly (it evaluates no JavaScript).
 * Styles keep 'unsafe-inline': pages set CSS custom properties in style attributes (thread depth,
 * embed colours, poll bars) and React writes style attributes while hydrating; a style cannot run script.
 */
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import islandScript from 'astro/runtime/server/astro-island.prebuilt.js';
import islandScriptDev from 'astro/runtime/server/astro-island.prebuilt-dev.js';
import idleDirective from 'astro/runtime/client/idle.prebuilt.js';
import loadDirective from 'astro/runtime/client/load.prebuilt.js';
import mediaDirective from 'astro/runtime/client/media.prebuilt.js';
import onlyDirective from 'astro/runtime/client/only.prebuilt.js';
import visibleDirective from 'astro/runtime/client/visible.prebuilt.js';
import { INLINE_SCRIPTS } from '@shared/inline-scripts.ts';
import { parseUrl } from '@shared/parse.ts';

/** Astro's inline scripts: the island custom element (production and development) and one loader per client: directive. */
export const ASTRO_INLINE_SCRIPTS: readonly string[] = [
  islandScript,
  islandScriptDev,
  idleDirective,
  loadDirective,
  mediaDirective,
  onlyDirective,
  visibleDirective,
];

export interface PageSecuritySettings {
  /** IMAGE_HOST: files, thumbnails and downloads ('' = this server). */
  imageHost: string;
  /** DISCORD_CONTENT_HOST: chat avatars and custom emojis. */
  discordContentHost: string;
  /** ICONS_PATH and BANNERS_PATH: paths here, or URLs on another host. */
  iconsPath: string;
  bannersPath: string;
  /** TRUST_PROXY: X-Forwarded-Proto is believed for Strict-Transport-Security. */
  trustProxy: boolean;
}

/** The CSP source of an inline script's text: 'sha256-<base64>'. */
export function scriptHashSource(text: string): string {
  return `'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The origin of an absolute http(s) URL, else undefined (paths on this server need no source). */
function originOf(value: string): string | undefined {
  if (!/^https?:\/\//i.test(value)) return undefined;
  return parseUrl(value)?.origin;
}

export function pageSecurityPolicy(settings: PageSecuritySettings): string {
  const scripts = [...new Set([...INLINE_SCRIPTS, ...ASTRO_INLINE_SCRIPTS].map(scriptHashSource))];
  const archive = [settings.imageHost, settings.iconsPath, settings.bannersPath].map(originOf);
  const images = ["'self'", ...new Set([...archive, originOf(settings.discordContentHost)].filter((origin) => origin !== undefined))];
  const media = [
    "'self'",
    ...new Set([originOf(settings.imageHost), originOf(settings.discordContentHost)].filter((origin) => origin !== undefined)),
  ];
  return [
    "default-src 'self'",
    `script-src 'self' 'wasm-unsafe-eval' ${scripts.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src ${images.join(' ')}`,
    `media-src ${media.join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** One year; subdomains are left to their own servers (IMAGE_HOST may be one of them, but need not be). */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/** Whether the browser reached us over https: a TLS socket, or behind TRUST_PROXY a proxy saying so. */
export function cameOverHttps(req: IncomingMessage, trustProxy: boolean): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  if (!trustProxy) return false;
  const proto = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https';
}
