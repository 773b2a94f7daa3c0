/**
 * `npm run bench -- login`: what one login costs here. Median and p95 of N argon2id verifications
 * alone, and of N complete logins through HTTP (rate limits, lookup, verify, session row, cookie)
 * against a real server on a temporary database. Each login comes from its own forwarded address, so
 * the per-address limit never trips.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { verify } from '@node-rs/argon2';
import { createApp } from '../api/app.ts';
import { createAccount } from '../api/data/accounts.ts';
import { migrate, openDatabase } from '../api/data/db.ts';
import { hashPassword } from '../api/auth/passwords.ts';
import { readConfig } from '../api/config.ts';
import { AUTH_RATE_LIMITS } from '../shared/constants.ts';

const N = 40;

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1));
  return { n: samples.length, median_ms: at(0.5), p95_ms: at(0.95), min_ms: at(0) };
}

function post(base: string, body: string, from: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/api/v1/authentication/login`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': from },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function loginBenchmark() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-bench-login-'));
  const db = openDatabase(path.join(dir, 'trove.sqlite'));
  migrate(db);
  const server = http.createServer(
    createApp({ db, config: { ...readConfig({ DATA_DIR: dir }), trustProxy: true }, logger: { error() {} } }),
  );
  try {
    const stored = await hashPassword('bench-password');
    await createAccount(db, { username: 'bencher', password_hash: stored });
    await verify(stored, 'bench-password');

    const verifies: number[] = [];
    for (let i = 0; i < N; i += 1) {
      const start = performance.now();
      await verify(stored, 'bench-password');
      verifies.push(performance.now() - start);
    }

    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const body = JSON.stringify({ username: 'bencher', password: 'bench-password' });
    const logins: number[] = [];
    for (let i = 0; i < N; i += 1) {
      const start = performance.now();
      const status = await post(base, body, `10.0.${i >> 8}.${i & 255}`);
      logins.push(performance.now() - start);
      if (status !== 200) throw new Error(`login answered ${status}`);
    }
    return {
      argon2id_verify: stats(verifies),
      http_login: stats(logins),
      rate_limits: AUTH_RATE_LIMITS,
      node: process.version,
      cpus: os.cpus().length,
    };
  } finally {
    server.close();
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await loginBenchmark(), null, 2));
