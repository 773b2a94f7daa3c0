/**
 * What the browser and the server both know about a paysite: one descriptor per paysite in
 * shared/paysites/<id>.ts, listed in shared/paysites/index.ts. Browser-safe: no zod, no node imports
 * (every island that names a paysite loads these files).
 */

/**
 * The inputs of the importer form and of POST /api/v1/importer/submit (the names outside clients send):
 * session_key, auth_id, x-bc, user_agent, channel_ids. A new name also goes in the submission schema's
 * OpenAPI description (shared/importer.ts).
 */
export type ImporterFieldName = 'session_key' | 'auth_id' | 'x-bc' | 'user_agent' | 'channel_ids';

/** Creator tabs that exist only for some paysites (the others every creator has). */
export type CreatorTab = 'fancards' | 'announcements' | 'tags';

/** One input of the importer form with its rule (the same rule runs in the form and on the server). */
export interface KeyField {
  name: ImporterFieldName;
  label: string;
  /** Help shown under the input. */
  hint?: string;
  /** The input's maxlength. */
  maxLength: number;
  /** The message when the input is empty or only spaces. */
  requiredMessage: string;
  /**
   * The rule over the trimmed, non-empty value: returns the value to submit (possibly normalised) or
   * calls fail(message) of ./key-rules.ts with the message the user sees.
   */
  check(value: string): string;
}

export interface PaysiteDescriptor<Id extends string = string> {
  /** The service id in URLs, the API and the database ('patreon'). */
  id: Id;
  /** The name shown to people ('Pixiv Fanbox'). */
  label: string;
  /** The creator's own page on the paysite, from the creator id already percent-encoded. */
  profileUrl(encodedCreatorId: string): string;
  /** The paysite-specific tabs its creators have. */
  tabs: readonly CreatorTab[];
  /** Whether a post card may take its thumbnail from an image attachment when the post's file is none. */
  attachmentThumbnail: boolean;
  /** The importer form's inputs for this paysite, the session key first. */
  keyFields: readonly [KeyField, ...KeyField[]];
  /** Whether the importer offers the include-DMs option (signed-in users only). */
  dms: boolean;
}

/** Declares a descriptor, keeping its id's literal type (the Paysite union is made of them). */
export function definePaysite<const Id extends string>(descriptor: PaysiteDescriptor<Id>): PaysiteDescriptor<Id> {
  return descriptor;
}
