/**
 * Each API route (method and full path, as declared) and the test file that exercises it. The
 * permission matrix test fails when a declared route is missing here, so a new route comes with its test.
 */
export const ROUTE_COVERAGE: Record<string, string> = {
  'GET /api/v1/app_version': 'tests/api/app.test.ts',
  'GET /api/schema': 'tests/api/app.test.ts',
  'GET /api/v1/creators.txt': 'tests/api/routes/creators.test.ts',
  'GET /api/v1/creators': 'tests/api/routes/creators.test.ts',
  'GET /api/v1/{service}/user/{id}/profile': 'tests/api/routes/creators.test.ts',
  'GET /api/v1/artists/random': 'tests/api/routes/creators.test.ts',
  'GET /api/v1/{service}/user/{id}/links': 'tests/api/routes/creators.test.ts',
  'GET /api/v1/{service}/user/{id}/announcements': 'tests/api/routes/creators.test.ts',
  'GET /api/v1/{service}/user/{id}/fancards': 'tests/api/routes/creators.test.ts',
  'GET /api/v1/{service}/user/{id}/tags': 'tests/api/routes/creators.test.ts',
  'GET /api/v1/shares': 'tests/api/routes/shares.test.ts',
  'GET /api/v1/share/{id}': 'tests/api/routes/shares.test.ts',
  'GET /api/v1/{service}/user/{id}/shares': 'tests/api/routes/shares.test.ts',
  'GET /api/v1/shares/upload': 'tests/api/routes/shares.test.ts',
  'POST /api/v1/shares/upload': 'tests/api/routes/shares.test.ts',
  'GET /api/v1/{service}/user/{id}/posts': 'tests/api/routes/posts.test.ts',
  'GET /api/v1/{service}/user/{id}/posts-legacy': 'tests/api/routes/posts.test.ts',
  'GET /api/v1/{service}/user/{id}/post/{post}': 'tests/api/routes/posts.test.ts',
  'GET /api/v1/{service}/user/{id}/post/{post}/revisions': 'tests/api/routes/posts.test.ts',
  'GET /api/v1/{service}/user/{id}/post/{post}/revision/{revision}': 'tests/api/routes/posts.test.ts',
  'GET /api/v1/{service}/user/{id}/post/{post}/comments': 'tests/api/routes/posts.test.ts',
  'GET /api/v1/{service}/post/{post}': 'tests/api/routes/posts.test.ts',
  'GET /api/v1/posts': 'tests/api/routes/posts.test.ts',
  'GET /api/v1/posts/random': 'tests/api/routes/posts.test.ts',
  'GET /api/v1/posts/tags': 'tests/api/routes/posts.test.ts',
  'GET /api/v1/{service}/user/{id}/dms': 'tests/api/routes/dms.test.ts',
  'GET /api/v1/dms': 'tests/api/routes/dms.test.ts',
  'GET /api/v1/has_pending_dms': 'tests/api/routes/dms.test.ts',
};
