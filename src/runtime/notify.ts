// One webhook delivery of a session notification (issue 35; the core of the `deliverNotification`
// activity). A JSON POST with the idempotency key as a header and in the body (`id`), so that a
// receiver dedupes what a retry after a lost answer sends again. The optional auth header comes
// from the WORKER's environment — DURABLE_AGENT_NOTIFY_AUTH_HEADER ("Name: value") or the file
// named by DURABLE_AGENT_NOTIFY_AUTH_HEADER_FILE (that line) — and never from the history.
import { readFileSync } from 'node:fs';
import { IDEMPOTENCY_HEADER, type SessionNotification } from '../core/notifications';

export interface DeliverNotificationInput {
  url: string;
  notification: SessionNotification;
}

/** A delivery the receiver refused for good (a 4xx other than 408 and 429): no retry mends it. */
export class NotificationRejectedError extends Error {
  constructor(
    message: string,
    readonly httpStatus: number,
  ) {
    super(message);
    this.name = 'NotificationRejectedError';
  }
}

/** The auth header of the worker's environment, or undefined; a malformed one is an error that names the variable. */
export function notifyAuthHeader(env: NodeJS.ProcessEnv = process.env): [string, string] | undefined {
  const file = env.DURABLE_AGENT_NOTIFY_AUTH_HEADER_FILE;
  const [line, from] = file
    ? [readFileSync(file, 'utf8').trim(), `the file ${file} (DURABLE_AGENT_NOTIFY_AUTH_HEADER_FILE)`]
    : [env.DURABLE_AGENT_NOTIFY_AUTH_HEADER?.trim(), 'DURABLE_AGENT_NOTIFY_AUTH_HEADER'];
  if (!line) return undefined;
  const colon = line.indexOf(':');
  const name = line.slice(0, colon).trim();
  if (colon < 1 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
    throw new Error(`${from} must hold one header line "Name: value" (e.g. "Authorization: Bearer …")`);
  return [name, line.slice(colon + 1).trim()];
}

/** POSTs the notification; resolves with the receiver's status, throws on anything but 2xx. */
export async function deliverNotificationWith(
  input: DeliverNotificationInput,
  signal?: AbortSignal,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ status: number }> {
  const auth = notifyAuthHeader(env);
  const timeout = AbortSignal.timeout(10_000);
  const res = await fetch(input.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'durable-agent',
      [IDEMPOTENCY_HEADER]: input.notification.id,
      ...(auth ? { [auth[0]]: auth[1] } : {}),
    },
    body: JSON.stringify(input.notification),
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    redirect: 'error',
  });
  await res.body?.cancel().catch(() => undefined);
  if (res.ok) return { status: res.status };
  const what = `webhook ${new URL(input.url).host} answered ${res.status} to ${input.notification.kind} ${input.notification.id}`;
  if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429)
    throw new NotificationRejectedError(what, res.status);
  throw new Error(what);
}
