/**
 * Plain node:http and node:net servers on 127.0.0.1 for the paysite client tests: each records the
 * requests and raw connections it got, so a test can prove a refused URL never reached the network.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

export interface LocalServer {
  /** 'http://127.0.0.1:<port>' */
  url: string;
  port: number;
  requests: SeenRequest[];
  /** TCP connections accepted, including ones that never sent a request. */
  connections: number;
  close(): Promise<void>;
}

const open: (() => Promise<void>)[] = [];

async function listenOn(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** An HTTP server answering with `handler`; closed by closeAll() when not closed before. */
export async function startServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, seen: LocalServer) => void,
): Promise<LocalServer> {
  const server = http.createServer();
  const port = await listenOn(server);
  const state: LocalServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: [],
    connections: 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('connection', () => state.connections++);
  server.on('request', (req, res) => {
    state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    handler(req, res, state);
  });
  open.push(state.close);
  return state;
}

/** A TCP server that only counts connections (and drops them): a target for 'was it even contacted?'. */
export async function startTcpCounter(): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.destroy();
  });
  const port = await listenOn(server);
  const close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  open.push(close);
  return { port, connections: () => count, close };
}

export async function closeAll(): Promise<void> {
  await Promise.all(open.splice(0).map((close) => close().catch(() => undefined)));
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
