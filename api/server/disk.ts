/**
 * Free space on the data folder's disk: one rule for /readyz and for the import worker, which pauses
 * imports below MIN_FREE_DISK_MB rather than fail them half-written.
 */
import fs from 'node:fs';

/** Bytes an unprivileged writer may still use on the disk holding dir. */
export function freeDiskBytes(dir: string): number {
  const stats = fs.statfsSync(dir);
  return stats.bavail * stats.bsize;
}

/** Whether dir's disk keeps minFreeMb free (always, for 0); `read` is the reading (tests give their own). */
export function hasEnoughDisk(dir: string, minFreeMb: number, read: (dir: string) => number = freeDiskBytes): boolean {
  return minFreeMb <= 0 || read(dir) >= minFreeMb * 1024 * 1024;
}
