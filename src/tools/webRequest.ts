// WebFetch's HTTP GET: the address checked (webAddress.ts) is the address connected to, a redirect
// within the same site is followed (each hop checked again), one to another host, port or scheme
// is reported, not followed; the body is capped; a deadline and the call's abort signal end it.
import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import { bareHost, checkedAddress, type Resolver } from './webAddress';

/** The reference's limits: 10 MiB of body, 60 s, 10 redirects within a site. */
export const WEB_FETCH_MAX_BYTES = 10 * 1024 * 1024;
export const WEB_FETCH_TIMEOUT_MS = 60_000;
export const WEB_FETCH_MAX_REDIRECTS = 10;
const REDIRECT_CODES = new Set([301, 302, 303, 307, 308]);

/** One connection made: the URL, the address it went to, the status and the body bytes received. */
export interface FetchHop {
  url: string;
  address: string;
  status: number;
  bytes: number;
}

export type FetchResult =
  | { type: 'ok'; url: string; status: number; statusText: string; contentType: string; body: Buffer; hops: FetchHop[] }
  | { type: 'redirect'; url: string; location: string; status: number; statusText: string; hops: FetchHop[] }
  | { type: 'http_error'; url: string; status: number; statusText: string; retryAfter?: string; hops: FetchHop[] };

export interface FetchOptions {
  signal: AbortSignal;
  /** May this host's name resolve to a loopback or private address? (an allow rule names it) */
  internalAllowed: (host: string) => boolean;
  /** A host the session forbids (sandbox denied domains): a redirect there is refused too. */
  forbidden?: (host: string) => string | undefined;
  resolve?: Resolver;
  timeoutMs?: number;
  maxBytes?: number;
  userAgent?: string;
  /** Extra TLS trust (tests: a local HTTPS server's self-signed certificate). */
  ca?: string | Buffer;
}

export class WebFetchError extends Error {
  override name = 'WebFetchError';
}

const withoutWww = (h: string): string => h.replace(/^www\./, '');

/** Is a redirect from `from` to `to` within the site (same scheme and port, host equal but for `www.`, no credentials)? */
export function sameSiteRedirect(from: URL, to: URL): boolean {
  return (
    from.protocol === to.protocol &&
    from.port === to.port &&
    !to.username &&
    !to.password &&
    withoutWww(bareHost(from.hostname)) === withoutWww(bareHost(to.hostname))
  );
}

async function getOnce(
  url: URL,
  opts: FetchOptions,
  deadline: AbortSignal,
): Promise<{ res: http.IncomingMessage; body: Buffer; address: string }> {
  const host = bareHost(url.hostname);
  const forbidden = opts.forbidden?.(host);
  if (forbidden) throw new WebFetchError(forbidden);
  const checked = await checkedAddress(host, opts.internalAllowed(host), opts.resolve);
  if (!checked.ok) throw new WebFetchError(checked.message);
  const { address, family } = checked.address;
  // The socket connects to the checked address whatever a new lookup would say (DNS rebinding).
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: unknown[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const lib = url.protocol === 'https:' ? https : http;
  const maxBytes = opts.maxBytes ?? WEB_FETCH_MAX_BYTES;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      url,
      {
        method: 'GET',
        lookup,
        signal: AbortSignal.any([opts.signal, deadline]),
        headers: {
          Accept: 'text/markdown, text/html, */*',
          'User-Agent': opts.userAgent ?? 'durable-agent-WebFetch/1 (+https://github.com/durable-agent)',
        },
        ...(opts.ca ? { ca: opts.ca } : {}),
        ...(url.protocol === 'https:' ? { servername: host } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > maxBytes) {
            req.destroy(new WebFetchError(`The response is larger than ${maxBytes} bytes; nothing was kept.`));
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => resolve({ res, body: Buffer.concat(chunks, size), address }));
        res.on('error', reject);
      },
    );
    req.on('error', (err) => {
      if (deadline.aborted && !opts.signal.aborted)
        reject(
          new WebFetchError(`The fetch did not complete within ${(opts.timeoutMs ?? WEB_FETCH_TIMEOUT_MS) / 1000} s.`),
        );
      else reject(err);
    });
    req.end();
  });
}

/** GET `start`, following redirects within the site; every hop's address is checked before it is connected to. */
export async function fetchUrl(start: string, opts: FetchOptions): Promise<FetchResult> {
  const deadline = AbortSignal.timeout(opts.timeoutMs ?? WEB_FETCH_TIMEOUT_MS);
  const hops: FetchHop[] = [];
  let url = new URL(start);
  for (let redirects = 0; ; redirects++) {
    const { res, body, address } = await getOnce(url, opts, deadline);
    const status = res.statusCode ?? 0;
    const statusText = res.statusMessage ?? http.STATUS_CODES[status] ?? '';
    hops.push({ url: url.href, address, status, bytes: body.length });
    if (status >= 200 && status < 300) {
      const contentType = String(res.headers['content-type'] ?? '');
      return { type: 'ok', url: url.href, status, statusText, contentType, body, hops };
    }
    if (REDIRECT_CODES.has(status)) {
      const location = res.headers.location;
      const next = typeof location === 'string' && location.trim() !== '' ? URL.parse(location, url.href) : null;
      if (!next) return { type: 'http_error', url: url.href, status, statusText, hops };
      if (!sameSiteRedirect(url, next))
        return { type: 'redirect', url: url.href, location: next.href, status, statusText, hops };
      if (redirects >= WEB_FETCH_MAX_REDIRECTS)
        throw new WebFetchError(`More than ${WEB_FETCH_MAX_REDIRECTS} redirects: stopped at ${next.href}.`);
      url = next;
      continue;
    }
    const retryAfter = res.headers['retry-after'];
    return {
      type: 'http_error',
      url: url.href,
      status,
      statusText,
      hops,
      ...(typeof retryAfter === 'string' && /^\d{1,6}$/.test(retryAfter) ? { retryAfter } : {}),
    };
  }
}
