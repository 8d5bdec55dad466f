// Taking a request in: its body and headers as recorded (RecordedRequest), and the checks a
// request passes before a scripted response is used — the route, the API key, the JSON body and
// the Messages request's shape. server.ts answers what these refuse with the server's own error.
import type http from 'node:http';
import { validateMessagesRequest } from './validate';
import type { FakeAnthropicOptions } from './options';
import type { MessagesRequest, RecordedRequest, UnexpectedKind } from './types';

/** Why the server itself answers a request with an error (and notes it as unexpected). */
export interface Refusal {
  kind: UnexpectedKind;
  status: number;
  type: string;
  message: string;
}

function headerRecord(req: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function apiKeyOf(headers: Record<string, string>): string | undefined {
  if (headers['x-api-key'] !== undefined) return headers['x-api-key'];
  const auth = headers['authorization'];
  return auth?.toLowerCase().startsWith('bearer ') ? auth.slice(7) : undefined;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Reads the whole request and records it (index: its arrival order); `valid` stays false until it passes the checks. */
export async function recordRequest(req: http.IncomingMessage, index: () => number): Promise<RecordedRequest> {
  const rawBody = await readBody(req);
  const headers = headerRecord(req);
  const url = new URL(req.url ?? '/', 'http://fake.invalid');
  let body: unknown;
  try {
    body = rawBody === '' ? undefined : JSON.parse(rawBody);
  } catch {
    body = undefined;
  }
  return {
    index: index(),
    method: req.method ?? 'GET',
    path: url.pathname,
    url: req.url ?? '/',
    headers,
    apiKey: apiKeyOf(headers),
    rawBody,
    body,
    stream: typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true,
    receivedAt: Date.now(),
    valid: false,
    response: undefined,
  };
}

/** The Messages request in a recorded request, or why the real API would refuse it (route, key, JSON, shape). */
export function checkRequest(
  record: RecordedRequest,
  opts: FakeAnthropicOptions,
): { request: MessagesRequest } | { refusal: Refusal } {
  if (record.method !== 'POST' || record.path !== '/v1/messages') {
    return refuse('not_found', 404, 'not_found_error', `Not Found: ${record.method} ${record.path}`);
  }
  if (opts.requireApiKey !== undefined && opts.requireApiKey !== false) {
    const key = record.apiKey;
    if (key === undefined || key === '')
      return refuse('authentication', 401, 'authentication_error', 'x-api-key header is required');
    if (typeof opts.requireApiKey === 'string' && key !== opts.requireApiKey)
      return refuse('authentication', 401, 'authentication_error', 'invalid x-api-key');
  }
  if (record.rawBody !== '' && record.body === undefined) {
    let reason = 'invalid JSON';
    try {
      JSON.parse(record.rawBody);
    } catch (err) {
      reason = err instanceof Error ? err.message : String(err);
    }
    return refuse(
      'invalid_request',
      400,
      'invalid_request_error',
      `There was an error parsing the body of your request: ${reason}`,
    );
  }
  const validation = validateMessagesRequest(record.body, {
    toolPairing: opts.validateToolPairing !== false,
    systemMessages: opts.allowSystemMessages === true,
  });
  if (!validation.ok) return refuse('invalid_request', 400, 'invalid_request_error', validation.message);
  return { request: validation.request };
}

function refuse(kind: UnexpectedKind, status: number, type: string, message: string): { refusal: Refusal } {
  return { refusal: { kind, status, type, message } };
}
