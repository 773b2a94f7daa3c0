/**
 * The supported paysites: one descriptor each (./<id>.ts, shape in ./types.ts), in the order every
 * paysite select offers them (the importer's first is its default), and the lookups the site and the
 * server use instead of lists of their own.
 */
import { afdian } from './afdian.ts';
import { boosty } from './boosty.ts';
import { candfans } from './candfans.ts';
import { discord } from './discord.ts';
import { dlsite } from './dlsite.ts';
import { fanbox } from './fanbox.ts';
import { fansly } from './fansly.ts';
import { fantia } from './fantia.ts';
import { gumroad } from './gumroad.ts';
import { onlyfans } from './onlyfans.ts';
import { patreon } from './patreon.ts';
import { subscribestar } from './subscribestar.ts';
import type { CreatorTab, PaysiteDescriptor } from './types.ts';

export type { CreatorTab, ImporterFieldName, KeyField, PaysiteDescriptor } from './types.ts';

/** Every paysite's descriptor, in the order of the paysite selects. */
export const PAYSITE_DESCRIPTORS = [
  patreon,
  fanbox,
  discord,
  fantia,
  afdian,
  boosty,
  gumroad,
  subscribestar,
  dlsite,
  fansly,
  onlyfans,
  candfans,
] as const;

type Ids<T extends readonly PaysiteDescriptor[]> = { readonly [K in keyof T]: T[K]['id'] };

/** The paysite ids, in the same order. */
export const PAYSITES = PAYSITE_DESCRIPTORS.map((d) => d.id) as unknown as Ids<typeof PAYSITE_DESCRIPTORS>;

export type Paysite = (typeof PAYSITES)[number];

const BY_ID = new Map<string, PaysiteDescriptor<Paysite>>(PAYSITE_DESCRIPTORS.map((d) => [d.id, d]));

export function isPaysite(value: unknown): value is Paysite {
  return typeof value === 'string' && BY_ID.has(value);
}

/** A paysite's descriptor. */
export function paysite(service: Paysite): PaysiteDescriptor<Paysite> {
  return BY_ID.get(service)!;
}

/** A service's label ('Pixiv Fanbox'), or the service itself when it is not a paysite. */
export function paysiteLabel(service: string): string {
  return BY_ID.get(service)?.label ?? service;
}

/** Whether a paysite's creators have the tab; false for a service that is not a paysite. */
export function hasTab(tab: CreatorTab, service: string): boolean {
  return BY_ID.get(service)?.tabs.includes(tab) ?? false;
}

/** Whether a post card of the service may take its thumbnail from an attachment when the file has none. */
export function takesAttachmentThumbnail(service: string): boolean {
  return BY_ID.get(service)?.attachmentThumbnail ?? false;
}

/** The creator's page on its paysite (the id is percent-encoded, so it cannot change the URL's shape). */
export function paysiteProfileUrl(service: Paysite, creatorId: string): string {
  return paysite(service).profileUrl(encodeURIComponent(creatorId));
}
