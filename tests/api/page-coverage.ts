/**
 * Every page file of src/pages, with a URL that reaches it and who may see it. The page permission
 * test (tests/api/page-permissions.test.ts) fails when a page file is missing here, so a new page comes
 * with its access rule. 'public' pages may still answer 400/404 for the sample URL (no data behind it);
 * they must never answer 401 or 403.
 */
import type { Access } from '../../api/http/session.ts';

/** `status`: the page's own answer when it is not a 2xx/3xx/4xx of its data (the error page itself). */
export const PAGE_COVERAGE: Record<string, { url: string; access: Access; status?: number }> = {
  'src/pages/404.astro': { url: '/no-such-page', access: 'public' },
  'src/pages/500.astro': { url: '/500', access: 'public', status: 500 },
  'src/pages/[page].astro': { url: '/contact', access: 'public' },
  'src/pages/[service]/post/[post].astro': { url: '/patreon/post/1', access: 'public' },
  'src/pages/[service]/user/[id]/announcements.astro': { url: '/patreon/user/1/announcements', access: 'public' },
  'src/pages/[service]/user/[id]/dms.astro': { url: '/patreon/user/1/dms', access: 'public' },
  'src/pages/[service]/user/[id]/fancards.astro': { url: '/fanbox/user/1/fancards', access: 'public' },
  'src/pages/[service]/user/[id]/index.astro': { url: '/patreon/user/1', access: 'public' },
  'src/pages/[service]/user/[id]/links.astro': { url: '/patreon/user/1/links', access: 'public' },
  'src/pages/[service]/user/[id]/post/[post].astro': { url: '/patreon/user/1/post/1', access: 'public' },
  'src/pages/[service]/user/[id]/post/[post]/revision/[revision].astro': { url: '/patreon/user/1/post/1/revision/1', access: 'public' },
  'src/pages/[service]/user/[id]/post/[post]/revision/index.astro': { url: '/patreon/user/1/post/1/revision/', access: 'public' },
  'src/pages/[service]/user/[id]/shares.astro': { url: '/patreon/user/1/shares', access: 'public' },
  'src/pages/[service]/user/[id]/tags.astro': { url: '/patreon/user/1/tags', access: 'public' },
  'src/pages/account/posts/upload.astro': { url: '/account/posts/upload', access: 'public' },
  'src/pages/artists/index.astro': { url: '/artists', access: 'public' },
  'src/pages/artists/random.astro': { url: '/artists/random', access: 'public' },
  'src/pages/artists/updated.astro': { url: '/artists/updated', access: 'public' },
  'src/pages/dms.astro': { url: '/dms', access: 'public' },
  'src/pages/documentation/api.astro': { url: '/documentation/api', access: 'public' },
  'src/pages/file/[hash].astro': { url: `/file/${'a'.repeat(64)}`, access: 'public' },
  'src/pages/file/index.astro': { url: '/file/', access: 'public' },
  'src/pages/importer/[page].astro': { url: '/importer/faq', access: 'public' },
  'src/pages/importer/keys/[service].astro': { url: '/importer/keys/patreon', access: 'public' },
  'src/pages/importer/tutorial.astro': { url: '/importer/tutorial', access: 'public' },
  'src/pages/index.astro': { url: '/', access: 'public' },
  'src/pages/posts/archives/[hash].astro': { url: `/posts/archives/${'a'.repeat(64)}`, access: 'public' },
  'src/pages/posts/index.astro': { url: '/posts', access: 'public' },
  'src/pages/posts/popular.astro': { url: '/posts/popular', access: 'public' },
  'src/pages/posts/random.astro': { url: '/posts/random', access: 'public' },
  'src/pages/posts/tags.astro': { url: '/posts/tags', access: 'public' },
  'src/pages/posts/upload.astro': { url: '/posts/upload', access: 'public' },
  'src/pages/search_hash.astro': { url: '/search_hash', access: 'public' },
  'src/pages/share/[id].astro': { url: '/share/1', access: 'public' },
  'src/pages/shares.astro': { url: '/shares', access: 'public' },
};
