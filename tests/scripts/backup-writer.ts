/**
 * The backup test's writer, run as its own process (`node --import tsx <WRITER_SCRIPT>`): opens
 * DATA_DIR's database through api/data/db.ts, as the server does, and keeps upserting posts of one
 * creator in small transactions, printing `ack <n>` once post n is committed, until SIGTERM.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { dataPaths } from '@api/config.ts';
import { sharedDatabase } from '@api/data/db.ts';
import { upsertPost } from '@api/data/posts.ts';

export const WRITER_SCRIPT = fileURLToPath(import.meta.url);

async function write(): Promise<void> {
  const db = sharedDatabase(dataPaths().database);
  let stopped = false;
  process.on('SIGTERM', () => {
    stopped = true;
  });
  for (let n = 1; !stopped; n += 1) {
    await upsertPost(db, {
      service: 'fanbox',
      user: 'writer',
      id: `live-${n}`,
      title: `Written during the backup ${n}`,
      content: `<p>${'live words '.repeat(40)}${n}</p>`,
      published: new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString().slice(0, 19),
    });
    process.stdout.write(`ack ${n}\n`);
    await sleep(2);
  }
  db.close();
}

if (process.argv[1] && path.resolve(process.argv[1]) === WRITER_SCRIPT) await write();
