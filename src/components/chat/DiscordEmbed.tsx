/**
 * One Discord embed: provider, author, title, description, fields, media and footer. Static HTML.
 * Callers leave out embeds with nothing to show (embedHasContent).
 */
import type { CSSProperties, ReactNode } from 'react';
import { renderChatMarkdown } from './markdown.tsx';
import { safeLinkUrl } from '@shared/chat/safe-url.ts';
import { embedColor, embedMedia } from '@shared/chat/embed.ts';
import { asRecord as obj, asText as text } from '@shared/chat/loose.ts';

type Loose = Record<string, unknown>;

/** A name that links out when its URL is http(s), plain text otherwise. */
function MaybeLink({ url, className, children }: { url: unknown; className: string; children: ReactNode }) {
  const href = safeLinkUrl(url);
  return href ? (
    <a className={className} href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  ) : (
    <span className={className}>{children}</span>
  );
}

export default function DiscordEmbed({ embed, imageHost, contentHost }: { embed: Loose; imageHost: string; contentHost: string }) {
  const provider = obj(embed.provider);
  const author = obj(embed.author);
  const footer = obj(embed.footer);
  const fields = (Array.isArray(embed.fields) ? embed.fields : []).map(obj).filter((field) => text(field.name) || text(field.value));
  const title = text(embed.title);
  const description = text(embed.description);
  const shown = embedMedia(embed, imageHost);
  const style = { '--embed-color': embedColor(embed.color) } as CSSProperties;
  return (
    <div className="chat-embed" style={style}>
      {text(provider.name) && (
        <MaybeLink className="chat-embed__provider" url={provider.url}>
          {text(provider.name)}
        </MaybeLink>
      )}
      {text(author.name) && (
        <MaybeLink className="chat-embed__author" url={author.url}>
          {text(author.name)}
        </MaybeLink>
      )}
      {title && (
        <MaybeLink className="chat-embed__title" url={embed.url}>
          {renderChatMarkdown(title, { contentHost, inLink: true })}
        </MaybeLink>
      )}
      {description && <div className="chat-embed__description">{renderChatMarkdown(description, { contentHost })}</div>}
      {fields.length > 0 && (
        <dl className="chat-embed__fields">
          {fields.map((field, index) => (
            <div key={index} className={field.inline === true ? 'chat-embed__field chat-embed__field--inline' : 'chat-embed__field'}>
              <dt>{renderChatMarkdown(text(field.name), { contentHost })}</dt>
              <dd>{renderChatMarkdown(text(field.value), { contentHost })}</dd>
            </div>
          ))}
        </dl>
      )}
      {shown?.kind === 'video' && (
        <video
          className="chat-embed__media"
          controls
          preload="metadata"
          src={shown.src}
          poster={shown.poster}
          width={shown.width}
          height={shown.height}
          {...(shown.loop ? { loop: true, muted: true, playsInline: true } : {})}
        >
          <a href={shown.href} target="_blank" rel="noopener noreferrer">
            {title || 'Video'}
          </a>
        </video>
      )}
      {shown?.kind === 'image' && (
        <a className="chat-embed__image" href={shown.href} target="_blank" rel="noopener noreferrer">
          <img
            className="chat-embed__media"
            src={shown.src}
            alt={title || text(provider.name) || 'Embedded image'}
            width={shown.width}
            height={shown.height}
            loading="lazy"
            decoding="async"
          />
        </a>
      )}
      {text(footer.text) && <small className="chat-embed__footer">{text(footer.text)}</small>}
    </div>
  );
}
