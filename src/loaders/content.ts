/**
 * Mirrored post HTML as pages show it: sanitized again when rendered (api/content/sanitize.ts), with the
 * site's image host, so the archive's images on that host are kept. Server side only.
 */
import { sanitizePostHtml } from '@api/content/sanitize.ts';
import type { SiteDeps } from './deps.ts';

export function postHtml(deps: SiteDeps, html: string | null | undefined): string {
  return sanitizePostHtml(html, deps.config.imageHost);
}
