/**
 * Uploading a share ('Filehaus'): the multipart body's files go into the content-addressed store as
 * they arrive (api/media/upload.ts), then one share records them, linked to its creator. The text
 * fields are checked before the first file is stored when the browser sends them first, and again at
 * the end; a refused or failed upload removes the bytes it added that no record points at.
 */
import fsp from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config.ts';
import { dataPaths } from '../config.ts';
import { findCreator } from '../data/creators.ts';
import type { Store } from '../data/store.ts';
import { getFileByHash } from '../data/files.ts';
import { createUploadedShare } from '../data/shares.ts';
import { extensionOf } from '../data/util.ts';
import { CREATOR_NOT_FOUND, ValidationError } from '../http/errors.ts';
import { storeLocation, storeStream, type StoredFile } from './store.ts';
import { receiveUpload, uploadMessages, type UploadLimits } from './upload.ts';
import { SHARE_UPLOAD_LIMITS } from '@shared/constants.ts';
import { firstIssueMessage } from '@shared/validation/rules.ts';
import { shareUploadFields } from '@shared/validation/shares.ts';

/** The stored file name: no control characters, at most filenameMax characters, keeping the extension. */
export function cleanFilename(raw: string): string {
  const name = raw.replace(/[\u0000-\u001f\u007f]/g, '').trim() || 'file';
  const chars = [...name];
  if (chars.length <= SHARE_UPLOAD_LIMITS.filenameMax) return name;
  const ext = extensionOf(name);
  const keep = ext.length < 20 ? ext : '';
  return chars.slice(0, SHARE_UPLOAD_LIMITS.filenameMax - [...keep].length).join('') + keep;
}

/** The extension files are stored under: the name's, when it is one the store accepts. */
function storeExt(filename: string): string {
  const ext = extensionOf(filename);
  return /^\.[a-z0-9]{1,16}$/.test(ext) ? ext : '';
}

/**
 * Receives the upload of `req` within `limits` and answers the new share's id. Throws
 * ValidationError (fields, unknown creator, no file), PayloadTooLargeError or BadRequestError.
 */
export async function uploadShare(
  deps: { db: Store; config: Config },
  req: IncomingMessage,
  uploaderId: number | null,
  limits: UploadLimits = SHARE_UPLOAD_LIMITS,
): Promise<number> {
  const { db } = deps;
  const filesDir = dataPaths(deps.config.dataDir).files;
  // Bytes this upload added to the store that no record points at once it failed.
  const undo = async (stored: StoredFile[]) => {
    const orphans: StoredFile[] = [];
    for (const file of stored) if (file.written && !(await getFileByHash(db, file.sha256))) orphans.push(file);
    await Promise.all(orphans.map((file) => fsp.rm(storeLocation(filesDir, file.path), { force: true })));
  };
  const readFields = async (raw: Record<string, string>) => {
    const parsed = shareUploadFields.safeParse(raw);
    if (!parsed.success) throw new ValidationError(firstIssueMessage(parsed.error));
    const creator = await findCreator(db, parsed.data.service, parsed.data.user);
    if (!creator) throw new ValidationError(CREATOR_NOT_FOUND);
    return { ...parsed.data, creator };
  };
  const upload = await receiveUpload(req, limits, {
    // Browsers send the fields before the files: refuse bad ones before storing anything.
    beforeFirstFile: async (raw) => {
      if ('name' in raw || 'service' in raw || 'user' in raw) await readFields(raw);
    },
    store: (part, stream) => storeStream(filesDir, stream, storeExt(cleanFilename(part.filename)), { maxBytes: limits.maxFileBytes }),
    undo,
  });
  try {
    const fields = await readFields(upload.fields);
    if (upload.files.length === 0) throw new ValidationError(uploadMessages.noFiles);
    return await createUploadedShare(db, {
      name: fields.name,
      description: fields.description,
      uploader_id: uploaderId,
      files: upload.files.map((file) => {
        const filename = cleanFilename(file.filename);
        return { filename, hash: file.result.sha256, size: file.result.size, ext: storeExt(filename) };
      }),
      creators: [{ service: fields.creator.service, creator_id: fields.creator.id }],
    });
  } catch (error) {
    await undo(upload.files.map((file) => file.result));
    throw error;
  }
}
