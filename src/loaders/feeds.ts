/**
 * The feed endpoints (docs/product.md#feeds): each resolves what its URL names the way the page it
 * follows does (a removed creator is 410, an unknown one or tag 404, a public id redirects) and answers
 * the XML of api/feeds/archive.ts. The front server keeps the 200s in the page store like pages.
 */
import type { SiteDeps } from './deps.ts';
import { resolveCreator } from './archive.ts';
import { badRequest, notFound, ok, type PageOutcome } from './outcome.ts';
import { firstIssueMessage } from '@shared/validation/rules.ts';
import { creatorDmsFeed, creatorPostsFeed, popularFeed, recentPostsFeed, tagFeed } from '@api/feeds/archive.ts';
import { FEED_CONTENT_TYPES, FEED_FORMATS, type FeedFormat } from '@api/feeds/render.ts';
import { tagExists } from '@api/data/tags.ts';
import { paysite } from '@shared/paysites/index.ts';
import { FEED_FILES } from '@shared/urls.ts';
import { popularPeriod } from '@shared/validation/popular.ts';

interface Feed {
  format: FeedFormat;
  xml: string;
}

function formatOf(raw: string | undefined): FeedFormat | undefined {
  return (FEED_FORMATS as readonly string[]).includes(raw ?? '') ? (raw as FeedFormat) : undefined;
}

export async function loadCreatorFeed(
  deps: SiteDeps,
  params: { service?: string; id?: string; format?: string },
): Promise<PageOutcome<Feed>> {
  const format = formatOf(params.format);
  if (!format) return notFound;
  const resolved = await resolveCreator(deps, params.service, params.id, `/${FEED_FILES[format]}`);
  if (resolved.kind !== 'ok') return resolved;
  const { creator, service } = resolved.data;
  if (service === 'discord') return notFound;
  return ok({ format, xml: await creatorPostsFeed(deps.db, deps.config, { ...creator, service }, format) });
}

export async function loadCreatorDmsFeed(
  deps: SiteDeps,
  params: { service?: string; id?: string; format?: string },
): Promise<PageOutcome<Feed>> {
  const format = formatOf(params.format);
  if (!format) return notFound;
  const resolved = await resolveCreator(deps, params.service, params.id, `/dms/${FEED_FILES[format]}`);
  if (resolved.kind !== 'ok') return resolved;
  const { creator, service } = resolved.data;
  // Only paysites whose importer brings DMs have them to follow.
  if (!paysite(service).dms) return notFound;
  return ok({ format, xml: await creatorDmsFeed(deps.db, deps.config, { ...creator, service }, format) });
}

export async function loadTagFeed(deps: SiteDeps, params: { tag?: string; format?: string }): Promise<PageOutcome<Feed>> {
  const format = formatOf(params.format);
  if (!format || !params.tag || !(await tagExists(deps.db, params.tag))) return notFound;
  return ok({ format, xml: await tagFeed(deps.db, deps.config, params.tag, format) });
}

export async function loadRecentPostsFeed(deps: SiteDeps, params: { format?: string }): Promise<PageOutcome<Feed>> {
  const format = formatOf(params.format);
  if (!format) return notFound;
  return ok({ format, xml: await recentPostsFeed(deps.db, deps.config, format) });
}

export async function loadPopularFeed(deps: SiteDeps, params: { format?: string }, search: URLSearchParams): Promise<PageOutcome<Feed>> {
  const format = formatOf(params.format);
  if (!format) return notFound;
  const period = popularPeriod.safeParse(search.get('period') ?? undefined);
  if (!period.success) return badRequest(firstIssueMessage(period.error));
  return ok({ format, xml: await popularFeed(deps.db, deps.config, period.data, format) });
}

const TEXT = { 'Content-Type': 'text/plain; charset=utf-8' };

/**
 * A feed outcome as the endpoint's response: the XML with its format's type, or a short plain-text
 * answer (feed readers show the status, not a page): 404, 410 (not cached, like the pages), a redirect.
 */
export function feedResponse(outcome: PageOutcome<Feed>): Response {
  switch (outcome.kind) {
    case 'ok':
      return new Response(outcome.data.xml, { status: 200, headers: { 'Content-Type': FEED_CONTENT_TYPES[outcome.data.format] } });
    case 'redirect':
      return new Response(null, { status: outcome.status, headers: { Location: outcome.location } });
    case 'gone':
      return new Response(outcome.message, { status: 410, headers: { ...TEXT, 'Cache-Control': 'no-store' } });
    case 'bad-request':
      return new Response(outcome.message, { status: 400, headers: TEXT });
    case 'denied':
      return new Response(outcome.message, { status: outcome.status, headers: TEXT });
    default:
      return new Response('No such feed.', { status: 404, headers: TEXT });
  }
}
