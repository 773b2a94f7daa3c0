/**
 * The fake Patreon's content and how it is rendered as Patreon's JSON:API documents (the same resource
 * types, attributes, relationships and `included` lists the website API answers with). URLs are
 * absolute on the fake's own origin, as Patreon's are on www.patreon.com / *.patreonusercontent.com.
 */

export interface FakeComment {
  id: string;
  body: string;
  commenterId: string;
  commenterName: string;
  created: string;
  replies?: FakeComment[];
}

export interface FakePost {
  id: string;
  title: string;
  content: string;
  published_at: string;
  edited_at: string | null;
  /** File names served under /p/post/{id}/; the post_file, the extra images (media) and old-style attachments. */
  file: string | null;
  images: string[];
  attachments: string[];
  tags: string[];
  embed: { url: string; subject: string; description: string } | null;
  poll: { question: string; choices: [string, number][]; multiple: boolean } | null;
  comments: FakeComment[];
  /** Shown to this account as a teaser only (current_user_can_view false). */
  locked?: boolean;
  /**
   * Written in Patreon's newer editor: the text is only this document tree (sent as `content_json_string`,
   * `content` null). Image sources written 'INLINE:<name>' point at the fake's inline images.
   */
  contentJson?: unknown;
}

export interface FakeCampaign {
  id: string;
  creatorUserId: string;
  name: string;
  posts: FakePost[];
}

export interface FakeMessage {
  id: string;
  senderId: string;
  content: string;
  sent_at: string;
}

export interface FakeConversation {
  id: string;
  participantIds: string[];
  messages: FakeMessage[];
}

export interface FakeDataset {
  fanUserId: string;
  campaigns: FakeCampaign[];
  conversations: FakeConversation[];
}

export const FAKE_FAN_ID = '70000001';
export const FAKE_CAMPAIGN_ID = '4100001';
export const FAKE_CREATOR_ID = '5200001';
export const FAKE_CREATOR_NAME = 'Fake Patreon Creator';

const iso = (time: number) => new Date(time).toISOString().replace('Z', '+00:00');
const T0 = Date.UTC(2024, 0, 1);
const HOUR = 3600_000;

/**
 * One campaign 'Fake Patreon Creator' with `posts` posts (newest has the highest number), each with a
 * post file and an attachment; the first post also has an image gallery, inline image, poll, embed,
 * tags and three comments (one a reply); two DMs from the creator, one conversation with a stranger.
 */
/**
 * A post body from Patreon's newer editor, with every node and mark the public converters know of
 * (docs/importing.md, Patreon): headings, marks nested first-outermost, a link mark and a link node, lists
 * holding paragraphs, a quote, a paragraph with no content, a hard break, a rule, an image, and a node type
 * no converter knows (its text must survive).
 */
export const NEW_EDITOR_DOC = {
  type: 'doc',
  content: [
    {
      type: 'heading',
      attrs: { level: 3 },
      content: [
        { type: 'text', text: 'WIPs for the ' },
        { type: 'text', marks: [{ type: 'bold' }], text: 'second' },
      ],
    },
    {
      type: 'paragraph',
      content: [
        { type: 'text', marks: [{ type: 'underline' }], text: 'If you joined in ' },
        { type: 'text', marks: [{ type: 'bold' }, { type: 'underline' }], text: 'November' },
        { type: 'hardBreak' },
        { type: 'text', marks: [{ type: 'italic' }, { type: 'strike' }], text: 'rewards <paused>' },
      ],
    },
    { type: 'paragraph' },
    {
      type: 'bulletList',
      content: [
        { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Thigh-up: $250' }] }] },
        { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Full: $400' }] }] },
      ],
    },
    { type: 'orderedList', content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Sketch' }] }] }] },
    { type: 'blockquote', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Quoted.' }] }] },
    {
      type: 'paragraph',
      content: [
        {
          type: 'text',
          marks: [{ type: 'link', attrs: { href: 'https://example.com/shop?a=1&b=2', target: '_blank' } }],
          text: 'the shop',
        },
        { type: 'text', text: ' and ' },
        { type: 'link', attrs: { href: 'javascript:alert(1)' }, content: [{ type: 'text', text: 'no script' }] },
      ],
    },
    { type: 'image', attrs: { src: 'INLINE:inline-2.png', media_id: '633162934', alignment: 'center' } },
    { type: 'horizontalRule' },
    { type: 'mysteryBlock', content: [{ type: 'text', text: 'Kept text of an unknown block.' }] },
  ],
};

export function demoDataset(options: { posts?: number } = {}): FakeDataset {
  const total = options.posts ?? 12;
  const posts: FakePost[] = [];
  for (let n = total; n >= 1; n--) {
    const id = String(90000000 + n);
    posts.push({
      id,
      title: `Fake post ${n}`,
      content: `<p>Post number ${n} &amp; its text.</p>`,
      published_at: iso(T0 + n * HOUR),
      edited_at: null,
      file: `post-${n}.png`,
      images: [],
      attachments: [`extra-${n}.png`],
      tags: [],
      embed: null,
      poll: null,
      comments: [],
    });
  }
  Object.assign(posts[posts.length - 2], { content: '', contentJson: NEW_EDITOR_DOC } satisfies Partial<FakePost>);
  const first = posts[posts.length - 1];
  Object.assign(first, {
    content: `<p>The first post.</p><figure><img src="INLINE:inline-1.png" data-media-id="1"></figure>`,
    images: ['post-1.png', 'gallery-1.png'],
    tags: ['sketch', 'color'],
    embed: { url: 'https://www.youtube.com/watch?v=fake1', subject: 'A video', description: 'Watch it' },
    poll: {
      question: 'Next theme?',
      choices: [
        ['Forest', 3],
        ['Sea', 5],
      ],
      multiple: false,
    },
    comments: [
      {
        id: '300001',
        body: 'First! <3 the colours',
        commenterId: '80000001',
        commenterName: 'Alice Patron',
        created: iso(T0 + 2 * HOUR),
        replies: [
          {
            id: '300002',
            body: 'Thank you!\nMore soon.',
            commenterId: FAKE_CREATOR_ID,
            commenterName: FAKE_CREATOR_NAME,
            created: iso(T0 + 3 * HOUR),
          },
        ],
      },
      { id: '300003', body: 'Lovely.', commenterId: '80000002', commenterName: 'Bob Patron', created: iso(T0 + 4 * HOUR) },
    ],
  } satisfies Partial<FakePost>);
  return {
    fanUserId: FAKE_FAN_ID,
    campaigns: [{ id: FAKE_CAMPAIGN_ID, creatorUserId: FAKE_CREATOR_ID, name: FAKE_CREATOR_NAME, posts }],
    conversations: [
      {
        id: '600001',
        participantIds: [FAKE_FAN_ID, FAKE_CREATOR_ID],
        messages: [
          {
            id: '610001',
            senderId: FAKE_CREATOR_ID,
            content: 'Thanks for joining! Here is your welcome pack.',
            sent_at: iso(T0 + 5 * HOUR),
          },
          { id: '610002', senderId: FAKE_FAN_ID, content: 'Thank you!', sent_at: iso(T0 + 6 * HOUR) },
          { id: '610003', senderId: FAKE_CREATOR_ID, content: 'Monthly <b>rewards</b> are out.', sent_at: iso(T0 + 7 * HOUR) },
        ],
      },
      {
        id: '600002',
        participantIds: [FAKE_FAN_ID, '80000009'],
        messages: [{ id: '620001', senderId: '80000009', content: 'Not a creator you support.', sent_at: iso(T0 + 8 * HOUR) }],
      },
    ],
  };
}

type Res = { type: string; id: string; attributes?: Record<string, unknown>; relationships?: Record<string, unknown> };
const one = (type: string, id: string | null) => ({ data: id === null ? null : { type, id } });
const many = (type: string, ids: string[]) => ({ data: ids.map((id) => ({ type, id })) });

/** A file URL like Patreon's CDN ones, with a token in the query (which must never reach a log). */
export const fileUrl = (origin: string, postId: string, name: string) =>
  `${origin}/p/post/${postId}/${encodeURIComponent(name)}?token-time=1700000000&token-hash=s3cr3tT0k3n`;

export function postResources(origin: string, campaign: FakeCampaign, post: FakePost): { data: Res; included: Res[] } {
  const included: Res[] = [];
  const mediaIds = post.images.map((name, i) => {
    included.push({
      type: 'media',
      id: `${post.id}${i}`,
      attributes: { file_name: name, download_url: fileUrl(origin, post.id, name), image_urls: {} },
    });
    return `${post.id}${i}`;
  });
  const attachmentIds = post.attachments.map((name, i) => {
    included.push({
      type: 'attachment',
      id: `${post.id}a${i}`,
      attributes: { name, url: `${origin}/file?h=${post.id}&i=${post.id}a${i}` },
    });
    return `${post.id}a${i}`;
  });
  const tagIds = post.tags.map((tag) => {
    included.push({ type: 'post_tag', id: `user_defined;${tag}`, attributes: { tag_type: 'user_defined', value: tag } });
    return `user_defined;${tag}`;
  });
  let pollId: string | null = null;
  if (post.poll) {
    pollId = `${post.id}p`;
    const choiceIds = post.poll.choices.map(([text, votes], i) => {
      included.push({ type: 'poll_choice', id: `${pollId}${i}`, attributes: { text_content: text, num_responses: votes, position: i } });
      return `${pollId}${i}`;
    });
    included.push({
      type: 'poll',
      id: pollId,
      attributes: {
        question_text: post.poll.question,
        choice_type: post.poll.multiple ? 'multiple' : 'single',
        created_at: post.published_at,
        closes_at: null,
        num_responses: post.poll.choices.reduce((s, [, v]) => s + v, 0),
      },
      relationships: { choices: many('poll_choice', choiceIds) },
    });
  }
  const visible = !post.locked;
  const count = (list: FakeComment[]): number => list.reduce((s, c) => s + 1 + count(c.replies ?? []), 0);
  const data: Res = {
    type: 'post',
    id: post.id,
    attributes: {
      title: post.title,
      content: visible && !post.contentJson ? post.content.replaceAll('INLINE:', `${origin}/p/inline/`) : null,
      content_json_string:
        visible && post.contentJson ? JSON.stringify(post.contentJson).replaceAll('INLINE:', `${origin}/p/inline/`) : null,
      teaser_text: 'Become a patron to see this post.',
      published_at: post.published_at,
      edited_at: post.edited_at,
      post_type: 'image_file',
      url: `https://www.patreon.com/posts/${post.id}`,
      current_user_can_view: visible,
      comment_count: count(post.comments),
      post_file: visible && post.file ? { name: post.file, url: fileUrl(origin, post.id, post.file) } : null,
      image: visible && post.file ? { large_url: fileUrl(origin, post.id, post.file), url: fileUrl(origin, post.id, post.file) } : null,
      embed: post.embed ? { ...post.embed, provider: 'YouTube', html: null } : null,
    },
    relationships: {
      campaign: one('campaign', campaign.id),
      user: one('user', campaign.creatorUserId),
      images: many('media', visible ? mediaIds : []),
      attachments: many('attachment', visible ? attachmentIds : []),
      attachments_media: many('media', []),
      audio: one('media', null),
      poll: one('poll', pollId),
      user_defined_tags: many('post_tag', tagIds),
    },
  };
  return { data, included };
}

export function campaignResource(origin: string, campaign: FakeCampaign): Res {
  return {
    type: 'campaign',
    id: campaign.id,
    attributes: {
      name: campaign.name,
      url: `https://www.patreon.com/fakecreator`,
      vanity: 'fakecreator',
      avatar_photo_url: `${origin}/p/campaign/${campaign.id}/avatar.png?token-hash=s3cr3tT0k3n`,
      cover_photo_url: `${origin}/p/campaign/${campaign.id}/cover.png?token-hash=s3cr3tT0k3n`,
    },
    relationships: { creator: one('user', campaign.creatorUserId) },
  };
}

export function commentResources(comment: FakeComment, parentId: string | null): { data: Res; included: Res[] } {
  const included: Res[] = [{ type: 'user', id: comment.commenterId, attributes: { full_name: comment.commenterName } }];
  for (const reply of comment.replies ?? []) {
    const rendered = commentResources(reply, comment.id);
    included.push(rendered.data, ...rendered.included);
  }
  return {
    data: {
      type: 'comment',
      id: comment.id,
      attributes: { body: comment.body, created: comment.created, deleted_at: null },
      relationships: {
        commenter: one('user', comment.commenterId),
        parent: one('comment', parentId),
        replies: many(
          'comment',
          (comment.replies ?? []).map((r) => r.id),
        ),
      },
    },
    included,
  };
}
