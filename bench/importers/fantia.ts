/**
 * Fantia in the per-importer benchmark: the fake fantia.jp (tests/fakes/fantia.ts) serving `posts`
 * visible posts over three backed fanclubs, each post with a thumbnail (the post's file, c.fantia.jp)
 * and a two-photo gallery (signed cc.fantia.jp URLs), every image real bytes of its own.
 */
import { FAKE_FANTIA_KEY, startFakeFantia, type FantiaDataset, type FantiaPost } from '../../tests/fakes/fantia.ts';
import type { ImportBenchSite } from './site.ts';

const T0 = Date.UTC(2024, 0, 1);
const FANCLUBS = [
  { id: 810001, name: 'Bench Atelier' },
  { id: 810002, name: 'ベンチ工房' },
  { id: 810003, name: 'Bench Studio' },
];

/** About `posts` visible posts spread over three fanclubs whose paid plans the demo key holds. */
export function benchDataset(posts: number): FantiaDataset {
  const fanclubs = FANCLUBS.map((fc, f) => {
    const share = Math.floor(posts / FANCLUBS.length) + (f < posts % FANCLUBS.length ? 1 : 0);
    const list: FantiaPost[] = Array.from({ length: share }, (_, i) => {
      const id = 9_000_000 + f * 100_000 + i;
      return {
        id,
        title: `${fc.name} post ${i + 1}`,
        comment: `Post ${i + 1} of ${fc.name}.\r\nTwo pictures inside.`,
        rating: 'general',
        postedAt: T0 + i * 3_600_000,
        convertedAt: null,
        tags: ['bench'],
        thumb: `thumb-${id}.jpg`,
        contents: [
          {
            id: id * 10,
            category: 'photo_gallery',
            title: 'Gallery',
            comment: null,
            planId: fc.id * 10 + 1,
            photos: [
              { id: id * 10 + 1, file: `photo-${id}-a.png`, comment: null },
              { id: id * 10 + 2, file: `photo-${id}-b.jpg`, comment: null },
            ],
          },
        ],
      };
    });
    return {
      id: fc.id,
      userId: fc.id + 1,
      fanclubName: fc.name,
      creatorName: fc.name,
      profile: '',
      icon: `icon-${fc.id}.png`,
      cover: `cover-${fc.id}.png`,
      plans: [{ id: fc.id * 10 + 1, price: 500, name: 'Supporter', description: '' }],
      posts: list,
    };
  });
  return {
    me: { id: 7_100_001, name: 'bench' },
    fanclubs,
    followed: fanclubs.map((fc) => fc.id),
    joinedPlans: fanclubs.map((fc) => fc.plans[0].id),
  };
}

const site: ImportBenchSite = {
  service: 'fantia',
  async start(posts) {
    const fake = await startFakeFantia({ dataset: benchDataset(posts) });
    return {
      env: { IMPORTER_FANTIA_URL: fake.url },
      submission: { session_key: FAKE_FANTIA_KEY },
      requests: () => fake.requests.length,
      close: fake.close,
    };
  },
};
export default site;
