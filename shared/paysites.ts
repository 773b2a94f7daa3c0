/** The supported paysites, in the order the importer offers them (the first is the default). */
export const PAYSITES = [
  'patreon',
  'fanbox',
  'discord',
  'fantia',
  'afdian',
  'boosty',
  'gumroad',
  'subscribestar',
  'dlsite',
  'fansly',
  'onlyfans',
  'candfans',
] as const;

export type Paysite = (typeof PAYSITES)[number];

export const PAYSITE_LABELS: Record<Paysite, string> = {
  patreon: 'Patreon',
  fanbox: 'Pixiv Fanbox',
  discord: 'Discord',
  fantia: 'Fantia',
  afdian: 'Afdian',
  boosty: 'Boosty',
  gumroad: 'Gumroad',
  subscribestar: 'SubscribeStar',
  dlsite: 'DLsite',
  fansly: 'Fansly',
  onlyfans: 'OnlyFans',
  candfans: 'CandFans',
};

/** A service's label ('Pixiv Fanbox'), or the service itself when it is not a paysite. */
export function paysiteLabel(service: string): string {
  return isPaysite(service) ? PAYSITE_LABELS[service] : service;
}

export function isPaysite(value: unknown): value is Paysite {
  return typeof value === 'string' && (PAYSITES as readonly string[]).includes(value);
}

/** Creator tabs that exist only for some paysites (SPEC.md section 2, creator profile). */
export const TABS_BY_PAYSITE = {
  fancards: ['fanbox'],
  announcements: ['fanbox', 'patreon'],
  tags: ['fanbox', 'patreon', 'onlyfans', 'fansly', 'candfans'],
} as const satisfies Record<string, readonly Paysite[]>;

/** Whether a paysite's creators have the tab (one of TABS_BY_PAYSITE). */
export function hasTab(tab: keyof typeof TABS_BY_PAYSITE, service: string): boolean {
  return (TABS_BY_PAYSITE[tab] as readonly string[]).includes(service);
}

/** Paysites whose post-card thumbnail may come from an attachment when the file has none. */
export const ATTACHMENT_THUMBNAIL_PAYSITES: readonly Paysite[] = ['fansly', 'candfans', 'boosty', 'gumroad'];

/**
 * The creator's own page on its paysite, linked from the creator header's service icon. Ids are the
 * paysites' own: numeric user ids (patreon, fanbox, fantia, gumroad, fansly, candfans), user names
 * (boosty, subscribestar, onlyfans), afdian's hex user id, DLsite maker ids (RG...), Discord server ids.
 */
const PAYSITE_PROFILE_URLS: Record<Paysite, (id: string) => string> = {
  patreon: (id) => `https://www.patreon.com/user?u=${id}`,
  fanbox: (id) => `https://www.pixiv.net/fanbox/creator/${id}`,
  discord: (id) => `https://discord.com/channels/${id}`,
  fantia: (id) => `https://fantia.jp/fanclubs/${id}`,
  afdian: (id) => `https://afdian.com/u/${id}`,
  boosty: (id) => `https://boosty.to/${id}`,
  gumroad: (id) => `https://gumroad.com/${id}`,
  subscribestar: (id) => `https://subscribestar.adult/${id}`,
  dlsite: (id) => `https://www.dlsite.com/eng/circle/profile/=/maker_id/${id}.html`,
  fansly: (id) => `https://fansly.com/${id}/posts`,
  onlyfans: (id) => `https://onlyfans.com/${id}`,
  candfans: (id) => `https://candfans.jp/${id}`,
};

/** The creator's page on its paysite (the id is percent-encoded, so it cannot change the URL's shape). */
export function paysiteProfileUrl(service: Paysite, creatorId: string): string {
  return PAYSITE_PROFILE_URLS[service](encodeURIComponent(creatorId));
}
