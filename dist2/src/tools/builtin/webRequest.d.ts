import { type Resolver } from './webAddress';
/** The reference's limits: 10 MiB of body, 60 s, 10 redirects within a site. */
export declare const WEB_FETCH_MAX_BYTES: number;
export declare const WEB_FETCH_TIMEOUT_MS = 60000;
export declare const WEB_FETCH_MAX_REDIRECTS = 10;
/** One connection made: the URL, the address it went to, the status and the body bytes received. */
export interface FetchHop {
    url: string;
    address: string;
    status: number;
    bytes: number;
}
export type FetchResult = {
    type: 'ok';
    url: string;
    status: number;
    statusText: string;
    contentType: string;
    body: Buffer;
    hops: FetchHop[];
} | {
    type: 'redirect';
    url: string;
    location: string;
    status: number;
    statusText: string;
    hops: FetchHop[];
} | {
    type: 'http_error';
    url: string;
    status: number;
    statusText: string;
    retryAfter?: string;
    hops: FetchHop[];
};
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
export declare class WebFetchError extends Error {
    name: string;
}
/** Is a redirect from `from` to `to` within the site (same scheme and port, host equal but for `www.`, no credentials)? */
export declare function sameSiteRedirect(from: URL, to: URL): boolean;
/** GET `start`, following redirects within the site; every hop's address is checked before it is connected to. */
export declare function fetchUrl(start: string, opts: FetchOptions): Promise<FetchResult>;
