/** The archive database as pages see it: the process-wide handle for DATA_DIR. Server side only. */
import { sharedDatabase, type Db } from '@api/data/db.ts';
import { dataPaths } from '@api/config.ts';

export function archiveDb(): Db {
  return sharedDatabase(dataPaths().database);
}
