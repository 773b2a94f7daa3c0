/**
 * A page of Discord messages, rendered on the server with no client directive (static HTML, no
 * JavaScript). Messages show oldest first, as a chat reads, whatever order they come in (the API lists
 * newest first), in groups (groupMessages: one author, less than CHAT_GROUP_GAP_MS apart). Each message
 * is an element with id `message-{id}` and `data-message-id`; the marked one (a message URL) has the
 * class `chat-message--marked` and aria-current="true".
 */
import type { DiscordMessage } from '@shared/shapes/chat.ts';
import { authorAvatar, authorName, type ChatAvatar } from '@shared/chat/author.ts';
import { embedHasContent } from '@shared/chat/embed.ts';
import { groupMessages, type MessageGroup } from '@shared/chat/grouping.ts';
import { renderChatMarkdown } from './markdown.tsx';
import { formatDateTime } from '@shared/format.ts';
import ChatAttachments from './ChatAttachments.tsx';
import DiscordEmbed from './DiscordEmbed.tsx';

export { groupMessages };

export interface DiscordMessagesProps {
  messages: DiscordMessage[];
  markedId?: string;
  /** DISCORD_CONTENT_HOST: avatars and custom emojis. */
  contentHost: string;
  /** IMAGE_HOST: the archive's files (attachments, embed media). */
  imageHost: string;
}

function Time({ iso, className, short }: { iso: string; className: string; short?: boolean }) {
  const full = formatDateTime(iso);
  return (
    <time className={className} dateTime={iso} title={full}>
      {short ? full.slice(11, 16) : full}
    </time>
  );
}

function Message({
  message,
  first,
  marked,
  contentHost,
  imageHost,
}: {
  message: DiscordMessage;
  first: boolean;
  marked: boolean;
  contentHost: string;
  imageHost: string;
}) {
  const embeds = (Array.isArray(message.embeds) ? message.embeds : []).filter(
    (embed) => embed && typeof embed === 'object' && embedHasContent(embed, imageHost),
  );
  return (
    <li
      id={`message-${message.id}`}
      data-message-id={message.id}
      className={marked ? 'chat-message chat-message--marked' : 'chat-message'}
      aria-current={marked ? 'true' : undefined}
    >
      {!first && <Time iso={message.published} className="chat-message__time" short />}
      <div className="chat-message__body">
        {message.content && <div className="chat-message__content">{renderChatMarkdown(message.content, { contentHost })}</div>}
        {message.edited && (
          <span className="chat-message__edited" title={`Edited ${formatDateTime(message.edited)}`}>
            (edited)
          </span>
        )}
        {embeds.length > 0 && (
          <div className="chat-embeds">
            {embeds.map((embed, index) => (
              <DiscordEmbed key={index} embed={embed} imageHost={imageHost} contentHost={contentHost} />
            ))}
          </div>
        )}
        <ChatAttachments attachments={message.attachments} imageHost={imageHost} />
      </div>
    </li>
  );
}

/**
 * The author's avatar. Without a custom avatar it is the coloured initial alone (nothing to load);
 * with one, the image carries the initial in data-initial and the stylesheet draws it over a failed
 * image (offline, deleted avatar) instead of the broken-image icon: no script, no inline handler.
 */
function Avatar({ avatar }: { avatar: ChatAvatar }) {
  const className = `chat-group__avatar chat-avatar chat-avatar--tone-${avatar.tone}`;
  return avatar.src ? (
    <img
      className={className}
      src={avatar.src}
      data-initial={avatar.initial}
      alt=""
      width={40}
      height={40}
      loading="lazy"
      decoding="async"
    />
  ) : (
    <span className={className} aria-hidden="true">
      {avatar.initial}
    </span>
  );
}

function Group({
  group,
  markedId,
  contentHost,
  imageHost,
}: {
  group: MessageGroup<DiscordMessage>;
  markedId?: string;
  contentHost: string;
  imageHost: string;
}) {
  const author = group.author;
  const name = authorName(author);
  const username = typeof author?.username === 'string' ? author.username : '';
  return (
    <li className="chat-group">
      <Avatar avatar={authorAvatar(author, contentHost)} />
      <div className="chat-group__main">
        <div className="chat-group__head">
          <span className="chat-group__author" title={username && username !== name ? username : undefined}>
            {name}
          </span>
          {author?.bot === true && <span className="chat-badge">BOT</span>}
          <Time iso={group.messages[0].published} className="chat-group__time" />
        </div>
        <ol className="chat-group__messages">
          {group.messages.map((message, index) => (
            <Message
              key={message.id}
              message={message}
              first={index === 0}
              marked={markedId !== undefined && message.id === markedId}
              contentHost={contentHost}
              imageHost={imageHost}
            />
          ))}
        </ol>
      </div>
    </li>
  );
}

export default function DiscordMessages({ messages, markedId, contentHost, imageHost }: DiscordMessagesProps) {
  const groups = groupMessages(messages);
  return (
    <ol className="chat-log chat-log--discord">
      {groups.map((group) => (
        <Group key={group.messages[0].id} group={group} markedId={markedId} contentHost={contentHost} imageHost={imageHost} />
      ))}
    </ol>
  );
}
