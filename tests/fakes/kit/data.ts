/** Lookups the fakes share over their demo datasets. */

/** The first post that passes `test`, with the creator (campaign, blog...) whose `posts` hold it. */
export function findCreatorPost<C extends { posts: readonly unknown[] }>(
  creators: readonly C[],
  test: (post: C['posts'][number]) => boolean,
): { creator: C; post: C['posts'][number] } | undefined {
  for (const creator of creators) {
    const post = creator.posts.find(test);
    if (post !== undefined) return { creator, post };
  }
  return undefined;
}
