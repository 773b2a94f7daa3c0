/**
 * Works out which stored pages a batch of change-log rows affects. The cost grows with the change
 * (the touched creators' pages and a fixed number of global pages), never with the archive's size.
 */
import type { Db } from '../data/db.ts';
import { countCreatorPosts, getPost, iterateCreatorPostIds } from '../data/posts.ts';
import type { ChangeRow } from '../data/changes.ts';
import { PAGE_SIZE } from '../../src/lib/constants.ts';
import { creatorUrl, postUrl } from '../../src/lib/urls.ts';
import { GLOBAL_LISTING_STORED_PAGES, pageKey } from './keys.ts';

export interface AffectedPages {
  /** Keys to render again (a render that is no longer a 200 removes the stored page). */
  render: Set<string>;
  /** Paged listings whose stored pages past the last offset must be removed: path → last offset. */
  listings: Map<string, number>;
}

export function emptyAffected(): AffectedPages {
  return { render: new Set(), listings: new Map() };
}

/** Every page of a paged listing with `count` items, and a note to prune deeper stored pages. */
export function addListing(affected: AffectedPages, pathname: string, count: number, maxPages = Infinity): void {
  const pages = Math.min(Math.max(1, Math.ceil(count / PAGE_SIZE)), maxPages);
  for (let page = 0; page < pages; page += 1) affected.render.add(pageKey(pathname, page * PAGE_SIZE));
  affected.listings.set(pathname, (pages - 1) * PAGE_SIZE);
}

function addGlobalPages(db: Db, affected: AffectedPages): void {
  addListing(affected, '/posts', GLOBAL_LISTING_STORED_PAGES * PAGE_SIZE, GLOBAL_LISTING_STORED_PAGES);
  addListing(affected, '/artists/updated', GLOBAL_LISTING_STORED_PAGES * PAGE_SIZE, GLOBAL_LISTING_STORED_PAGES);
  affected.render.add('/posts/tags');
  void db;
}

function addCreatorPages(db: Db, affected: AffectedPages, service: string, creatorId: string): void {
  const base = creatorUrl(service, creatorId);
  addListing(affected, base, countCreatorPosts(db, service, creatorId));
  affected.render.add(pageKey(`${base}/tags`));
}

export function affectedByChanges(db: Db, changes: ChangeRow[]): AffectedPages {
  const affected = emptyAffected();
  const creators = new Set<string>();
  const wholeCreators = new Set<string>();
  for (const change of changes) {
    if (!change.service || !change.creator_id) continue;
    const creatorKey = `${change.service}\u0000${change.creator_id}`;
    if (change.kind === 'creator') {
      creators.add(creatorKey);
    } else if (change.kind === 'post' && change.post_id) {
      creators.add(creatorKey);
      affected.render.add(pageKey(postUrl(change.service, change.creator_id, change.post_id)));
      const post = change.action === 'delete' ? undefined : getPost(db, change.service, change.creator_id, change.post_id);
      if (post) {
        // The post's neighbours show it as their prev/next.
        if (post.next) affected.render.add(pageKey(postUrl(change.service, change.creator_id, post.next)));
        if (post.prev) affected.render.add(pageKey(postUrl(change.service, change.creator_id, post.prev)));
      } else {
        // A removed post leaves no trace of its neighbours: refresh every post of the creator.
        wholeCreators.add(creatorKey);
      }
    }
  }
  for (const creatorKey of creators) {
    const [service, creatorId] = creatorKey.split('\u0000');
    addCreatorPages(db, affected, service, creatorId);
  }
  for (const creatorKey of wholeCreators) {
    const [service, creatorId] = creatorKey.split('\u0000');
    for (const postId of iterateCreatorPostIds(db, service, creatorId)) {
      affected.render.add(pageKey(postUrl(service, creatorId, postId)));
    }
  }
  if (changes.length > 0) addGlobalPages(db, affected);
  return affected;
}
