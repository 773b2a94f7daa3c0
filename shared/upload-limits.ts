/**
 * The messages of upload limits, shared by the server (api/media/upload.ts) and the upload form,
 * which checks the same limits before sending. Browser-safe.
 */

export interface UploadLimits {
  maxFileBytes: number;
  maxFiles: number;
  maxTotalBytes: number;
  /** Longest text field, in bytes (longer is a 413). */
  maxFieldBytes?: number;
  maxFields?: number;
}

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

/** '200 MiB', '1 GiB', '1000 bytes': whole binary units when the figure is one, else bytes. */
export function formatBytes(bytes: number): string {
  if (bytes >= GiB && bytes % GiB === 0) return `${bytes / GiB} GiB`;
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= KiB && bytes % KiB === 0) return `${bytes / KiB} KiB`;
  return `${bytes} bytes`;
}

export const uploadMessages = {
  notMultipart: 'The upload must be sent as multipart/form-data.',
  malformed: 'The upload could not be read.',
  noFiles: 'At least one file is required.',
  fileTooLarge: (name: string, limits: UploadLimits) => `File "${name}" is larger than ${formatBytes(limits.maxFileBytes)}.`,
  tooManyFiles: (limits: UploadLimits) => `At most ${limits.maxFiles} files can be uploaded at once.`,
  totalTooLarge: (limits: UploadLimits) => `The upload is larger than ${formatBytes(limits.maxTotalBytes)} in total.`,
  fieldTooLarge: 'A form field is too long.',
  tooManyFields: 'The upload has too many form fields.',
} as const;

/** The first limit a set of files breaks, as the server would word it; undefined when they fit. */
export function checkUploadFiles(files: readonly { name: string; size: number }[], limits: UploadLimits): string | undefined {
  if (files.length === 0) return uploadMessages.noFiles;
  if (files.length > limits.maxFiles) return uploadMessages.tooManyFiles(limits);
  const big = files.find((file) => file.size > limits.maxFileBytes);
  if (big) return uploadMessages.fileTooLarge(big.name, limits);
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > limits.maxTotalBytes) return uploadMessages.totalTooLarge(limits);
  return undefined;
}
