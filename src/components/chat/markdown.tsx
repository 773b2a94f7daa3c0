/**
 * Chat markdown (Discord's flavour) parsed by discord-markdown-parser and rendered as React elements, never as
 * an HTML string (docs/decisions.md#chat-viewer-discord-servers-patreon-community): text reaches the page only
 * as React text children, and every href or src goes through shared/chat/safe-url.ts or a URL builder of
 * shared/urls.ts.
 *
 * The parser's 'extended' rule set is used everywhere: Discord shows masked links ([label](url)) in
 * messages as well as embeds, and a label never decides where a link goes. Mentions show as unknown
 * placeholders (docs/product.md#chat-message-rendering): the archive keeps no user, channel or role names.
 */
import { Fragment, type ReactNode } from 'react';
import { rulesExtended, SimpleMarkdown } from 'discord-markdown-parser';
import { discordEmojiUrl } from '@shared/urls.ts';
import { formatDateTime } from '@shared/format.ts';
import { safeLinkUrl } from '@shared/chat/safe-url.ts';
import { listRule } from './markdown-list.ts';
import { asText as str } from '@shared/chat/loose.ts';

type Node = { type: string; [key: string]: unknown };

const parser = SimpleMarkdown.parserFor({ ...rulesExtended, list: listRule });

// Longer text than Discord ever allows (4,000 characters a message, 4,096 an embed description) is
// shown as plain text rather than parsed: the parser's work grows faster than its input.
const MAX_PARSED_LENGTH = 8_000;

/** The syntax tree of a chat text; plain text with line breaks when it cannot be parsed. */
export function parseChatMarkdown(text: string): Node[] {
  if (text.length <= MAX_PARSED_LENGTH) {
    try {
      return parser(text, { inline: true }) as Node[];
    } catch (error) {
      // Falls through to plain text: a message that trips the parser (its own errors, or a RangeError
      // from deep nesting) still shows. Anything that is not an Error is not the parser's.
      if (!(error instanceof Error)) throw error;
    }
  }
  return text.split('\n').flatMap((line, index): Node[] => [...(index === 0 ? [] : [{ type: 'br' }]), { type: 'text', content: line }]);
}

export interface ChatMarkdownOptions {
  /** Where custom emojis load from (DISCORD_CONTENT_HOST); without it they show as ':name:'. */
  contentHost?: string;
  /** Inside a link: links in the text show as text (an <a> in an <a> is not HTML). */
  inLink?: boolean;
}

type RenderContext = ChatMarkdownOptions;

const PLACEHOLDERS: Record<string, string> = {
  user: '@unknown-user',
  channel: '#unknown-channel',
  role: '@unknown-role',
  everyone: '@everyone',
  here: '@here',
};

function children(node: Node): Node[] {
  return Array.isArray(node.content) ? (node.content as Node[]) : [];
}

function renderLink(node: Node, ctx: RenderContext, key: number): ReactNode {
  const label = renderNodes(children(node), { ...ctx, inLink: true });
  const href = safeLinkUrl(node.target);
  if (!href || ctx.inLink) return <Fragment key={key}>{label}</Fragment>;
  const title = str(node.title);
  return (
    <a key={key} href={href} target="_blank" rel="noopener noreferrer" title={title || undefined}>
      {label}
    </a>
  );
}

function renderTimestamp(node: Node, key: number): ReactNode {
  const seconds = Number(node.timestamp);
  const date = Number.isSafeInteger(seconds) ? new Date(seconds * 1000) : undefined;
  if (!date || Number.isNaN(date.getTime())) return str(node.timestamp);
  const iso = date.toISOString().slice(0, 19);
  return (
    <time key={key} className="chat-timestamp" dateTime={`${iso}Z`}>
      {formatDateTime(iso)}
    </time>
  );
}

function renderEmoji(node: Node, ctx: RenderContext, key: number): ReactNode {
  const name = `:${str(node.name)}:`;
  const id = str(node.id);
  if (!ctx.contentHost || !/^\d+$/.test(id)) return name;
  return (
    <img
      key={key}
      className="chat-emoji"
      src={discordEmojiUrl(ctx.contentHost, id, node.animated === true)}
      alt={name}
      title={name}
      width={22}
      height={22}
      loading="lazy"
    />
  );
}

function renderNode(node: Node, ctx: RenderContext, key: number): ReactNode {
  const inner = () => renderNodes(children(node), ctx);
  switch (node.type) {
    case 'text':
      return typeof node.content === 'string' ? node.content : inner();
    case 'br':
    case 'newline':
      return <br key={key} />;
    case 'strong':
      return <strong key={key}>{inner()}</strong>;
    case 'em':
      return <em key={key}>{inner()}</em>;
    case 'underline':
      return <u key={key}>{inner()}</u>;
    case 'strikethrough':
      return <s key={key}>{inner()}</s>;
    case 'spoiler':
      return (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a spoiler is revealed on focus too, so keyboard users can read it
        <span key={key} className="chat-spoiler" tabIndex={0} title="Spoiler">
          {inner()}
        </span>
      );
    case 'inlineCode':
      return <code key={key}>{str(node.content)}</code>;
    case 'codeBlock':
      return (
        <pre key={key} className="chat-code">
          <code data-lang={str(node.lang) || undefined}>{str(node.content)}</code>
        </pre>
      );
    case 'blockQuote':
      return (
        <blockquote key={key} className="chat-quote">
          {inner()}
        </blockquote>
      );
    case 'heading':
      return (
        <span key={key} className={`chat-heading chat-heading--${Math.min(3, Math.max(1, Number(node.level) || 1))}`}>
          {inner()}
        </span>
      );
    case 'subtext':
      return (
        <small key={key} className="chat-subtext">
          {inner()}
        </small>
      );
    case 'list': {
      const items = (Array.isArray(node.items) ? node.items : []) as Node[][];
      const list = items.map((item, index) => <li key={index}>{renderNodes(item, ctx)}</li>);
      const start = Number(node.start);
      return node.ordered ? (
        <ol key={key} className="chat-list" start={Number.isSafeInteger(start) && start !== 1 ? start : undefined}>
          {list}
        </ol>
      ) : (
        <ul key={key} className="chat-list">
          {list}
        </ul>
      );
    }
    case 'link':
    case 'url':
    case 'autolink':
      return renderLink(node, ctx, key);
    case 'user':
    case 'channel':
    case 'role':
    case 'everyone':
    case 'here':
      return (
        <span key={key} className="chat-mention">
          {PLACEHOLDERS[node.type]}
        </span>
      );
    case 'emoji':
      return renderEmoji(node, ctx, key);
    case 'twemoji':
      return str(node.name);
    case 'timestamp':
      return renderTimestamp(node, key);
    case 'slashCommand':
      return (
        <span key={key} className="chat-mention">
          /{str(node.fullName) || str(node.name)}
        </span>
      );
    case 'guildNavigation':
      return (
        <span key={key} className="chat-mention">
          #unknown-channel
        </span>
      );
    default:
      // A rule added by a later parser version: its text, never its markup.
      return typeof node.content === 'string' ? node.content : inner();
  }
}

const BLOCKS = new Set(['list', 'codeBlock', 'blockQuote', 'heading', 'subtext']);

// A block stands on its own lines already: the line break before or after it (and one closing a
// run of text, as a quote's last line does) would show as an empty line.
function isRedundantBreak(nodes: Node[], index: number): boolean {
  if (nodes[index].type !== 'br' && nodes[index].type !== 'newline') return false;
  const next = nodes[index + 1];
  const previous = nodes[index - 1];
  return !next || BLOCKS.has(next.type) || previous?.type === 'codeBlock';
}

function renderNodes(nodes: Node[], ctx: RenderContext): ReactNode[] {
  return nodes.map((node, index) =>
    isRedundantBreak(nodes, index) ? null : <Fragment key={index}>{renderNode(node, ctx, index)}</Fragment>,
  );
}

/** A chat text (message content, embed description, community text) as React elements. */
export function renderChatMarkdown(text: string | null | undefined, options: ChatMarkdownOptions = {}): ReactNode {
  if (!text) return null;
  return renderNodes(parseChatMarkdown(text), options);
}

export function ChatMarkdown({ text, contentHost }: { text: string | null | undefined; contentHost?: string }) {
  return <>{renderChatMarkdown(text, { contentHost })}</>;
}
