/**
 * What pages render with: the archive database and the settings, handed to the Astro SSR handler by its
 * caller as `locals.site` (api/server/ssr.ts) the way the API gets them from createApp(deps). A page does
 * `const deps = siteDeps(Astro)` and passes `deps` to its loader; components that need a setting take it
 * from the same helper or from props. Server side only.
 */
import type { Store } from '@api/data/store.ts';
import { readConfig } from '@api/config.ts';
import type { SiteDeps } from '@api/server/ssr.ts';

export type { SiteDeps };

interface AstroLike {
  locals: App.Locals;
  isPrerendered: boolean;
}

const NO_DATABASE: Store = new Proxy({} as Store, {
  get() {
    throw new Error('A prerendered page has no database: only pages rendered on demand read the archive.');
  },
});

export function siteDeps(astro: AstroLike): SiteDeps {
  if (astro.locals.site) return astro.locals.site;
  // Prerendered text pages are rendered by `astro build`, with no server and so no locals: they get the
  // build's configuration (the environment `astro build` runs in) and no database.
  if (astro.isPrerendered) return { db: NO_DATABASE, config: readConfig(process.env) };
  throw new Error('The SSR handler was called without locals.site (the database and settings pages render with).');
}
