/** Post shapes the site renders (cards, comments) and the API answers; api/data/posts.ts reads and writes them. Types only. */

export interface PostFileRef {
  name: string | null;
  path: string;
}

export interface PostEmbed {
  url?: string;
  subject?: string | null;
  description?: string | null;
  [key: string]: unknown;
}

export interface PollChoice {
  text: string;
  votes: number;
}

export interface Poll {
  title: string;
  description?: string | null;
  choices: PollChoice[];
  total_votes: number;
  created_at: string;
  closes_at: string | null;
  allow_multiple: boolean;
}

/**
 * What a post card shows of a post (shared/post-card.ts has the rules, src/components/archive/PostCard.tsx
 * the markup). A post summary is one; `postCardData` trims a post to this for an island's props.
 */
export interface PostCardData {
  id: string;
  user: string;
  service: string;
  title: string;
  substring?: string;
  published?: string | null;
  file?: { path?: string } | Record<string, never> | null;
  attachments?: Array<{ path?: string }>;
}

/** A post summary (listings, search, favourites). */
export interface PostSummary {
  id: string;
  user: string;
  service: string;
  title: string;
  substring: string;
  published: string | null;
  added: string;
  edited: string | null;
  tags: string[];
  file: PostFileRef | Record<string, never>;
  attachments: PostFileRef[];
  poll: Poll | null;
  incomplete_rewards: string | null;
  embed: PostEmbed | Record<string, never>;
  shared_file: boolean;
}

export interface Comment {
  id: string;
  parent_id: string | null;
  commenter: string;
  commenter_name: string | null;
  content: string;
  published: string | null;
  added: string;
  revisions: { id: number; content: string; added: string }[];
}
