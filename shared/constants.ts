/** Business constants (docs/product.md#constants-and-limits), defined once. */
export const PAGE_SIZE = 50;
export const CHAT_PAGE_SIZE = 150;
export const CHAT_GROUP_GAP_MS = 450_000;
export const PAGINATION_MAX_LINKS = 11;
export const SIDEBAR_BREAKPOINT_PX = 1020;
export const POST_TITLE_MAX = 50;
export const SEARCH_MIN_POSTS = 2;
export const SEARCH_MIN_DMS = 3;
export const DEBOUNCE_ARTISTS_MS = 500;
export const DEBOUNCE_CREATOR_MS = 1000;
export const IMPORT_POLL_MS = 15_000;
export const KEY_MAX_LENGTH = 1024;
export const LINK_REASON_MAX = 140;
export const LINK_CANDIDATES_MAX = 20;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 15;
export const PASSWORD_MIN = 5;
export const HASH_CHUNK_BYTES = 1024 * 1024;
export const CARD_SIZE_DEFAULT = 180;
export const THUMB_COOKIE_DAYS = 399;
export const CLIENT_CACHE_MS = 5 * 60 * 1000;
export const FETCH_RETRIES = 3;
export const FETCH_BACKOFF_START_MS = 1000;
export const FETCH_BACKOFF_MAX_MS = 30_000;
export const AUTO_IMPORT_INTERVAL_HOURS = 24;
/** Feature flags of the layout shell (docs/product.md#statuses-and-flags). */
export const FLAGS = { filehaus: false, dms: true } as const;
/** localStorage keys the client keeps (docs/product.md#client-side-storage). */
export const STORAGE_KEYS = {
  loggedIn: 'logged_in',
  role: 'role',
  favs: 'favs',
  postFavs: 'post_favs',
  sidebar: 'sidebar_state',
  /** A guest's favourites on this device (src/client/device-favorites.ts). */
  deviceFavs: 'guest_favorites',
} as const;
/**
 * The device's hidden lists (shared/hiding.ts): a guest's own, and a signed-in account's copy of its
 * server list. Here rather than beside the hiding rules so that the shell's script reads them without
 * the paysite list those rules need.
 */
export const HIDING_STORAGE_KEYS = { guest: 'hidden_items', account: 'hidden_items_account' } as const;
/**
 * Share uploads ('Filehaus', POST /api/v1/shares/upload). The spec names no figures; these are ours
 * (docs/decisions.md). The upload form checks them before sending, the server enforces them.
 */
export const SHARE_UPLOAD_LIMITS = {
  maxFileBytes: 200 * 1024 * 1024,
  maxFiles: 20,
  maxTotalBytes: 1024 * 1024 * 1024,
  nameMax: 200,
  descriptionMax: 5000,
  filenameMax: 255,
} as const;
/**
 * Accounts (docs/decisions.md, "Accounts and sessions"). Sessions last SESSION_DAYS from login. Login
 * and registration are rate limited before any password hashing: every login attempt counts against
 * the address; only failed logins count against the username (a success clears them).
 */
export const SESSION_DAYS = 30;
export const AUTH_RATE_LIMITS = {
  loginPerAddress: { points: 20, seconds: 60 },
  loginFailuresPerUsername: { points: 5, seconds: 15 * 60 },
  registrationPerAddress: { points: 5, seconds: 60 * 60 },
} as const;
/** The guest's favourites cookie: comma-separated service:id pairs, sent as favorites_json on registration. */
export const GUEST_FAVORITES_COOKIE = 'favorites';
/**
 * Import submissions (POST /api/v1/importer/submit), counted after validation: the spec names no
 * figures; these are ours (docs/decisions.md). Anonymous imports are allowed, so the address limit is
 * what protects the queue; the account limit stops one account spreading over many addresses.
 */
export const IMPORT_RATE_LIMITS = {
  perAddress: { points: 10, seconds: 10 * 60 },
  perAccount: { points: 10, seconds: 10 * 60 },
} as const;

/** Similar creators shown on a creator's page (the API answers up to SIMILAR_LIMITS.topK). */
export const SIMILAR_PAGE_CARDS = 8;
