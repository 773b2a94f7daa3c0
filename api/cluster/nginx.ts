/**
 * nginx in front of several web nodes (`npm start` on each machine, one PostgreSQL, DATA_DIR on shared
 * storage). nginx answers what is already on disk, the build's files (dist/client) and stored archive
 * pages (DATA_DIR/pages), with the headers the front server (api/server/front.ts) would send for them;
 * everything else goes to the nodes, which render, answer the API and media, and fill the page store.
 *
 * The mapping from a request to a stored file is the page store's (PageStore.fileFor), restricted to the
 * requests where it is unambiguous: GET or HEAD, a raw path of plain segments (letters, digits and the
 * few characters encodeURIComponent keeps; no '%', no dots, so the raw path is the decoded one and the
 * file name), optionally one trailing slash (the front server drops it too), and either no query, or
 * exactly `o=<positive multiple of the page size>`; feeds are the `feed.rss`/`feed.atom` file beside
 * their page. A file only exists for a canonical key the front server stored, so whenever nginx finds
 * one, the front server would have answered the same file. Any other request goes to a node.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PAGE_SIZE, SHARE_UPLOAD_LIMITS } from '@shared/constants.ts';
import { mimeForExt } from '@shared/mime.ts';
import { FEED_FILES } from '@shared/urls.ts';
import { dataPaths, type Config } from '../config.ts';
import { FEED_CONTENT_TYPES } from '../feeds/render.ts';
import { pageSecurityPolicy, STRICT_TRANSPORT_SECURITY } from '../server/csp.ts';
import { OPERATOR_PATHS } from '../server/operator.ts';
import { PageStore } from '../server/page-store.ts';
import { ACCEL_FILES_HEADER, IMMUTABLE, REVALIDATE, SECURITY_HEADERS } from '../server/response-headers.ts';
import { ENCODINGS } from '../server/send-file.ts';

export interface NginxOptions {
  /** Where nginx listens: `listenHost` (default 127.0.0.1) and this port. */
  listenPort: number;
  listenHost?: string;
  /** 'host:port' of each web node. */
  upstreams: string[];
  /** The shared DATA_DIR: its pages/ folder is the page store. */
  dataDir: string;
  /** The build's browser files (dist/client). */
  clientDir: string;
  /** nginx's pid file, temporary folders, logs and the written nginx.conf. */
  runDir: string;
  /** Trove's settings: the page Content-Security-Policy and the server name come from them. */
  config: Config;
  /**
   * The account nginx's workers run as when it is started by root (ignored otherwise). Default: root
   * itself when the renderer runs as root (throwaway instances read folders only their creator may),
   * none otherwise.
   */
  user?: string;
  /**
   * The brotli_static module renderNginxConfig loads (Debian: libnginx-mod-http-brotli-static, the
   * default path); '' leaves brotli out (gzip siblings only).
   */
  brotliModule?: string;
}

/** The internal location nginx sends stored files from, named to the nodes in ACCEL_FILES_HEADER. */
const ACCEL_FILES = '/_trove_files/';

/** Set on every request to a node: the nodes trust these (TRUST_PROXY=1), so nginx always sets them. */
const FORWARDED = [
  'proxy_set_header Connection "";',
  'proxy_set_header Host $trove_host;',
  'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
  'proxy_set_header X-Forwarded-Proto $scheme;',
  'proxy_set_header X-Forwarded-Host $trove_host;',
];

/** The upstream block's name. */
const UPSTREAM = 'trove_nodes';
const DEFAULT_BROTLI_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';

/** The front server's media prefixes (api/server/media.ts, MEDIA_PREFIX): always the nodes' to answer. */
const MEDIA_LOCATION = '^/(?:(?:data|thumbnail|icons|banners)(?:/|$)|[0-9a-f]{2}/[0-9a-f]{2}/)';

/** Extensions of the build's files given the front server's types (mimeForExt); others get its default. */
const BUILT_EXTENSIONS = 'html css js mjs json txt xml svg png jpg jpeg gif webp avif ico woff woff2'.split(' ');

/**
 * The characters of a path segment that encodeURIComponent keeps and the store's encodeSegment does
 * not escape: for these the raw segment, the decoded one and the store's file name are the same string.
 * Dots are left out (the store writes them as %2E), so '.', '..' and file-like names never match.
 */
const SEGMENT = "/[A-Za-z0-9_~!'()-]+";

/**
 * Accept-Encoding tokens, as the front server reads them: the sibling nginx must find before it answers
 * a client that accepts it. A missing one (pages of a full render get theirs on first request) sends the
 * request to a node, which writes them.
 */
const [ACCEPTS_BR, ACCEPTS_GZIP] = ENCODINGS.map(({ accepted }) => accepted.source);

/** An nginx string literal; '$' would start a variable and cannot be escaped, so it is refused. */
function quote(value: string): string {
  if (/[$\r\n\0]/.test(value)) throw new Error(`Cannot put ${JSON.stringify(value)} into nginx.conf.`);
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/** A regular expression as an nginx string: '$' is an anchor there, never a variable. */
function quoteRegex(pattern: string): string {
  if (/["\r\n\0]/.test(pattern)) throw new Error(`Cannot put ${JSON.stringify(pattern)} into nginx.conf.`);
  return `"${pattern}"`;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A regex of the positive multiples of `step`, when step divides a power of ten up to a million (the
 * last digits then decide): 50 → '[1-9][0-9]*(?:00|50)|50'. Otherwise any positive number, the stored
 * file's existence then deciding alone.
 */
function positiveMultiplesOf(step: number): string {
  for (let digits = 1; digits <= 6; digits += 1) {
    const modulus = 10 ** digits;
    if (modulus % step !== 0) continue;
    const endings: string[] = [];
    const small: string[] = [];
    for (let value = 0; value < modulus; value += step) {
      endings.push(String(value).padStart(digits, '0'));
      if (value > 0) small.push(String(value));
    }
    return `[1-9][0-9]*(?:${endings.join('|')})|${small.join('|')}`;
  }
  return '[1-9][0-9]*';
}

function listenAddress(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The headers the front server sends with a file of the build or the store (send-file.ts and front.ts). */
function fileHeaders(cacheControl: string, policy: string): string[] {
  return [
    `add_header Cache-Control ${quote(cacheControl)} always;`,
    'add_header Vary Accept-Encoding always;',
    ...Object.entries(SECURITY_HEADERS).map(([name, value]) => `add_header ${name} ${quote(value)} always;`),
    `add_header Content-Security-Policy ${quote(policy)} always;`,
    // Empty (not sent) unless the request came over https, as cameOverHttps decides for the nodes.
    'add_header Strict-Transport-Security $trove_hsts always;',
  ];
}

function typesBlock(types: Record<string, string>): string[] {
  return ['types {', ...Object.entries(types).map(([ext, type]) => `    ${quote(type)} ${ext};`), '}'];
}

function indent(lines: string[], depth = 1): string[] {
  return lines.map((line) => (line ? `${'    '.repeat(depth)}${line}` : line));
}

function block(head: string, body: string[]): string[] {
  return [`${head} {`, ...indent(body), '}'];
}

/**
 * The http-level part: the upstream block, the maps and the server. Valid inside any http {} block:
 * renderNginxConfig wraps it, and deploy/nginx/trove.conf is this for a Debian nginx (conf.d).
 */
export function renderSiteConfig(options: NginxOptions): string {
  const { config } = options;
  const pages = dataPaths(options.dataDir).pages;
  const policy = pageSecurityPolicy(config);
  const brotli = options.brotliModule !== '';
  const feed = Object.values(FEED_FILES).map(escapeRegex).join('|');
  const read = '(?:GET|HEAD) ';
  const serverName = new URL(config.publicUrl).hostname;
  // Share uploads are the largest bodies: a node takes SHARE_UPLOAD_LIMITS.maxTotalBytes plus 1 MiB of
  // multipart framing (api/media/upload.ts); JSON bodies are 1 MB at most (api/app.ts). A little more
  // than the node takes, so that the node's own 413 (with the API's message) answers a larger upload.
  const bodyLimitMb = Math.ceil(SHARE_UPLOAD_LIMITS.maxTotalBytes / 2 ** 20) + 16;
  const proxy = [`proxy_pass http://${UPSTREAM};`];
  const builtTypes = Object.fromEntries(BUILT_EXTENSIONS.map((ext) => [ext, mimeForExt(ext)]));
  const storeTypes = { html: PageStore.contentTypeOf('/'), rss: FEED_CONTENT_TYPES.rss, atom: FEED_CONTENT_TYPES.atom };
  const compressed = ['gzip_static on;', ...(brotli ? ['brotli_static on;'] : [])];

  /** A location answering the build's files (GET and HEAD), going on to `fallback` for anything else. */
  const builtFiles = (cacheControl: string, fallback: string) => [
    'if ($request_method !~ ^(?:GET|HEAD)$) { return 418; }',
    `root ${quote(options.clientDir)};`,
    ...compressed,
    ...fileHeaders(cacheControl, policy),
    `try_files $trove_client_file ${fallback};`,
  ];

  const lines = [
    '# Trove behind nginx: rendered by api/cluster/nginx.ts (renderSiteConfig); change the options, not this text.',
    '',
    ...block(`upstream ${UPSTREAM}`, [
      // Renders take from a millisecond to seconds: the node with the fewest open requests gets the next one.
      'least_conn;',
      // A node that failed 3 times is left alone for 10 s, then tried again with a live request (which
      // goes on to the next node if it fails again, so a restarting node costs no request).
      ...options.upstreams.map((upstream) => `server ${upstream} max_fails=3 fail_timeout=10s;`),
      'keepalive 32;',
      // Below the nodes' keepAliveTimeout (65 s, front.ts): nginx closes an idle connection first, so it
      // never sends a request on a connection the node is closing.
      'keepalive_timeout 60s;',
    ]),
    '',
    '# The stored page of a GET or HEAD request, where the mapping is unambiguous (see api/cluster/nginx.ts).',
    ...block('map "$request_method $request_uri" $trove_page', [
      'default "";',
      `"~^${read}(?<trove_dir>(?:${SEGMENT})+)/?$" "$trove_dir/index.html";`,
      `"~^${read}(?<trove_dir>(?:${SEGMENT})+)/?\\?o=(?<trove_offset>${positiveMultiplesOf(PAGE_SIZE)})$" "$trove_dir/index.o$trove_offset.html";`,
      `"~^${read}(?<trove_dir>(?:${SEGMENT})*)/(?<trove_feed>${feed})$" "$trove_dir/$trove_feed";`,
    ]),
    '',
    '# The precompressed sibling a client that accepts one must get: without it a node answers (and writes it).',
    ...block('map $http_accept_encoding $trove_sibling', ['default "";', `"~${ACCEPTS_BR}" ".br";`, `"~${ACCEPTS_GZIP}" ".gz";`]),
    '',
    "# The build's file of a path, as the front server looks it up: <path>/index.html for a path that ends",
    '# in a slash or has no extension; .br/.gz siblings are never answered as files.',
    ...block('map $uri $trove_client_file', [
      'default "$uri/index.html";',
      '"~\\.(?:br|gz)$" "";',
      '"~^(?<trove_folder>.*)/$" "$trove_folder/index.html";',
      '"~/[^/]+\\.[^/]*$" "$uri";',
    ]),
    '',
    ...block('map $scheme $trove_hsts', ['default "";', `https ${quote(STRICT_TRANSPORT_SECURITY)};`]),
    '# Nodes refuse a request without Host (Node 20); HTTP/1.0 clients may send none.',
    ...block('map $http_host $trove_host', ['default $http_host;', '"" $host;']),
    '',
    ...block('server', [
      `listen ${listenAddress(options.listenHost ?? '127.0.0.1', options.listenPort)};`,
      `server_name ${serverName};`,
      'server_tokens off;',
      `client_max_body_size ${bodyLimitMb}m;`,
      // No compression on the fly: answers from disk use their stored siblings, the nodes' go as they were sent.
      'gzip off;',
      'gzip_vary off;',
      'gzip_proxied any;',
      'gzip_http_version 1.0;',
      // The front server answers If-Modified-Since with 304 when the file is not newer (send-file.ts).
      'if_modified_since before;',
      'recursive_error_pages on;',
      'error_page 418 = @trove_node;',
      'error_page 502 @trove_502;',
      'error_page 504 @trove_504;',
      // The build's files get the front server's types (mimeForExt); stored pages have their own below.
      ...typesBlock(builtTypes),
      `default_type ${quote(mimeForExt(''))};`,
      '',
      // The nodes run with TRUST_PROXY=1: they take the client from the last X-Forwarded-For entry (this
      // one), the scheme from X-Forwarded-Proto and the host from X-Forwarded-Host, all set here so that
      // a client cannot choose them.
      'proxy_http_version 1.1;',
      ...FORWARDED,
      // Only the media location names the internal file location; elsewhere a client's value is dropped.
      `proxy_set_header ${ACCEL_FILES_HEADER} "";`,
      'proxy_redirect off;',
      // A node that is down, refuses, times out or answers 502/503 passes the request to the next one.
      // Only requests not yet sent are retried when their method is not idempotent (nginx's default
      // without non_idempotent), so a POST is never run twice.
      'proxy_next_upstream error timeout http_502 http_503;',
      'proxy_connect_timeout 3s;',
      // Large downloads stream through instead of being spooled to this machine's disk first.
      'proxy_max_temp_file_size 0;',
      '',
      ...block('location /', [
        "# The build's files (prerendered pages, public files) first, as the front server does.",
        ...builtFiles(REVALIDATE, '@trove_pages'),
      ]),
      ...block('location ^~ /_astro/', builtFiles(IMMUTABLE, '@trove_node')),
      ...block('location @trove_pages', [
        `root ${quote(pages)};`,
        // Not a stored page, or its sibling for this client missing: a node answers.
        'if (!-f $document_root$trove_page$trove_sibling) { return 418; }',
        ...typesBlock(storeTypes),
        ...compressed,
        ...fileHeaders(REVALIDATE, policy),
        'try_files $trove_page @trove_node;',
      ]),
      '',
      "# The API, media and operator endpoints are always the nodes'.",
      ...block('location /api/', proxy),
      ...block('location = /api', proxy),
      // Files: the node decides the headers (type, name, validators, sandboxing) and names the file in
      // the store; nginx sends the bytes from the internal location (proxy_set_header here replaces the
      // server's list, so the forwarded headers are repeated).
      ...block(`location ~* ${quoteRegex(MEDIA_LOCATION)}`, [
        ...proxy,
        ...FORWARDED,
        `proxy_set_header ${ACCEL_FILES_HEADER} ${ACCEL_FILES};`,
      ]),
      ...block(`location ^~ ${ACCEL_FILES}`, [
        'internal;',
        `alias ${quote(`${dataPaths(options.dataDir).files}/`)};`,
        // nginx keeps the node's Content-Type, Content-Disposition and Cache-Control; the rest of the node's
        // headers are put back, its ETag (the file's hash) instead of nginx's own.
        'etag off;',
        ...['ETag', 'Content-Security-Policy', 'X-Content-Type-Options'].map(
          (name) => `add_header ${name} $upstream_http_${name.toLowerCase().replace(/-/g, '_')} always;`,
        ),
        ...Object.entries(SECURITY_HEADERS)
          .filter(([name]) => name !== 'X-Content-Type-Options')
          .map(([name, value]) => `add_header ${name} ${quote(value)} always;`),
        'add_header Strict-Transport-Security $trove_hsts always;',
      ]),
      ...OPERATOR_PATHS.flatMap((operatorPath) => block(`location = ${operatorPath}`, proxy)),
      ...block('location @trove_node', proxy),
      '',
      '# No node answered: plain text with the headers every answer carries.',
      ...[502, 504].flatMap((status) =>
        block(`location @trove_${status}`, [
          ...Object.entries(SECURITY_HEADERS).map(([name, value]) => `add_header ${name} ${quote(value)} always;`),
          'add_header Cache-Control no-store always;',
          // No types: the answer is text whatever the path's extension.
          'types { }',
          'default_type "text/plain; charset=utf-8";',
          `return ${status} ${quote(status === 502 ? 'Bad gateway: no web node answered.' : 'Gateway timeout: no web node answered in time.')};`,
        ]),
      ),
    ]),
  ];
  return `${lines.join('\n')}\n`;
}

function workerUser(options: NginxOptions): string | undefined {
  if (options.user) return options.user;
  return process.getuid?.() === 0 ? os.userInfo().username : undefined;
}

/** A complete nginx.conf (main context, events, http) whose files all live in runDir. */
export function renderNginxConfig(options: NginxOptions): string {
  const run = (name: string) => quote(path.join(options.runDir, name));
  const user = workerUser(options);
  const brotliModule = options.brotliModule ?? DEFAULT_BROTLI_MODULE;
  const lines = [
    '# Rendered by api/cluster/nginx.ts (renderNginxConfig). Started with -g "daemon off;".',
    ...(brotliModule ? [`load_module ${quote(brotliModule)};`] : []),
    ...(user ? [`user ${user};`] : []),
    'worker_processes auto;',
    `pid ${run('nginx.pid')};`,
    `error_log ${run('error.log')} warn;`,
    // A stop (SIGQUIT) waits for requests in flight, at most this long.
    'worker_shutdown_timeout 10s;',
    ...block('events', ['worker_connections 1024;']),
    ...block('http', [
      'default_type application/octet-stream;',
      'sendfile on;',
      'tcp_nopush on;',
      `access_log ${run('access.log')} combined buffer=64k flush=1s;`,
      // Every temporary folder inside runDir: the compiled-in ones (/var/lib/nginx) need root.
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `${kind}_temp_path ${run(`${kind}-temp`)};`),
      '',
      ...renderSiteConfig({ ...options, brotliModule })
        .trimEnd()
        .split('\n'),
    ]),
  ];
  return `${lines.join('\n')}\n`;
}

function runToEnd(bin: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

function portAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Writes nginx.conf into runDir, checks it (`nginx -t`), starts nginx in the foreground (NGINX_BIN, else
 * /usr/sbin/nginx) and resolves once its port accepts connections. stop() asks for a graceful stop
 * (SIGQUIT: requests in flight finish) and resolves when nginx has exited.
 */
export async function startNginx(options: NginxOptions): Promise<{ configFile: string; stop(): Promise<void> }> {
  const bin = process.env.NGINX_BIN || '/usr/sbin/nginx';
  fs.mkdirSync(options.runDir, { recursive: true });
  const configFile = path.join(options.runDir, 'nginx.conf');
  fs.writeFileSync(configFile, renderNginxConfig(options));
  // -e: the error log before the configuration is read (the compiled-in path may be unwritable).
  const base = ['-p', options.runDir, '-e', path.join(options.runDir, 'error.log'), '-c', configFile];
  const check = await runToEnd(bin, [...base, '-t', '-q']);
  if (check.code !== 0) throw new Error(`nginx -t refused ${configFile}:\n${check.output}`);

  const child = spawn(bin, [...base, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // nginx outlives a parent that dies without stopping it: take it along.
  const onExit = () => child.kill('SIGQUIT');
  process.once('exit', onExit);

  // A wildcard address is reached on loopback.
  const wildcard: Record<string, string> = { '0.0.0.0': '127.0.0.1', '::': '::1' };
  const host = wildcard[options.listenHost ?? '127.0.0.1'] ?? options.listenHost ?? '127.0.0.1';
  const deadline = Date.now() + 10_000;
  while (!(await portAnswers(host, options.listenPort))) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGQUIT');
      process.off('exit', onExit);
      throw new Error(`nginx did not start listening on ${host}:${options.listenPort}:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    configFile,
    async stop() {
      process.off('exit', onExit);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
      await exited;
    },
  };
}
