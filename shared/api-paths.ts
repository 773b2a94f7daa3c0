/**
 * The API paths the site's browser code calls (islands and src/client), each built from the template
 * of the server route it calls, with the methods used on it. They are paths under /api/v1, which the
 * API client (`api.v1`) puts in front; `apiUrl` does it for the calls made without the client.
 * tests/shared/api-paths.test.ts checks every template and method against the routes the server
 * declares, so a builder and its route cannot drift apart.
 */
import { pathTemplate, type TemplateArgs } from './path-template.ts';

export type ApiPathMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export const API_V1_BASE = '/api/v1';

export interface ApiPath<T extends string> {
  (...args: TemplateArgs<T>): string;
  /** The server route's path, as it declares it. */
  readonly template: T;
  /** The methods the site calls it with. */
  readonly methods: readonly ApiPathMethod[];
}

function v1<const T extends string>(template: T, ...methods: ApiPathMethod[]): ApiPath<T> {
  const { url } = pathTemplate(template);
  return Object.assign((...args: TemplateArgs<T>) => url(...args), { template, methods });
}

export const apiPaths = {
  login: v1('/authentication/login', 'POST'),
  register: v1('/authentication/register', 'POST'),
  logout: v1('/authentication/logout', 'POST'),
  account: v1('/account', 'GET'),
  changePassword: v1('/account/change_password', 'POST'),
  accountKeys: v1('/account/keys', 'POST'),
  /** A signed-in account's favourites (`type=artist` or `type=post`). */
  accountFavorites: v1('/account/favorites', 'GET'),
  /** The account's favourites as one file (`format=json` or `csv`), and the merge of an uploaded one. */
  favoritesExport: v1('/account/favorites/export', 'GET'),
  favoritesImport: v1('/account/favorites/import', 'POST'),
  /** A creator's profile and one post: a guest's favourite button and import look them up, the hidden items page names creators. */
  creatorProfile: v1('/{service}/user/{id}/profile', 'GET'),
  post: v1('/{service}/user/{id}/post/{post}', 'GET'),
  favoriteCreator: v1('/favorites/creator/{service}/{id}', 'POST', 'DELETE'),
  favoritePost: v1('/favorites/post/{service}/{user}/{id}', 'POST', 'DELETE'),
  /** New posts of the favourite creators since the last visit, counted (the sidebar). */
  favoritesNewCount: v1('/account/favorites/new/count', 'GET'),
  /** The personal feed's secret link: POST makes a new one, DELETE turns the feed off. */
  favoritesFeed: v1('/account/favorites/feed', 'POST', 'DELETE'),
  /** The signed-in account's hidden creators and tags, and hiding or showing one again. */
  accountHidden: v1('/account/hidden', 'GET'),
  hiddenCreator: v1('/account/hidden/creator/{service}/{id}', 'POST', 'DELETE'),
  hiddenTag: v1('/account/hidden/tag/{tag}', 'POST', 'DELETE'),
  randomPost: v1('/posts/random', 'GET'),
  randomCreator: v1('/artists/random', 'GET'),
  postFlag: v1('/{service}/user/{id}/post/{post}/flag', 'GET', 'POST'),
  creatorsTxt: v1('/creators.txt', 'GET'),
  creatorLinks: v1('/{service}/user/{id}/links', 'DELETE'),
  newCreatorLink: v1('/{service}/user/{id}/links/new', 'POST'),
  linkRequests: v1('/account/moderator/tasks/creator_links', 'GET'),
  approveLinkRequest: v1('/account/moderator/creator_link_requests/{id}/approve', 'POST'),
  rejectLinkRequest: v1('/account/moderator/creator_link_requests/{id}/reject', 'POST'),
  moderatorFlags: v1('/account/moderator/flags', 'GET'),
  moderatorFlag: v1('/account/moderator/flags/{service}/{user}/{post}', 'DELETE'),
  accountRole: v1('/account/administrator/account/{id}', 'PATCH'),
  takedownCreator: v1('/admin/takedown/{service}/user/{id}', 'POST'),
  takedownPost: v1('/admin/takedown/{service}/user/{id}/post/{post}', 'POST'),
  doNotPost: v1('/admin/do_not_post', 'GET'),
  doNotPostEntry: v1('/admin/do_not_post/{entry}', 'DELETE'),
  reviewDms: v1('/account/review_dms', 'POST'),
  hasPendingDms: v1('/has_pending_dms', 'GET'),
  archiveFile: v1('/file/{hash}', 'PATCH'),
  searchHash: v1('/search_hash/{hash}', 'GET'),
  importerSubmit: v1('/importer/submit', 'POST'),
  importStatus: v1('/imports/{id}', 'GET'),
  adminImports: v1('/admin/imports', 'GET'),
  adminImportRetry: v1('/admin/imports/{id}/retry', 'POST'),
  adminImportCancel: v1('/admin/imports/{id}/cancel', 'POST'),
  sharesUpload: v1('/shares/upload', 'GET', 'POST'),
} as const;

/** A path of apiPaths as a URL on this site, for a call made without the API client. */
export function apiUrl(path: string): string {
  return `${API_V1_BASE}${path}`;
}
