/**
 * The Patreon dataset of the import benchmarks: `creators` campaigns sharing `posts` posts, made for
 * bench/import-fake.ts (the sized Patreon runs) and bench/importers/patreon.ts (the per-importer table).
 */
import { FAKE_FAN_ID, type FakeComment, type FakeDataset, type FakePost } from '../tests/fakes/patreon.ts';

const iso = (time: number) => new Date(time).toISOString().replace('Z', '+00:00');
const T0 = Date.UTC(2024, 0, 1);
const HOUR = 3600_000;
const WORDS = 'the quick sketch of a forest at dusk with warm light over a quiet lake and the colours of late autumn for this month'.split(
  ' ',
);

/** A few paragraphs of a creator's post text (about 1 KB), different for every post. */
function paragraphs(seed: number): string {
  const out: string[] = [];
  for (let p = 0; p < 4; p++) {
    const words = Array.from({ length: 40 }, (_, w) => WORDS[(seed * 7 + p * 13 + w * 3) % WORDS.length]);
    out.push(`<p>${words.join(' ')}.</p>`);
  }
  return out.join('');
}

/**
 * `creators` campaigns sharing `posts` posts. Every post has a post file and one attachment (real PNGs);
 * every 10th an inline image and tags; every 5th two comments, one with the creator's reply.
 */
export function benchDataset(creators: number, posts: number): FakeDataset {
  let commentId = 3_000_000;
  const comment = (postNo: number, creatorId: string, name: string): FakeComment[] => [
    {
      id: String(++commentId),
      body: `Love this one (${postNo})! <3`,
      commenterId: '80000001',
      commenterName: 'Alice Patron',
      created: iso(T0 + postNo * HOUR + 600_000),
      replies: [
        {
          id: String(++commentId),
          body: 'Thank you!\nMore soon.',
          commenterId: creatorId,
          commenterName: name,
          created: iso(T0 + postNo * HOUR + 900_000),
        },
      ],
    },
    {
      id: String(++commentId),
      body: 'Lovely.',
      commenterId: '80000002',
      commenterName: 'Bob Patron',
      created: iso(T0 + postNo * HOUR + 1_200_000),
    },
  ];
  return {
    fanUserId: FAKE_FAN_ID,
    conversations: [],
    campaigns: Array.from({ length: creators }, (_, c) => {
      const creatorId = String(6_100_000 + c);
      const name = `Benchmark Creator ${c + 1}`;
      const count = Math.floor(posts / creators) + (c < posts % creators ? 1 : 0);
      const list: FakePost[] = [];
      for (let n = 1; n <= count; n++) {
        const id = String(91_000_000 + c * 100_000 + n);
        const inline = n % 10 === 0;
        list.push({
          id,
          title: `${name}: post ${n}`,
          content:
            paragraphs(c * 100_000 + n) + (inline ? `<figure><img src="INLINE:inline-${id}.png" data-media-id="${id}"></figure>` : ''),
          published_at: iso(T0 + n * HOUR + c * 60_000),
          edited_at: null,
          file: `post-${id}.png`,
          images: [],
          attachments: [`extra-${id}.png`],
          tags: inline ? ['sketch', `series-${n % 7}`] : [],
          embed: null,
          poll: null,
          comments: n % 5 === 0 ? comment(n, creatorId, name) : [],
        });
      }
      return { id: String(4_200_000 + c), creatorUserId: creatorId, name, posts: list };
    }),
  };
}
