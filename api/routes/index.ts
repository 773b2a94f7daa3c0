/**
 * Every area's routes, in mounting order. Adding an area is one line here (and its file in this
 * folder, exporting `defineRoutes('<area>', [...])` as default).
 */
import type { RouteGroup } from '../http/route.ts';
import meta from './meta.ts';
import creators from './creators.ts';
import posts from './posts.ts';
import dms from './dms.ts';
import files from './files.ts';
import shares from './shares.ts';
import favorites from './favorites.ts';
import favoritesNews from './favorites-news.ts';
import flags from './flags.ts';
import linkRequests from './link-requests.ts';
import accountsAdmin from './accounts-admin.ts';
import accounts from './accounts.ts';
import importer from './importer.ts';
import keys from './keys.ts';
import admin from './admin.ts';
import audit from './audit.ts';
import importsAdmin from './imports-admin.ts';
import discord from './discord.ts';
import community from './community.ts';
import takedowns from './takedowns.ts';
import similar from './similar.ts';
import hiding from './hiding.ts';

export const ROUTE_GROUPS: readonly RouteGroup[] = [
  meta,
  creators,
  posts,
  dms,
  files,
  shares,
  favorites,
  favoritesNews,
  flags,
  linkRequests,
  accountsAdmin,
  accounts,
  importer,
  keys,
  admin,
  audit,
  importsAdmin,
  discord,
  community,
  takedowns,
  similar,
  hiding,
];
