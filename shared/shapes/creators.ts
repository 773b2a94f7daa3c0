/** Creator shapes shared by the data module (api/data/creators.ts) and the site. Types only. */

/**
 * The fields every creator shape shares. D is how indexed/updated are given: epoch seconds as stored,
 * or ISO dates in the profile, link, favourite and DM answers (withIsoDates).
 */
export interface CreatorFields<D = number> {
  id: string;
  name: string;
  service: string;
  indexed: D;
  updated: D;
  public_id: string | null;
  relation_id: number | null;
}

/** A creator row as the data modules return it. */
export interface Creator extends CreatorFields {
  has_chats: boolean;
  last_imported: number | null;
}
