/**
 * Mirrored post HTML is untrusted: it is sanitized with an allowlist on import and again when rendered.
 * Links keep only http, https and mailto and open outside the site without an opener. Images are kept
 * only when they come from the archive itself: its file paths (/data/..., /thumbnail/...,
 * /ab/cd/<sha256>.<ext>) on this site or on the configured image host; any other image (a paysite's
 * CDN, a tracker) is dropped, so a page never loads anything from a third party.
 */
import sanitizeHtml from 'sanitize-html';
import { config } from '../config.ts';
import { parseUrl } from '@shared/parse.ts';

const ARCHIVE_PATH = /^\/(?:data\/|thumbnail\/data\/)?[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}(?:\.[0-9a-z]{1,10})?$/i;

/** Whether an image source is one of the archive's own files (here or on `imageHost`). */
export function isArchiveImage(src: string | undefined, imageHost: string): boolean {
  if (!src) return false;
  if (src.startsWith('/') && !src.startsWith('//')) return ARCHIVE_PATH.test(src.split(/[?#]/)[0]);
  if (!imageHost) return false;
  const url = parseUrl(src);
  const host = parseUrl(imageHost);
  if (!url || !host) return false;
  return url.origin === host.origin && ARCHIVE_PATH.test(url.pathname);
}

function options(imageHost: string): sanitizeHtml.IOptions {
  return {
    allowedTags: [
      'p',
      'br',
      'hr',
      'span',
      'div',
      'a',
      'b',
      'strong',
      'i',
      'em',
      'u',
      's',
      'strike',
      'del',
      'sub',
      'sup',
      'small',
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'blockquote',
      'pre',
      'code',
      'ul',
      'ol',
      'li',
      'img',
      'figure',
      'figcaption',
      'table',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
      'ruby',
      'rt',
      'rp',
    ],
    allowedAttributes: {
      a: ['href', 'title', 'rel', 'target'],
      img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
      td: ['colspan', 'rowspan'],
      th: ['colspan', 'rowspan'],
    },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowProtocolRelative: false,
    transformTags: {
      a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow', target: '_blank' }),
      img: sanitizeHtml.simpleTransform('img', { loading: 'lazy' }),
    },
    exclusiveFilter: (frame) => frame.tag === 'img' && !isArchiveImage(frame.attribs.src, imageHost),
  };
}

let cached: { imageHost: string; options: sanitizeHtml.IOptions } | undefined;

/** `imageHost`: the configured image host (pages pass their settings'; the importer's default is the environment's). */
export function sanitizePostHtml(html: string | null | undefined, imageHost = config().imageHost): string {
  if (!html) return '';
  if (cached?.imageHost !== imageHost) cached = { imageHost, options: options(imageHost) };
  return sanitizeHtml(html, cached.options);
}
