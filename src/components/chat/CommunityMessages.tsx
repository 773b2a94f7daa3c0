/**
 * A page of Patreon community messages, rendered on the server with no client directive (static
 * HTML). Oldest first, as a chat reads and like the Discord view, whatever order they come in (the API
 * lists newest first); each message has the id `community-message-{id}`.
 * Deleted messages show 'Message deleted' and nothing of their content.
 */
import type { CommunityMessage } from '@shared/shapes/chat.ts';
import { communityEmbedView, communityPost, type CommunityPostView } from '@shared/chat/community.ts';
import { chatTime, compareIds } from '@shared/chat/grouping.ts';
import { renderChatMarkdown } from './markdown.tsx';
import { countLabel, formatDateTime } from '@shared/format.ts';
import ChatAttachments from './ChatAttachments.tsx';

export interface CommunityMessagesProps {
  messages: CommunityMessage[];
  imageHost: string;
}

function Head({ post }: { post: CommunityPostView }) {
  return (
    <div className="chat-community__head">
      <span className="chat-community__author">{post.name}</span>
      {post.role && <span className={`chat-badge chat-badge--${post.role.toLowerCase()}`}>{post.role}</span>}
      {post.createdAt && (
        <time className="chat-community__time" dateTime={post.createdAt}>
          {formatDateTime(post.createdAt)}
        </time>
      )}
    </div>
  );
}

function Embed({ embed, imageHost }: { embed: unknown; imageHost: string }) {
  const view = communityEmbedView(embed, imageHost);
  if (!view.valid) return <div className="chat-embed chat-embed--invalid">Invalid embed!</div>;
  return (
    <div className="chat-embed">
      {view.title &&
        (view.titleHref ? (
          <a className="chat-embed__title" href={view.titleHref} target="_blank" rel="noopener noreferrer">
            {view.title}
          </a>
        ) : (
          <span className="chat-embed__title">{view.title}</span>
        ))}
      {view.text && <div className="chat-embed__description">{renderChatMarkdown(view.text)}</div>}
      {view.video && <video className="chat-embed__media" controls preload="metadata" src={view.video.src} />}
      {view.image && (
        <a className="chat-embed__image" href={view.image.href} target="_blank" rel="noopener noreferrer">
          <img className="chat-embed__media" src={view.image.src} alt={view.title || 'Embedded image'} loading="lazy" decoding="async" />
        </a>
      )}
      {view.assetHref && (
        <a className="chat-embed__asset" href={view.assetHref} target="_blank" rel="noopener noreferrer">
          Open the attachment
        </a>
      )}
    </div>
  );
}

function Message({ message, imageHost }: { message: CommunityMessage; imageHost: string }) {
  const post = communityPost(message.original_json, message.created_at);
  const deleted = !!message.deleted_at;
  const embeds = Array.isArray(message.embeds) ? message.embeds : [];
  const replies = Array.isArray(message.replies) ? message.replies : [];
  return (
    <li
      id={`community-message-${message.message_id}`}
      data-message-id={message.message_id}
      className={deleted ? 'chat-community chat-community--deleted' : 'chat-community'}
    >
      <Head post={{ ...post, createdAt: message.created_at || post.createdAt }} />
      {deleted ? (
        <p className="chat-community__deleted">Message deleted</p>
      ) : (
        <>
          {post.text && <div className="chat-message__content">{renderChatMarkdown(post.text)}</div>}
          {embeds.length > 0 && (
            <div className="chat-embeds">
              {embeds.map((embed, index) => (
                <Embed key={index} embed={embed} imageHost={imageHost} />
              ))}
            </div>
          )}
          <ChatAttachments attachments={message.attachments} imageHost={imageHost} />
          {replies.length > 0 && (
            <ol className="chat-community__replies" aria-label={countLabel(replies.length, 'reply', 'replies')}>
              {replies.map((reply, index) => {
                const view = communityPost(reply);
                return (
                  <li key={index} className="chat-community chat-community--reply">
                    <Head post={view} />
                    {view.text && <div className="chat-message__content">{renderChatMarkdown(view.text)}</div>}
                  </li>
                );
              })}
            </ol>
          )}
        </>
      )}
    </li>
  );
}

export default function CommunityMessages({ messages, imageHost }: CommunityMessagesProps) {
  const ordered = [...messages].sort((a, b) => chatTime(a.created_at) - chatTime(b.created_at) || compareIds(a.message_id, b.message_id));
  return (
    <ol className="chat-log chat-log--community">
      {ordered.map((message) => (
        <Message key={message.message_id} message={message} imageHost={imageHost} />
      ))}
    </ol>
  );
}
