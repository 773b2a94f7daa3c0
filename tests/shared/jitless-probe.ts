/**
 * Run by validation-jitless.test.ts in a fresh process: loads every browser module that builds zod
 * schemas the way a browser does (a `document` exists), counting zod's `new Function('')` probe, and
 * prints what it saw as JSON.
 */
import fs from 'node:fs';
import path from 'node:path';

const probes: string[] = [];
const RealFunction = globalThis.Function;
globalThis.Function = new Proxy(RealFunction, {
  construct(target, args, newTarget) {
    if (args.length === 1 && args[0] === '') probes.push(new Error('probe').stack ?? 'probe');
    return Reflect.construct(target, args, newTarget);
  },
});
(globalThis as { document?: unknown }).document = {};

const shared = path.resolve(import.meta.dirname, '../../shared');
const modules = [
  ...fs
    .readdirSync(path.join(shared, 'validation'))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => path.join(shared, 'validation', name)),
  path.join(shared, 'importer.ts'),
];
const loaded: Record<string, unknown>[] = [];
for (const file of modules) loaded.push(await import(file));

// Parse with every exported schema, so parsers built on first use run too.
let parsed = 0;
for (const exports of loaded) {
  for (const value of Object.values(exports)) {
    if (value && typeof value === 'object' && 'safeParse' in value && typeof value.safeParse === 'function') {
      value.safeParse({});
      parsed += 1;
    }
  }
}

const { z } = await import('zod');
console.log(JSON.stringify({ modules: modules.map((file) => path.relative(shared, file)), parsed, jitless: z.config().jitless, probes }));
