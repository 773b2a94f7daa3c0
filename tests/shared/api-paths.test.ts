/** The site's API path builders against the routes the server declares: same method, version and template. */
import { describe, expect, it } from 'vitest';
import { API_V1_BASE, apiPaths, apiUrl } from '@shared/api-paths.ts';
import { pathTemplate } from '@shared/path-template.ts';
import { versionBase } from '@api/http/route.ts';
import { ROUTE_GROUPS } from '@api/routes/index.ts';
import { NEWS_COUNT_PATH, PENDING_DMS_PATH } from '@site/islands/shell/sidebar-account.ts';

const declared = ROUTE_GROUPS.flatMap((group) =>
  group.routes.flatMap((route) => route.versions.map((version) => `${route.method.toUpperCase()} ${versionBase(version)}${route.path}`)),
);

/** A builder called with a sample value per parameter (with characters that need encoding). */
function sample(builder: (typeof apiPaths)[keyof typeof apiPaths]): string {
  const names = [...builder.template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  return (builder as (...args: string[]) => string)(...names.map((name) => `${name} 1/?`));
}

describe('apiPaths', () => {
  for (const [name, builder] of Object.entries(apiPaths)) {
    it(`${name}: ${builder.methods.join(', ')} ${builder.template} is a declared v1 route`, () => {
      expect(builder.methods.length).toBeGreaterThan(0);
      for (const method of builder.methods) expect(declared).toContain(`${method} ${API_V1_BASE}${builder.template}`);
      // What the builder makes is a path of that route's shape, each parameter one segment.
      const segments = sample(builder).split('/').slice(1).map(decodeURIComponent);
      const params: Record<string, string> | undefined = pathTemplate(builder.template).match(segments);
      expect(params).toBeDefined();
      for (const [param, value] of Object.entries(params ?? {})) expect(value).toBe(`${param} 1/?`);
    });
  }

  it('builds the paths the islands call, percent-encoding each part', () => {
    expect(apiPaths.postFlag('patreon', '9', 'a/b')).toBe('/patreon/user/9/post/a%2Fb/flag');
    expect(apiPaths.favoritePost('fanbox', '9', '77')).toBe('/favorites/post/fanbox/9/77');
    expect(apiPaths.favoriteCreator('fanbox', 'a b')).toBe('/favorites/creator/fanbox/a%20b');
    expect(apiPaths.accountRole(12)).toBe('/account/administrator/account/12');
    expect(apiPaths.approveLinkRequest(3)).toBe('/account/moderator/creator_link_requests/3/approve');
    expect(apiPaths.creatorsTxt()).toBe('/creators.txt');
    expect(apiUrl(apiPaths.hasPendingDms())).toBe('/api/v1/has_pending_dms');
  });

  it("agrees with the shell's own copy of the pending DMs path", () => {
    expect(PENDING_DMS_PATH).toBe(apiUrl(apiPaths.hasPendingDms()));
  });

  it("agrees with the shell's own copy of the new-favourites count path", () => {
    expect(NEWS_COUNT_PATH).toBe(apiUrl(apiPaths.favoritesNewCount()));
  });
});
