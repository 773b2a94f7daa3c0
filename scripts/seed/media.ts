/**
 * Demo media: a pool of generated images (sharp renders an SVG of coloured shapes with a text
 * overlay into PNG, JPEG or WebP), zip archives (yazl), password-protected zips (7z-wasm, AES-256),
 * two short real videos with their poster frames (committed under ./assets, see its README) and a
 * PDF-like text file. Every file goes through the content-addressed store and gets a `files` row.
 * Posts reuse the pool, so a million posts need no new files.
 */
import sharp from 'sharp';
import fs from 'node:fs';
import path from 'node:path';
import type { Store } from '@api/data/store.ts';
import { registerFile } from '@api/data/files.ts';
import { setArchiveInfo } from '@api/data/archive-files.ts';
import { storeFileSync } from '@api/media/store.ts';
import { thumbnailFileOf } from '@api/media/thumbnails.ts';
import type { Rng } from './random.ts';
import { encryptedZip, zipBuffer } from './archives.ts';

export interface PoolFile {
  hash: string;
  path: string;
  /** Download name, e.g. 'illustration_07.png'. */
  name: string;
  ext: string;
  size: number;
  fileId: number;
}

export interface MediaPool {
  images: PoolFile[];
  zips: PoolFile[];
  /** Password-protected zip whose password is stored (shown on /file/{hash}). */
  lockedKnown: PoolFile;
  /** Password-protected zip whose password is required but not stored. */
  lockedUnknown: PoolFile;
  /** Password of lockedKnown (stored) and of lockedUnknown (not stored; for trying the password form). */
  passwords: { known: string; unknown: string };
  videos: PoolFile[];
  documents: PoolFile[];
  icons: Buffer[];
  banners: Buffer[];
}

const PALETTES = [
  ['#f94144', '#f3722c', '#f8961e', '#f9c74f'],
  ['#90be6d', '#43aa8b', '#4d908e', '#577590'],
  ['#277da1', '#4cc9f0', '#4361ee', '#3a0ca3'],
  ['#7209b7', '#b5179e', '#f72585', '#ffafcc'],
  ['#2b2d42', '#8d99ae', '#edf2f4', '#ef233c'],
  ['#606c38', '#283618', '#fefae0', '#dda15e'],
  ['#003049', '#d62828', '#f77f00', '#fcbf49'],
  ['#0b132b', '#1c2541', '#3a506b', '#5bc0be'],
];

function imageSvg(rng: Rng, index: number, width: number, height: number, label: string): string {
  const palette = PALETTES[index % PALETTES.length];
  const shapes: string[] = [];
  const count = rng.int(5, 12);
  for (let i = 0; i < count; i += 1) {
    const colour = rng.pick(palette);
    const opacity = (0.45 + rng.next() * 0.5).toFixed(2);
    const kind = rng.int(0, 2);
    if (kind === 0) {
      shapes.push(
        `<circle cx="${rng.int(0, width)}" cy="${rng.int(0, height)}" r="${rng.int(20, 160)}" fill="${colour}" fill-opacity="${opacity}"/>`,
      );
    } else if (kind === 1) {
      shapes.push(
        `<rect x="${rng.int(-50, width)}" y="${rng.int(-50, height)}" width="${rng.int(40, 300)}" height="${rng.int(40, 240)}" ` +
          `rx="${rng.int(0, 30)}" fill="${colour}" fill-opacity="${opacity}" transform="rotate(${rng.int(-30, 30)} ${width / 2} ${height / 2})"/>`,
      );
    } else {
      const points = Array.from({ length: 3 }, () => `${rng.int(0, width)},${rng.int(0, height)}`).join(' ');
      shapes.push(`<polygon points="${points}" fill="${colour}" fill-opacity="${opacity}"/>`);
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="${palette[0]}"/><stop offset="1" stop-color="${palette[3]}"/>
  </linearGradient></defs>
  <rect width="${width}" height="${height}" fill="url(#bg)"/>
  ${shapes.join('\n  ')}
  <rect x="0" y="${height - 70}" width="${width}" height="70" fill="#000" fill-opacity="0.45"/>
  <text x="24" y="${height - 26}" font-family="DejaVu Sans, sans-serif" font-size="30" fill="#fff">${label}</text>
</svg>`;
}

/** The committed demo media (scripts/seed/assets, made once with ffmpeg: see its README). */
const ASSETS = new URL('./assets/', import.meta.url);
const DEMO_VIDEOS = [
  { name: 'timelapse.mp4', ext: 'mp4', poster: 'timelapse.poster.webp' },
  { name: 'preview.webm', ext: 'webm', poster: 'preview.poster.webp' },
];

async function storeAndRegister(db: Store, filesDir: string, data: Buffer, ext: string, name: string, added: string): Promise<PoolFile> {
  const stored = storeFileSync(filesDir, data, ext);
  const record = await registerFile(db, { hash: stored.sha256, size: stored.size, ext, added });
  return { hash: stored.sha256, path: stored.path, name, ext: record.ext, size: stored.size, fileId: record.id };
}

/**
 * Generates and stores the media pool: `imageCount` images (640x480, a third each PNG, JPEG, WebP),
 * 3 zips, 2 encrypted zips, 2 videos, 1 document, plus icon and banner images (returned as buffers,
 * written per creator by writeCreatorImages).
 *
 * The videos are 3-second 320x180 clips (H.264 in MP4, VP9 in WebM, a few KB each); their poster
 * frames are written as their thumbnails into `thumbnailsDir`, since the server cannot make one.
 * The encrypted zips differ between runs (7-Zip draws a random AES salt); everything else is
 * byte-identical for the same seed.
 */
export async function createMediaPool(
  db: Store,
  filesDir: string,
  rng: Rng,
  options: { imageCount: number; added: string; thumbnailsDir: string; onImage?: (done: number, total: number) => void },
): Promise<MediaPool> {
  const formats = ['png', 'jpg', 'webp'] as const;
  const images: PoolFile[] = [];
  let firstImage: Buffer | undefined;
  for (let i = 0; i < options.imageCount; i += 1) {
    const format = formats[i % formats.length];
    const svg = imageSvg(rng, i, 640, 480, `Trove demo image ${String(i + 1).padStart(2, '0')}`);
    const pipeline = sharp(Buffer.from(svg));
    const data =
      format === 'png'
        ? await pipeline.png({ compressionLevel: 9 }).toBuffer()
        : format === 'jpg'
          ? await pipeline.jpeg({ quality: 82 }).toBuffer()
          : await pipeline.webp({ quality: 80 }).toBuffer();
    firstImage ??= data;
    images.push(
      await storeAndRegister(db, filesDir, data, format, `illustration_${String(i + 1).padStart(2, '0')}.${format}`, options.added),
    );
    options.onImage?.(i + 1, options.imageCount);
  }

  const readme = (title: string) => Buffer.from(`${title}\n\nDemo archive file generated by the Trove seed.\nこのファイルはデモです。\n`);
  const zipSpecs = [
    { name: 'rewards_pack.zip', entries: ['readme.txt', 'notes/credits.txt', images[0]?.name ?? 'image.png'] },
    { name: 'psd_and_layers.zip', entries: ['readme.txt', 'layers/lineart.txt', 'layers/colors.txt', 'license.txt'] },
    { name: 'comic_chapter.zip', entries: ['page_01.txt', 'page_02.txt', 'page_03.txt', 'afterword.txt'] },
  ];
  const zips: PoolFile[] = [];
  for (const spec of zipSpecs) {
    const entries = spec.entries.map((name, i) => ({
      name,
      data: name === images[0]?.name && firstImage ? firstImage : readme(`${spec.name} / ${name} (${i + 1})`),
    }));
    const file = await storeAndRegister(db, filesDir, await zipBuffer(entries), 'zip', spec.name, options.added);
    await setArchiveInfo(db, { hash: file.hash, file_list: spec.entries, password: null, password_required: false, added: options.added });
    zips.push(file);
  }

  const passwords = { known: 'trove-demo', unknown: 'open-sesame' };
  const lockedEntries = [
    { name: 'bonus_art.txt', data: readme('Bonus content') },
    { name: 'high_res_notes.txt', data: readme('High resolution notes') },
  ];
  const lockedKnown = await storeAndRegister(
    db,
    filesDir,
    await encryptedZip(lockedEntries, passwords.known),
    'zip',
    'locked_rewards.zip',
    options.added,
  );
  await setArchiveInfo(db, {
    hash: lockedKnown.hash,
    file_list: lockedEntries.map((e) => e.name),
    password: passwords.known,
    password_required: true,
    added: options.added,
  });
  const secretEntries = [
    { name: 'secret_sketches.txt', data: readme('Secret sketches') },
    { name: 'process/steps.txt', data: readme('Process steps') },
  ];
  const lockedUnknown = await storeAndRegister(
    db,
    filesDir,
    await encryptedZip(
      secretEntries.map((e) => ({ ...e, name: e.name.replace('/', '_') })),
      passwords.unknown,
    ),
    'zip',
    'gumroad_bundle.zip',
    options.added,
  );
  await setArchiveInfo(db, {
    hash: lockedUnknown.hash,
    file_list: secretEntries.map((e) => e.name.replace('/', '_')),
    password: null,
    password_required: true,
    added: options.added,
  });

  const videos: PoolFile[] = [];
  for (const { name, ext, poster } of DEMO_VIDEOS) {
    const video = await storeAndRegister(db, filesDir, fs.readFileSync(new URL(name, ASSETS)), ext, name, options.added);
    const posterFile = thumbnailFileOf(options.thumbnailsDir, video.hash);
    fs.mkdirSync(path.dirname(posterFile), { recursive: true });
    fs.writeFileSync(posterFile, fs.readFileSync(new URL(poster, ASSETS)));
    videos.push(video);
  }
  const documents = [
    await storeAndRegister(
      db,
      filesDir,
      Buffer.from('Trove demo document.\n\nThank you for your support!\n'),
      'txt',
      'thank_you.txt',
      options.added,
    ),
  ];

  const icons: Buffer[] = [];
  const banners: Buffer[] = [];
  for (let i = 0; i < PALETTES.length; i += 1) {
    icons.push(
      await sharp(Buffer.from(imageSvg(rng, i, 200, 200, '')))
        .png()
        .toBuffer(),
    );
    banners.push(
      await sharp(Buffer.from(imageSvg(rng, i + 3, 1200, 300, '')))
        .jpeg({ quality: 80 })
        .toBuffer(),
    );
  }

  return { images, zips, lockedKnown, lockedUnknown, passwords, videos, documents, icons, banners };
}

/** Writes a creator's icon and banner as <iconsDir>/<service>/<id> and <bannersDir>/<service>/<id>. */
export function writeCreatorImages(
  dirs: { icons: string; banners: string },
  pool: Pick<MediaPool, 'icons' | 'banners'>,
  service: string,
  id: string,
  index: number,
): void {
  const safe = (segment: string) => segment.replace(/[^A-Za-z0-9._-]/g, '_');
  for (const [dir, images] of [
    [dirs.icons, pool.icons],
    [dirs.banners, pool.banners],
  ] as const) {
    const folder = path.join(dir, safe(service));
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, safe(id)), images[index % images.length]);
  }
}
