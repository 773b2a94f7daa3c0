/** Flagged posts as the moderators' page shows them; api/data/flags.ts reads them. Types only. */

export interface FlaggedPost {
  service: string;
  user: string;
  id: string;
  title: string;
  creator_name: string | null;
  /** The latest flag's time (ISO). */
  flagged_at: string;
  flag_count: number;
  /** The distinct reasons given, newest first. */
  reasons: string[];
}
