/**
 * Patreon community messages as the viewer shows them (docs/product.md#chat-message-rendering). The mirrored message
 * (original_json, replies) is untrusted and loosely shaped: everything is read defensively.
 */
import { fileUrl, thumbnailUrl } from '../urls.ts';
import { archivePath, safeLinkUrl } from './safe-url.ts';
import { asRecord as obj, asText as text } from './loose.ts';

/** Role badges: user is plain; unknown roles are plain too. */
const ROLE_LABELS: Record<string, string> = {
  campaign: 'CREATOR',
  admin: 'ADMIN',
  patreon_admin: 'PATREON',
};

export function communityRoleLabel(role: unknown): string | undefined {
  return typeof role === 'string' && Object.hasOwn(ROLE_LABELS, role) ? ROLE_LABELS[role] : undefined;
}

export interface CommunityPostView {
  name: string;
  role?: string;
  text: string;
  createdAt: string;
}

/** Author, role badge, text and date of a mirrored message or reply ({user: {name, role}, text, created_at}). */
export function communityPost(original: unknown, fallbackCreatedAt = ''): CommunityPostView {
  const source = obj(original);
  const user = obj(source.user);
  const role = communityRoleLabel(user.role);
  return {
    name: text(user.name).trim() || 'Unknown user',
    ...(role ? { role } : {}),
    text: text(source.text),
    createdAt: text(source.created_at) || fallbackCreatedAt,
  };
}

export type CommunityEmbedView =
  | { valid: false }
  | {
      valid: true;
      title: string;
      titleHref?: string;
      text: string;
      image?: { src: string; href: string };
      video?: { src: string };
      assetHref?: string;
    };

/** An embed; one without a type is invalid ('Invalid embed!'). Media only from the archive. */
export function communityEmbedView(embed: unknown, imageHost: string): CommunityEmbedView {
  const source = obj(embed);
  if (typeof source.type !== 'string' || !source.type.trim()) return { valid: false };
  const imageFile = archivePath(source.image_url) ?? archivePath(source.thumb_url);
  const assetFile = archivePath(source.asset_url);
  const assetIsVideo = assetFile && (assetFile.ext === 'mp4' || assetFile.ext === 'webm');
  return {
    valid: true,
    title: text(source.title),
    titleHref: safeLinkUrl(source.title_link),
    text: text(source.text),
    ...(imageFile ? { image: { src: thumbnailUrl(imageHost, imageFile.path), href: fileUrl(imageHost, imageFile.path) } } : {}),
    ...(assetFile && assetIsVideo ? { video: { src: fileUrl(imageHost, assetFile.path) } } : {}),
    ...(assetFile && !assetIsVideo ? { assetHref: fileUrl(imageHost, assetFile.path) } : {}),
    ...(!assetFile && safeLinkUrl(source.asset_url) ? { assetHref: safeLinkUrl(source.asset_url) } : {}),
  };
}
