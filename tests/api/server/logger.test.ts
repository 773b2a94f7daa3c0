/**
 * createLogger: JSON lines or readable (pino-pretty) lines, both written before the call returns (no
 * worker-thread transport), at the configured level, with credentials redacted at any depth we log.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, REDACTED } from '@api/server/logger.ts';

function sink() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

const SECRETS = {
  password: 'pw-logger-test-1',
  session_key: 'sk-logger-test-2',
  key: 'k-logger-test-3',
  token: 't-logger-test-4',
  auth_id: 'a-logger-test-5',
  'x-bc': 'x-logger-test-6',
  cookie: 'c-logger-test-7',
};

describe('createLogger', () => {
  it('writes one JSON object a line, synchronously, with credentials redacted at depth', () => {
    const out = sink();
    const logger = createLogger({ logLevel: 'info', logFormat: 'json' }, { destination: out.stream, name: 'trove' });
    logger.info({ ...SECRETS, form: { ...SECRETS, inner: { deeper: { ...SECRETS } } } }, 'Serving http://localhost:4321');
    logger.debug('below the level');
    const lines = out.text().trim().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, name: 'trove', msg: 'Serving http://localhost:4321', password: REDACTED });
    expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT/);
    for (const secret of Object.values(SECRETS)) expect(out.text()).not.toContain(secret);
    expect((line.form as { inner: { deeper: Record<string, string> } }).inner.deeper['x-bc']).toBe(REDACTED);
  });

  it('writes readable single lines through pino-pretty, synchronously, redacted too', () => {
    const out = sink();
    const logger = createLogger({ logLevel: 'debug', logFormat: 'pretty' }, { destination: out.stream });
    logger.info({ session_key: SECRETS.session_key }, 'Import abc (patreon) claimed.');
    logger.debug('a debug line');
    const text = out.text();
    expect(text).toMatch(/INFO.*: Import abc \(patreon\) claimed\./);
    // One line a record: the fields follow the message on its line.
    expect(text).toContain(`claimed. {"session_key":"${REDACTED}"}`);
    expect(text).toMatch(/DEBUG.*: a debug line/);
    expect(text).not.toContain(SECRETS.session_key);
    expect(text).not.toMatch(/^\{/m);
  });
});
