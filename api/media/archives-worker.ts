/**
 * The worker thread that runs 7-Zip (7z-wasm) on one archive, as plain CommonJS source for
 * `new Worker(source, { eval: true })`. It is a string, not a module file, so it runs the same under
 * tsx, vitest and the bundled SSR build (none of which would resolve a .ts worker file for us).
 *
 * It mounts the archive's folder with NODEFS (7-Zip only opens the file to read it: `l` and `t` never
 * write), lists it with `l -slt` and, when a password is given and an entry is encrypted, tests the
 * smallest encrypted entry with `t` (listing alone does not check a zip password). It reports:
 *   {type: 'entries', entries, truncated: true}   once the entry cap is passed without a password
 *                                                 (the parent then terminates it: 7-Zip cannot be
 *                                                 stopped from a print callback, throwing there
 *                                                 makes it spin);
 *   {type: 'done', list: Run, test: Run | null}   otherwise.
 * Run = {code, threw, prompted, errors: string[], entries, archiveErrors, truncated, declaredSize}. Classification happens in
 * the parent (api/media/archives.ts), which keeps this source small.
 *
 * workerData: {lib (path of 7z-wasm's CommonJS build), dir, name, formats (7-Zip -t names to try),
 * password (string or null), maxEntries}.
 */
// biome-ignore lint/complexity/noUselessStringRaw: the worker's source is kept raw so a backslash added to it later stays as written
export const ARCHIVE_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const factory = require(workerData.lib);

const MAX_ERRORS = 20;

function newRun() {
  return { code: null, threw: null, prompted: false, errors: [], archiveErrors: [], entries: [], truncated: false, declaredSize: 0 };
}

let run = newRun();
let section = 'head';
let current = null;
let stopped = false;

function finishEntry() {
  if (!current) return;
  const entry = current;
  current = null;
  if (entry.folder) return;
  run.declaredSize += entry.size;
  if (run.entries.length >= workerData.maxEntries) {
    run.truncated = true;
    // With a password the listing runs on (names no longer kept) so the password still gets tested.
    if (workerData.password !== null) return;
    stopped = true;
    parentPort.postMessage({ type: 'entries', entries: run.entries, truncated: true, declaredSize: run.declaredSize });
    return;
  }
  run.entries.push({ name: entry.name, size: entry.size, encrypted: entry.encrypted, link: entry.link });
}

function onLine(line) {
  if (stopped) return;
  if (line.indexOf('Enter password') !== -1) run.prompted = true;
  if (section === 'head') {
    if (line === '----------') section = 'entries';
    else if (/^(ERROR|Open ERROR|ERRORS|WARNING|Is not archive|Headers Error|Unexpected end)/.test(line.trim())) pushError(run.archiveErrors, line);
    return;
  }
  if (line === '') {
    finishEntry();
    return;
  }
  const eq = line.indexOf(' = ');
  const key = eq === -1 ? line.replace(/ =$/, '') : line.slice(0, eq);
  const value = eq === -1 ? '' : line.slice(eq + 3);
  if (key === 'Path') {
    finishEntry();
    current = { name: value, size: 0, encrypted: false, link: false, folder: false };
    return;
  }
  if (!current) return;
  if (key === 'Size') current.size = Number(value) || 0;
  else if (key === 'Folder') current.folder = value === '+';
  else if (key === 'Encrypted') current.encrypted = value === '+';
  else if (key === 'Attributes') {
    // '<Windows letters> <unix mode>', either part optional: 'A', ' -rw-r--r--', 'A lrwxrwxrwx'.
    for (const token of value.split(' ')) {
      if (/^[-dlbcps][-rwxsStT]{9}$/.test(token)) current.link = current.link || token[0] === 'l';
      else if (token.indexOf('L') !== -1) current.link = true;
    }
  } else if (/Link$/.test(key) && value !== '') current.link = true;
}

function pushError(list, line) {
  if (list.length < MAX_ERRORS && line.trim() !== '') list.push(line.trim().slice(0, 300));
}

async function execute(args) {
  run = newRun();
  section = 'head';
  current = null;
  stopped = false;
  const sevenZip = await factory({
    print: onLine,
    printErr: (line) => {
      if (line.indexOf('Enter password') !== -1) run.prompted = true;
      pushError(run.errors, line);
    },
    // 7-Zip asks for a missing password on stdin: answering end-of-input makes it give up.
    stdin: () => null,
  });
  sevenZip.FS.mkdir('/archive');
  sevenZip.FS.mount(sevenZip.NODEFS, { root: workerData.dir }, '/archive');
  try {
    run.code = sevenZip.callMain(args);
  } catch (error) {
    run.threw = error && error.message ? String(error.message) : String(error);
  }
  finishEntry();
  return run;
}

async function main() {
  const file = '/archive/' + workerData.name;
  const password = workerData.password;
  let common = [];
  let list = null;
  // One handler per try ('rar5' then 'rar' for .rar): a file is only read as its own format.
  for (const format of workerData.formats) {
    common = ['-bsp0', '-bb0', '-t' + format];
    const listArgs = ['l', '-slt', ...common];
    if (password !== null) listArgs.push('-p' + password);
    listArgs.push('--', file);
    list = await execute(listArgs);
    if (stopped) return;
    const notThisFormat = list.entries.length === 0 && [...list.errors, ...list.archiveErrors].some((line) => /Cannot open the file as|Is not archive/.test(line));
    if (!notThisFormat) break;
  }
  let test = null;
  const encrypted = list.entries.filter((entry) => entry.encrypted);
  if (password !== null && encrypted.length > 0 && list.code !== null && list.code <= 1) {
    // Names starting with '@' would be read as list files; such archives are tested whole.
    const candidates = encrypted.filter((entry) => !/^[@-]/.test(entry.name)).sort((a, b) => a.size - b.size);
    const testArgs = ['t', ...common, '-spd', '-p' + password, '--', file];
    if (candidates.length > 0) testArgs.push(candidates[0].name);
    test = await execute(testArgs);
    test.entries = [];
  }
  parentPort.postMessage({ type: 'done', list, test });
}

main().catch((error) => {
  parentPort.postMessage({ type: 'failed', message: error && error.message ? String(error.message) : String(error) });
});
`;
