/** Every file under a folder (or the path itself when it is a file), in name order; nothing when absent. */
import fs from 'node:fs';
import path from 'node:path';

export function* walkFiles(entry: string): Generator<string> {
  let dirents: fs.Dirent[];
  try {
    dirents = fs.readdirSync(entry, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') yield entry;
    return;
  }
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const dirent of dirents) {
    const full = path.join(entry, dirent.name);
    if (dirent.isDirectory()) yield* walkFiles(full);
    else yield full;
  }
}
