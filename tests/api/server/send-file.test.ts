import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest, listen } from '../../helpers/http.ts';
import { cleanDownloadName, contentDisposition, sendFile } from '@api/server/send-file.ts';

let root: string;
let server: http.Server;
let base: string;
const body = 'hello world, '.repeat(200);

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-send-'));
  fs.writeFileSync(path.join(root, 'page.html'), body);
  fs.writeFileSync(path.join(root, 'page.html.br'), zlib.brotliCompressSync(body));
  fs.writeFileSync(path.join(root, 'page.html.gz'), zlib.gzipSync(body));
  server = http.createServer((req, res) => {
    const file = path.join(root, new URL(req.url ?? '/', 'http://x').pathname);
    if (!sendFile(req, res, file, { precompressed: true, downloadName: 'page name.html' })) {
      res.statusCode = 404;
      res.end();
    }
  });
  base = await listen(server);
});
afterAll(() => {
  server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

function get(pathname: string, headers: Record<string, string> = {}, method = 'GET') {
  return httpRequest(`${base}${pathname}`, { headers, method });
}

describe('sendFile', () => {
  it('picks brotli, then gzip, then identity by Accept-Encoding', async () => {
    const br = await get('/page.html', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(body);
    const gz = await get('/page.html', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await get('/page.html', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(body);
    expect(plain.headers.vary).toBe('Accept-Encoding');
  });

  it('answers 304 for a matching ETag or a later If-Modified-Since', async () => {
    const first = await get('/page.html');
    const etag = String(first.headers.etag);
    expect((await get('/page.html', { 'if-none-match': etag })).status).toBe(304);
    const later = new Date(Date.now() + 60_000).toUTCString();
    expect((await get('/page.html', { 'if-modified-since': later })).status).toBe(304);
    expect((await get('/page.html', { 'if-modified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' })).status).toBe(200);
  });

  it('serves byte ranges and HEAD with Content-Length', async () => {
    const head = await get('/page.html', {}, 'HEAD');
    expect(head.headers['content-length']).toBe(String(body.length));
    expect(head.body.length).toBe(0);
    const tail = await get('/page.html', { range: 'bytes=2000-' });
    expect(tail.status).toBe(206);
    expect(tail.headers['content-range']).toBe(`bytes 2000-${body.length - 1}/${body.length}`);
    expect(tail.body.toString()).toBe(body.slice(2000));
    expect((await get('/page.html', { range: 'bytes=999999-' })).status).toBe(416);
  });

  it('names downloads and falls through for missing files', async () => {
    const named = await get('/page.html');
    expect(named.headers['content-disposition']).toBe(`attachment; filename="page name.html"; filename*=UTF-8''page%20name.html`);
    expect((await get('/missing.html')).status).toBe(404);
  });
});

describe('download names', () => {
  it.each([
    ['\u202Egnp.html', 'gnp.html'],
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['a\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069\u200E\u200F\u061Cb.png', 'ab.png'],
    ['tab\there\r\nnew\u0000\u007f\u0085.txt', 'tabherenew.txt'],
    ['line\u2028para\u2029bom\uFEFFsoft\u00ADword\u2060.txt', 'lineparabomsoftword.txt'],
    ['👨\u200D👩\u200D👧 family.png', '👨\u200D👩\u200D👧 family.png'],
    ['می\u200Cخواهم.txt', 'می\u200Cخواهم.txt'],
    ['  spaced  ', 'spaced'],
  ])('cleans %j', (name, expected) => {
    expect(cleanDownloadName(name)).toBe(expected);
  });

  it('never cuts a character in half at 255 and always gives a header value', () => {
    const name = `${'x'.repeat(254)}😀😀`;
    expect(cleanDownloadName(name)).toBe(`${'x'.repeat(254)}😀`);
    expect(() => contentDisposition('attachment', name)).not.toThrow();
    expect(contentDisposition('attachment', '\u202E')).toBe('attachment');
  });
});
