/**
 * Discord embeds as the viewer shows them (docs/product.md#chat-message-rendering): border colour from the
 * colour number, media at most 400 by 300. Media load only from the archive (the importer stores its copies as
 * '/data/ab/cd/<sha>.<ext>'); a third party's URL is never loaded by a page.
 */
import { fileUrl, thumbnailUrl } from '../urls.ts';
import { archivePath } from './safe-url.ts';
import { fitWithin } from './attachments.ts';
import { asRecord } from './loose.ts';

/** The border colour when an embed has none. */
export const DEFAULT_EMBED_COLOR = '#4f545c';

/** '#rrggbb' of Discord's colour number; the default for anything else. */
export function embedColor(color: unknown): string {
  if (typeof color !== 'number' || !Number.isInteger(color) || color < 0 || color > 0xffffff) return DEFAULT_EMBED_COLOR;
  return `#${color.toString(16).padStart(6, '0')}`;
}

interface MediaLike {
  url?: unknown;
  width?: unknown;
  height?: unknown;
}

export type EmbedMedia =
  | { kind: 'video'; src: string; href: string; poster?: string; loop: boolean; width?: number; height?: number }
  | { kind: 'image'; src: string; href: string; width?: number; height?: number };

function media(value: unknown): MediaLike {
  return asRecord(value);
}

/** The embed's video (with its thumbnail as poster), else its image, else its thumbnail; undefined when none is archived. */
export function embedMedia(embed: Record<string, unknown>, imageHost: string): EmbedMedia | undefined {
  const video = media(embed.video);
  const thumbnail = media(embed.thumbnail);
  const thumbnailFile = archivePath(thumbnail?.url);
  const videoFile = archivePath(video?.url);
  if (videoFile) {
    return {
      kind: 'video',
      src: fileUrl(imageHost, videoFile.path),
      href: fileUrl(imageHost, videoFile.path),
      ...(thumbnailFile ? { poster: thumbnailUrl(imageHost, thumbnailFile.path) } : {}),
      // Discord's 'gifv' embeds (animated GIFs sent as video) play like a GIF.
      loop: embed.type === 'gifv',
      ...fitWithin(video?.width, video?.height),
    };
  }
  for (const candidate of [media(embed.image), thumbnail]) {
    const file = archivePath(candidate?.url);
    if (file) {
      return {
        kind: 'image',
        src: thumbnailUrl(imageHost, file.path),
        href: fileUrl(imageHost, file.path),
        ...fitWithin(candidate?.width, candidate?.height),
      };
    }
  }
  return undefined;
}

function filled(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}

/** Whether an embed has anything to show (text or archived media); empty ones are left out. */
export function embedHasContent(embed: Record<string, unknown>, imageHost: string): boolean {
  const fields = Array.isArray(embed.fields) ? embed.fields : [];
  return (
    filled(asRecord(embed.provider).name) ||
    filled(asRecord(embed.author).name) ||
    filled(embed.title) ||
    filled(embed.description) ||
    filled(asRecord(embed.footer).text) ||
    fields.some((f) => filled(asRecord(f).name) || filled(asRecord(f).value)) ||
    embedMedia(embed, imageHost) !== undefined
  );
}
