/**
 * Looking creators and posts up through the public API for the device list
 * (docs/product.md#guest-favourites): the guest's favourite button keeps what the favourites pages
 * need, and a guest's import keeps only what the archive has, asked in bounded batches.
 */
import { parse } from 'csv-parse/browser/esm/sync';
import { apiPaths } from '@shared/api-paths.ts';
import {
  creatorRefKey,
  parseFavoritesText,
  postRefKey,
  type CreatorRef,
  type FavoritesImportReport,
  type PostRef,
} from '@shared/favorites-transfer.ts';
import type { FullPost } from '@shared/shapes/posts.ts';
import { ApiError, api } from './api-client.ts';
import { addDeviceFavorites, type NewDeviceCreator, type NewDevicePost } from './device-favorites.ts';

/** How many lookups a guest's import runs at once. */
export const LOOKUP_BATCH = 6;

interface Profile {
  id: string;
  name: string;
  service: string;
  updated: string;
}

/** null for a 404; other failures are thrown. */
async function unlessMissing<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** A creator as the device list keeps it, or null when the archive does not have it. */
export async function lookupCreator(service: string, id: string): Promise<NewDeviceCreator | null> {
  const found = await unlessMissing(api.v1.get<Profile>(apiPaths.creatorProfile(service, id)));
  return found ? { service: found.service, id: found.id, name: found.name, updated: found.updated, last_imported: null } : null;
}

/** A post as the device list keeps it (what its card shows), or null when the archive does not have it. */
export async function lookupPost(service: string, user: string, id: string): Promise<NewDevicePost | null> {
  const found = await unlessMissing(api.v1.get<{ post: FullPost }>(apiPaths.post(service, user, id)));
  if (!found) return null;
  const { post } = found;
  return {
    service: post.service,
    user: post.user,
    id: post.id,
    title: post.title,
    published: post.published,
    file: post.file,
    attachments: post.attachments.map((attachment) => ({ path: attachment.path })),
  };
}

/** Runs `work` over `items`, LOOKUP_BATCH at a time, keeping the order. */
async function inBatches<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let start = 0; start < items.length; start += LOOKUP_BATCH) {
    out.push(...(await Promise.all(items.slice(start, start + LOOKUP_BATCH).map(work))));
  }
  return out;
}

/**
 * Merges a favourites file into the device list: the same file rules as the API, then only the items
 * the archive has. Oldest first, as the API does it. @returns the report, or the file's problem as a string
 */
export async function importIntoDevice(text: string): Promise<FavoritesImportReport | string> {
  const parsed = parseFavoritesText(text, (csv) => parse(csv, { skip_empty_lines: true, bom: true }) as string[][]);
  if (!parsed.ok) return parsed.message;
  const { artists, posts, skipped } = parsed.refs;
  const creators = await inBatches([...artists].reverse(), async (ref: CreatorRef) => ({
    ref,
    found: await lookupCreator(ref.service, ref.id),
  }));
  const foundPosts = await inBatches([...posts].reverse(), async (ref: PostRef) => ({
    ref,
    found: await lookupPost(ref.service, ref.user, ref.id),
  }));
  const added = addDeviceFavorites(
    creators.flatMap(({ ref, found }) => (found ? [{ ...found, faved_at: ref.faved_at }] : [])),
    foundPosts.flatMap(({ ref, found }) => (found ? [{ ...found, faved_at: ref.faved_at }] : [])),
  );
  const missing = new Set([
    ...creators.filter((c) => !c.found).map((c) => creatorRefKey(c.ref)),
    ...foundPosts.filter((p) => !p.found).map((p) => postRefKey(p.ref)),
  ]);
  const known = creators.filter((c) => c.found).length + foundPosts.filter((p) => p.found).length;
  return {
    added: { artists: added.creators, posts: added.posts },
    unchanged: known - added.creators - added.posts,
    not_found: [...artists.map(creatorRefKey), ...posts.map(postRefKey)].filter((key) => missing.has(key)),
    skipped,
  };
}
