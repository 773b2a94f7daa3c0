/**
 * What kind of image some bytes are: from the type a server sent, else from the first bytes (JPEG, PNG,
 * GIF, WebP magic numbers). Used for stored icons and banners, which have no extension, and by importers
 * whose image URLs carry none.
 */

const EXTENSION_OF_TYPE: Record<string, string> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/avif': '.avif',
  'image/svg+xml': '.svg',
};

/** The image media type of the first bytes (12 are enough), or undefined when they are none of the four. */
export function sniffImageType(head: Uint8Array): string | undefined {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (bytes[0] === 0x89 && bytes.toString('latin1', 1, 4) === 'PNG') return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (bytes.toString('latin1', 0, 3) === 'GIF') return 'image/gif';
  return undefined;
}

/** The extension for image bytes: from the answer's type when it names an image, else their first bytes; '' when unknown. */
export function imageExtension(type: string | undefined, bytes: Uint8Array): string {
  const declared = EXTENSION_OF_TYPE[(type ?? '').split(';')[0].trim().toLowerCase()];
  if (declared) return declared;
  const sniffed = sniffImageType(bytes);
  return sniffed ? EXTENSION_OF_TYPE[sniffed] : '';
}
