/**
 * Real media bytes for the fakes: small PNG/JPEG/WebP images drawn by sharp (their colour comes from
 * their name, so each name has its own bytes and hash), the demo seed's clips (scripts/seed/assets:
 * H.264 MP4, VP9 WebM, a WebP poster), the committed media of tests/fakes/assets (the clip as three
 * MPEG-TS segments, AAC and MP3 tones: see tests/fakes/README.md for how they were made), silent MP3s
 * made of real MPEG-1 Layer III frames, a one-page PDF, and bytes chosen by a file name's extension.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import sharp from 'sharp';
import { zipOf } from './zip.ts';

// ---------------------------------------------------------------------------------------------
// Images

type Rgb = { r: number; g: number; b: number };

/**
 * How an image's colour comes from its seed. Each fake keeps the way it has always used, so its files
 * keep their bytes and hashes: 'sha256' (the first three bytes of the seed's SHA-256), 'fnv1a' (32-bit
 * FNV-1a over its UTF-16 units), 'x31' (the 31-multiplier string hash), or a given colour.
 */
export type Colour = 'sha256' | 'fnv1a' | 'x31' | Rgb;

export interface ImageOptions {
  format?: 'png' | 'jpeg' | 'webp';
  width?: number;
  height?: number;
  colour?: Colour;
  /** Adds a square of the inverse colour (a quarter of the size) at 1,1, so the image is not flat. */
  inset?: boolean;
}

function colourOf(seed: string, colour: Colour): Rgb {
  if (typeof colour === 'object') return colour;
  if (colour === 'sha256') {
    const d = createHash('sha256').update(seed).digest();
    return { r: d[0], g: d[1], b: d[2] };
  }
  let h = colour === 'fnv1a' ? 2166136261 : 0;
  for (const ch of seed) h = colour === 'fnv1a' ? Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0 : (h * 31 + ch.charCodeAt(0)) >>> 0;
  return { r: h & 255, g: (h >>> 8) & 255, b: (h >>> 16) & 255 };
}

const images = new Map<string, Promise<Buffer>>();

/** A small real image (16x12 PNG unless told) whose colour comes from `seed`. */
export function image(seed: string, options: ImageOptions = {}): Promise<Buffer> {
  const { format = 'png', width = 16, height = 12, colour = 'sha256', inset = false } = options;
  const key = JSON.stringify([seed, format, width, height, colour, inset]);
  let bytes = images.get(key);
  if (!bytes) {
    const background = colourOf(seed, colour);
    let base = sharp({ create: { width, height, channels: 3, background } });
    if (inset) {
      const mark = { r: 255 - background.r, g: 255 - background.g, b: 255 - background.b };
      base = base.composite([
        {
          input: { create: { width: Math.max(1, width >> 2), height: Math.max(1, height >> 2), channels: 3, background: mark } },
          left: 1,
          top: 1,
        },
      ]);
    }
    bytes = (format === 'png' ? base.png() : format === 'jpeg' ? base.jpeg({ quality: 80 }) : base.webp()).toBuffer();
    images.set(key, bytes);
  }
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// Committed media

const assets = new Map<string, Buffer>();
function asset(relative: string): Buffer {
  let bytes = assets.get(relative);
  if (!bytes) {
    bytes = fs.readFileSync(new URL(relative, import.meta.url));
    assets.set(relative, bytes);
  }
  return bytes;
}

/** The real media the fakes serve. */
export const media = {
  /** 3 s, 320x180, H.264, +faststart, about 9 KB (scripts/seed/assets/timelapse.mp4). */
  mp4: () => asset('../../../scripts/seed/assets/timelapse.mp4'),
  /** Its poster frame (WebP). */
  poster: () => asset('../../../scripts/seed/assets/timelapse.poster.webp'),
  /** The seed's 3 s VP9 WebM. */
  webm: () => asset('../../../scripts/seed/assets/preview.webm'),
  /** The same clip as three 1 s MPEG-TS segments. */
  segments: () => [0, 1, 2].map((n) => asset(`../assets/timelapse-${n}.mpegts`)),
  segmentSeconds: [1, 1, 1],
  /** A 1.5 s 440 Hz tone, AAC in MP4. */
  m4a: () => asset('../assets/tone.m4a'),
  /** A 1.5 s 660 Hz tone, MP3. */
  mp3: () => asset('../assets/tone.mp3'),
};

// ---------------------------------------------------------------------------------------------
// Made-up documents

/**
 * Silence as a real MP3: MPEG-1 Layer III frames, 128 kbit/s, 44.1 kHz, mono (header FF FB 90 C4, 417
 * bytes a frame; all-zero side information decodes as silence), `frames` of them or about `seconds`
 * (default 1 s), after an ID3v2.3 tag holding `title` when one is given.
 */
export function silentMp3(options: { seconds?: number; frames?: number; title?: string } = {}): Buffer {
  const frames = options.frames ?? Math.max(1, Math.round(((options.seconds ?? 1) * 44100) / 1152));
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0xc4]);
  const audio = Array.from({ length: frames }, () => frame);
  if (options.title === undefined) return Buffer.concat(audio);
  const text = Buffer.from(`\u0000${options.title}`, 'latin1');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(text.length);
  const tit2 = Buffer.concat([Buffer.from('TIT2'), length, Buffer.from([0, 0]), text]);
  const size = tit2.length;
  const id3 = Buffer.concat([
    Buffer.from('ID3\u0003\u0000\u0000', 'latin1'),
    Buffer.from([(size >> 21) & 127, (size >> 14) & 127, (size >> 7) & 127, size & 127]),
    tit2,
  ]);
  return Buffer.concat([id3, ...audio]);
}

/** A real one-page PDF showing `text`, with a correct cross-reference table. */
export function pdfBytes(text: string): Buffer {
  const safe = text.replace(/[^\x20-\x7e]/g, '?').replace(/[()\\]/g, '\\$&');
  const stream = `BT /F1 12 Tf 20 60 Td (${safe}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 120] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

// ---------------------------------------------------------------------------------------------
// Bytes by file name

const zips = new Map<string, Promise<Buffer>>();
/** A real zip holding a readme and a small PNG, named after the archive. */
export function zipFor(name: string): Promise<Buffer> {
  let zip = zips.get(name);
  if (!zip) {
    zip = image(`${name}/preview`, { colour: 'fnv1a' }).then((png) =>
      zipOf(
        [
          { name: 'readme.txt', data: `${name}: files from the fake paysite.\n` },
          { name: 'images/preview.png', data: png },
        ],
        new Date('2024-06-01T12:00:00Z'),
      ),
    );
    zips.set(name, zip);
  }
  return zip;
}

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  pdf: 'application/pdf',
  zip: 'application/zip',
  txt: 'text/plain; charset=utf-8',
};

export const extensionOf = (name: string) => /\.([a-z0-9]+)$/i.exec(name)?.[1].toLowerCase() ?? '';
export const mimeOf = (name: string) => TYPES[extensionOf(name)] ?? 'application/octet-stream';

/**
 * Bytes and Content-Type for a file name, by its extension: images coloured by the name (FNV-1a),
 * the seed's clips, a titled silent MP3, a PDF and a zip naming the file, text; anything else a PNG.
 */
export async function bytesFor(name: string): Promise<{ bytes: Buffer; type: string }> {
  const ext = extensionOf(name);
  const make: Record<string, () => Buffer | Promise<Buffer>> = {
    jpg: () => image(name, { format: 'jpeg', colour: 'fnv1a' }),
    jpeg: () => image(name, { format: 'jpeg', colour: 'fnv1a' }),
    mp4: media.mp4,
    webm: media.webm,
    webp: media.poster,
    mp3: () => silentMp3({ frames: 20, title: name }),
    pdf: () => pdfBytes(name),
    zip: () => zipFor(name),
    txt: () => Buffer.from(`${name}\n`),
  };
  const bytes = await (Object.hasOwn(make, ext) ? make[ext] : () => image(name, { colour: 'fnv1a' }))();
  return { bytes, type: mimeOf(name) };
}
