/**
 * The backup test's writer: opens DATA_DIR's database through api/data/db.ts, as the server does, and
 * keeps upserting posts of one creator in small transactions, printing `ack <n>` once post n is
 * committed, until it is stopped.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { dataPaths } from '@api/config.ts';
import { sharedDatabase } from '@api/data/db.ts';
import { upsertPost } from '@api/data/posts.ts';

const db = sharedDatabase(dataPaths().database);
let stopped = false;
process.on('SIGTERM', () => {
  stopped = true;
});

for (let n = 1; !stopped; n += 1) {
  upsertPost(db, {
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
