// Temporal's remote codec endpoint (the protocol of temporalio/samples-go codec-server/protocol.md)
// over a payload codec, so that the Temporal UI and `temporal workflow show --codec-endpoint` show
// decoded payloads: POST …/decode and POST …/encode take `{"payloads":[…]}` (Payloads as proto
// JSON: metadata values and data in base64) and answer the same shape; only the last part of the
// path counts. The UI sends X-Namespace (checked against `namespaces` when given) and, from another
// origin, a CORS preflight: only the listed origins are answered. With `authorization` set, every
// POST must carry exactly that Authorization header. Invalid JSON or a payload the codec refuses
// (an unknown key) is a 400 with the reason; the server never logs payloads.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';

export interface CodecServerOptions {
  codec: PayloadCodec;
  /** Default 8888; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1 (this machine only). */
  host?: string;
  /** Browser origins allowed to call it (the UI's address, e.g. http://localhost:8233); `*` allows any. */
  origins?: readonly string[];
  /** When set, a POST must carry exactly this Authorization header value (e.g. `Bearer …`). */
  authorization?: string;
  /** When set, only these namespaces (X-Namespace) are served. */
  namespaces?: readonly string[];
  /** Largest request body in bytes (default 32 MiB). */
  maxBodyBytes?: number;
}

export interface CodecServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

interface JsonPayload {
  metadata?: Record<string, string> | null;
  data?: string | null;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const BASE64 = /^[A-Za-z0-9+/\-_]*={0,2}$/;

function bytes(value: unknown, what: string): Uint8Array {
  if (typeof value !== 'string' || !BASE64.test(value)) throw new HttpError(400, `${what} is not a base64 string`);
  return Buffer.from(value, 'base64');
}

/** Proto JSON → Payload (metadata values and data are base64). */
export function payloadFromJson(p: unknown, i: number): Payload {
  if (typeof p !== 'object' || p === null || Array.isArray(p))
    throw new HttpError(400, `payloads[${i}] is not an object`);
  const { metadata, data } = p as JsonPayload;
  if (metadata !== undefined && metadata !== null && (typeof metadata !== 'object' || Array.isArray(metadata)))
    throw new HttpError(400, `payloads[${i}].metadata is not an object`);
  return {
    metadata: Object.fromEntries(
      Object.entries(metadata ?? {}).map(([k, v]) => [k, bytes(v, `payloads[${i}].metadata.${k}`)]),
    ),
    data: data === undefined || data === null ? new Uint8Array() : bytes(data, `payloads[${i}].data`),
  };
}

/** Payload → proto JSON. */
export function payloadToJson(p: Payload): JsonPayload {
  return {
    metadata: Object.fromEntries(
      Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')]),
    ),
    data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
  };
}

function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function readBody(req: IncomingMessage, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw new HttpError(413, `request body over ${max} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parsePayloads(body: string): Payload[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new HttpError(400, 'the body is not JSON');
  }
  const list = (parsed as { payloads?: unknown } | null)?.payloads;
  if (!Array.isArray(list)) throw new HttpError(400, 'the body has no "payloads" array');
  return list.map(payloadFromJson);
}

/** The CORS headers for `origin` when it is allowed; undefined otherwise. */
function corsHeaders(origin: string | undefined, origins: readonly string[]): Record<string, string> | undefined {
  if (!origin || !(origins.includes('*') || origins.includes(origin))) return undefined;
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    Vary: 'Origin',
  };
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body?: unknown): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    ...(body === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }),
  });
  res.end(text);
}

async function handle(req: IncomingMessage, res: ServerResponse, o: Required<CodecServerOptions>): Promise<void> {
  const origin = req.headers.origin;
  const cors = corsHeaders(origin, o.origins) ?? {};
  const path = new URL(req.url ?? '/', 'http://codec').pathname.replace(/\/+$/, '');
  const op = path.endsWith('/decode') ? 'decode' : path.endsWith('/encode') ? 'encode' : undefined;
  if (req.method === 'OPTIONS') {
    // A browser's preflight: answered for the allowed origins only (no Authorization is sent with it).
    if (!origin || !corsHeaders(origin, o.origins))
      return send(res, 403, {}, { error: `origin ${origin ?? '(none)'} is not allowed` });
    return send(res, 204, {
      ...cors,
      'Access-Control-Allow-Methods': 'POST, OPTIONS',
      'Access-Control-Allow-Headers': 'Content-Type, X-Namespace, Authorization',
      'Access-Control-Max-Age': '600',
    });
  }
  if (!op) return send(res, 404, cors, { error: 'not found: POST …/encode or …/decode' });
  if (req.method !== 'POST') return send(res, 405, { ...cors, Allow: 'POST, OPTIONS' }, { error: 'use POST' });
  if (origin && !corsHeaders(origin, o.origins))
    return send(res, 403, {}, { error: `origin ${origin} is not allowed` });
  if (o.authorization && !sameSecret(req.headers.authorization, o.authorization))
    return send(
      res,
      401,
      { ...cors, 'WWW-Authenticate': 'Bearer' },
      { error: 'missing or wrong Authorization header' },
    );
  const namespace = req.headers['x-namespace'];
  if (o.namespaces.length > 0 && (typeof namespace !== 'string' || !o.namespaces.includes(namespace)))
    return send(res, 403, cors, { error: `namespace ${String(namespace ?? '(none)')} is not served here` });
  try {
    const payloads = parsePayloads(await readBody(req, o.maxBodyBytes));
    const out = op === 'decode' ? await o.codec.decode(payloads) : await o.codec.encode(payloads);
    send(res, 200, cors, { payloads: out.map(payloadToJson) });
  } catch (err) {
    const status = err instanceof HttpError ? err.status : 400;
    send(res, status, cors, { error: (err as Error).message });
  }
}

/** Starts the endpoint; resolves once it listens. */
export async function startCodecServer(opts: CodecServerOptions): Promise<CodecServer> {
  const o: Required<CodecServerOptions> = {
    codec: opts.codec,
    port: opts.port ?? 8888,
    host: opts.host ?? '127.0.0.1',
    origins: opts.origins ?? [],
    authorization: opts.authorization ?? '',
    namespaces: opts.namespaces ?? [],
    maxBodyBytes: opts.maxBodyBytes ?? 32 * 1024 * 1024,
  };
  const server = createServer((req, res) => {
    handle(req, res, o).catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, {}, { error: (err as Error).message });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
