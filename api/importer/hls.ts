/**
 * Videos a paysite serves only as HLS (a playlist of segments): the best rendition is downloaded whole
 * and stored as one MP4 file, so the post page plays it with a plain <video> and downloaders get one
 * file, as for any other video. MPEG-TS segments are transmuxed to fragmented MP4 by mux.js (no
 * re-encoding); fMP4 segments (EXT-X-MAP) are joined after their initialization section. AES-128
 * encrypted segments are decrypted with the playlist's key; other encryption (SAMPLE-AES, DRM) cannot be
 * archived and the video is skipped with a log line.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import muxjs from 'mux.js';
import { dataPaths } from '../config.ts';
import { registerFile } from '../data/files.ts';
import { storeStream } from '../media/store.ts';
import { type ArchivedFile, progressLogger, skipLine } from './content.ts';
import type { PaysiteClient } from './fetch.ts';
import type { ImportContext } from './context.ts';

export interface HlsVariant {
  url: string;
  bandwidth: number;
  /** Width x height, 0 when the playlist does not say. */
  pixels: number;
}

export interface HlsKey {
  method: string;
  url?: string;
  iv?: Buffer;
}

export interface HlsSegment {
  url: string;
  /** The media sequence number (the IV of AES-128 when the key gives none). */
  sequence: number;
  key?: HlsKey;
}

export interface MediaPlaylist {
  /** EXT-X-MAP: the fMP4 initialization section, when segments are fMP4. */
  initUrl?: string;
  segments: HlsSegment[];
}

/** Attributes of a tag line: `BANDWIDTH=1280000,RESOLUTION=1280x720,CODECS="avc1,mp4a"`. */
export function tagAttributes(line: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  const list = line.slice(line.indexOf(':') + 1);
  for (const match of list.matchAll(/([A-Z0-9-]+)=("[^"]*"|[^,]*)/g)) attributes[match[1]] = match[2].replace(/^"|"$/g, '');
  return attributes;
}

function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The renditions of a master playlist, best first (bandwidth, then resolution); [] for a media playlist. */
export function masterVariants(text: string, baseUrl: string): HlsVariant[] {
  const all = lines(text);
  const variants: HlsVariant[] = [];
  all.forEach((line, index) => {
    if (!line.startsWith('#EXT-X-STREAM-INF')) return;
    const uri = all.slice(index + 1).find((next) => !next.startsWith('#'));
    if (!uri) return;
    const attributes = tagAttributes(line);
    const [width, height] = (attributes.RESOLUTION ?? '0x0').split('x').map(Number);
    variants.push({
      url: new URL(uri, baseUrl).toString(),
      bandwidth: Number(attributes['AVERAGE-BANDWIDTH'] ?? attributes.BANDWIDTH) || 0,
      pixels: (width || 0) * (height || 0),
    });
  });
  return variants.sort((a, b) => b.bandwidth - a.bandwidth || b.pixels - a.pixels);
}

/** The segments of a media playlist, with the key that applies to each. */
export function mediaPlaylist(text: string, baseUrl: string): MediaPlaylist {
  const playlist: MediaPlaylist = { segments: [] };
  let sequence = 0;
  let key: HlsKey | undefined;
  for (const line of lines(text)) {
    if (line.startsWith('#EXT-X-MEDIA-SEQUENCE:')) sequence = Number(line.split(':')[1]) || 0;
    else if (line.startsWith('#EXT-X-MAP:')) playlist.initUrl = new URL(tagAttributes(line).URI ?? '', baseUrl).toString();
    else if (line.startsWith('#EXT-X-KEY:')) {
      const attributes = tagAttributes(line);
      key =
        attributes.METHOD === 'NONE'
          ? undefined
          : {
              method: attributes.METHOD ?? '',
              url: attributes.URI ? new URL(attributes.URI, baseUrl).toString() : undefined,
              iv: attributes.IV ? Buffer.from(attributes.IV.replace(/^0x/i, '').padStart(32, '0'), 'hex') : undefined,
            };
    } else if (!line.startsWith('#')) {
      playlist.segments.push({ url: new URL(line, baseUrl).toString(), sequence: sequence++, key });
    }
  }
  return playlist;
}

class UnsupportedHlsError extends Error {}

function sequenceIv(sequence: number): Buffer {
  const iv = Buffer.alloc(16);
  iv.writeUInt32BE(sequence >>> 0, 12);
  return iv;
}

/** The bytes of the best rendition, as fMP4, one piece per segment. */
async function* renditionBytes(
  client: PaysiteClient,
  playlist: MediaPlaylist,
  headers: Record<string, string> | undefined,
  onBytes: (count: number) => void,
): AsyncGenerator<Uint8Array> {
  const keys = new Map<string, Buffer>();
  const keyBytes = async (key: HlsKey): Promise<Buffer> => {
    if (key.method !== 'AES-128' || !key.url) throw new UnsupportedHlsError(`encrypted with ${key.method || 'an unknown method'}`);
    let bytes = keys.get(key.url);
    if (!bytes) {
      bytes = (await client.requestBytes(key.url, { headers })).body;
      if (bytes.length !== 16) throw new UnsupportedHlsError('its key is not an AES-128 key');
      keys.set(key.url, bytes);
    }
    return bytes;
  };
  const segmentBytes = async (segment: HlsSegment): Promise<Buffer> => {
    const body = (await client.requestBytes(segment.url, { headers })).body;
    if (!segment.key) return body;
    const decipher = crypto.createDecipheriv('aes-128-cbc', await keyBytes(segment.key), segment.key.iv ?? sequenceIv(segment.sequence));
    return Buffer.concat([decipher.update(body), decipher.final()]);
  };

  if (playlist.initUrl) {
    const init = (await client.requestBytes(playlist.initUrl, { headers })).body;
    onBytes(init.length);
    yield init;
    for (const segment of playlist.segments) {
      const bytes = await segmentBytes(segment);
      onBytes(bytes.length);
      yield bytes;
    }
    return;
  }

  // MPEG-TS: each segment is transmuxed as it arrives; the initialization section is written once.
  const transmuxer = new muxjs.mp4.Transmuxer({ remux: true });
  const pending: Uint8Array[] = [];
  let initWritten = false;
  transmuxer.on('data', (segment: { initSegment: Uint8Array; data: Uint8Array }) => {
    if (!initWritten) {
      pending.push(segment.initSegment);
      initWritten = true;
    }
    pending.push(segment.data);
  });
  for (const segment of playlist.segments) {
    transmuxer.push(new Uint8Array(await segmentBytes(segment)));
    transmuxer.flush();
    while (pending.length > 0) {
      const piece = pending.shift() as Uint8Array;
      onBytes(piece.byteLength);
      yield piece;
    }
  }
  if (!initWritten) throw new UnsupportedHlsError('its segments hold no audio or video mux.js can read');
}

/**
 * Archives an HLS video as one MP4 file (see above). @returns the file, or undefined with a log line
 * when it cannot be had (too big, refused, encrypted in a way that cannot be archived). Transient errors
 * propagate so the worker retries the import.
 */
export async function archiveHls(
  ctx: ImportContext,
  client: PaysiteClient,
  playlistUrl: string,
  name: string,
  headers?: Record<string, string>,
): Promise<ArchivedFile | undefined> {
  const fileName = `${name.replace(/\.(m3u8|ts|mp4)$/i, '') || 'video'}.mp4`.slice(0, 255);
  try {
    const first = await client.requestText(playlistUrl, { headers });
    const variants = masterVariants(first.body, first.url);
    const media = variants.length > 0 ? await client.requestText(variants[0].url, { headers }) : first;
    const playlist = mediaPlaylist(media.body, media.url);
    if (playlist.segments.length === 0) throw new UnsupportedHlsError('its playlist has no segments');
    const report = progressLogger(ctx, fileName);
    let received = 0;
    const stored = await storeStream(
      dataPaths(ctx.config.dataDir).files,
      renditionBytes(client, playlist, headers, (count) => {
        received += count;
        report(received, Number.NaN);
      }),
      '.mp4',
      { maxBytes: ctx.config.importer.maxFileBytes },
    );
    await registerFile(ctx.db, { hash: stored.sha256, size: stored.size, ext: path.extname(stored.path), mime: 'video/mp4' });
    return { name: fileName, path: stored.path, hash: stored.sha256 };
  } catch (error) {
    const line = error instanceof UnsupportedHlsError ? `Skipped ${fileName}: ${error.message}.` : skipLine(fileName, error);
    if (!line) throw error;
    await ctx.log(line);
    return undefined;
  }
}
