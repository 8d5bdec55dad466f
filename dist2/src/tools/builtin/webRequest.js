"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.WebFetchError = exports.WEB_FETCH_MAX_REDIRECTS = exports.WEB_FETCH_TIMEOUT_MS = exports.WEB_FETCH_MAX_BYTES = void 0;
exports.sameSiteRedirect = sameSiteRedirect;
exports.fetchUrl = fetchUrl;
// WebFetch's HTTP GET: the address checked (webAddress.ts) is the address connected to, a redirect
// within the same site is followed (each hop checked again), one to another host, port or scheme
// is reported, not followed; the body is capped; a deadline and the call's abort signal end it.
const http = __importStar(require("node:http"));
const https = __importStar(require("node:https"));
const webAddress_1 = require("./webAddress");
/** The reference's limits: 10 MiB of body, 60 s, 10 redirects within a site. */
exports.WEB_FETCH_MAX_BYTES = 10 * 1024 * 1024;
exports.WEB_FETCH_TIMEOUT_MS = 60_000;
exports.WEB_FETCH_MAX_REDIRECTS = 10;
const REDIRECT_CODES = new Set([301, 302, 303, 307, 308]);
class WebFetchError extends Error {
    name = 'WebFetchError';
}
exports.WebFetchError = WebFetchError;
const withoutWww = (h) => h.replace(/^www\./, '');
/** Is a redirect from `from` to `to` within the site (same scheme and port, host equal but for `www.`, no credentials)? */
function sameSiteRedirect(from, to) {
    return (from.protocol === to.protocol &&
        from.port === to.port &&
        !to.username &&
        !to.password &&
        withoutWww((0, webAddress_1.bareHost)(from.hostname)) === withoutWww((0, webAddress_1.bareHost)(to.hostname)));
}
async function getOnce(url, opts, deadline) {
    const host = (0, webAddress_1.bareHost)(url.hostname);
    const forbidden = opts.forbidden?.(host);
    if (forbidden)
        throw new WebFetchError(forbidden);
    const checked = await (0, webAddress_1.checkedAddress)(host, opts.internalAllowed(host), opts.resolve);
    if (!checked.ok)
        throw new WebFetchError(checked.message);
    const { address, family } = checked.address;
    // The socket connects to the checked address whatever a new lookup would say (DNS rebinding).
    const lookup = (_hostname, options, callback) => {
        if (options.all)
            callback(null, [{ address, family }]);
        else
            callback(null, address, family);
    };
    const lib = url.protocol === 'https:' ? https : http;
    const maxBytes = opts.maxBytes ?? exports.WEB_FETCH_MAX_BYTES;
    return new Promise((resolve, reject) => {
        const req = lib.request(url, {
            method: 'GET',
            lookup,
            signal: AbortSignal.any([opts.signal, deadline]),
            headers: {
                Accept: 'text/markdown, text/html, */*',
                'User-Agent': opts.userAgent ?? 'durable-agent-WebFetch/1 (+https://github.com/durable-agent)',
            },
            ...(opts.ca ? { ca: opts.ca } : {}),
            ...(url.protocol === 'https:' ? { servername: host } : {}),
        }, (res) => {
            const chunks = [];
            let size = 0;
            res.on('data', (c) => {
                size += c.length;
                if (size > maxBytes) {
                    req.destroy(new WebFetchError(`The response is larger than ${maxBytes} bytes; nothing was kept.`));
                    return;
                }
                chunks.push(c);
            });
            res.on('end', () => resolve({ res, body: Buffer.concat(chunks, size), address }));
            res.on('error', reject);
        });
        req.on('error', (err) => {
            if (deadline.aborted && !opts.signal.aborted)
                reject(new WebFetchError(`The fetch did not complete within ${(opts.timeoutMs ?? exports.WEB_FETCH_TIMEOUT_MS) / 1000} s.`));
            else
                reject(err);
        });
        req.end();
    });
}
/** GET `start`, following redirects within the site; every hop's address is checked before it is connected to. */
async function fetchUrl(start, opts) {
    const deadline = AbortSignal.timeout(opts.timeoutMs ?? exports.WEB_FETCH_TIMEOUT_MS);
    const hops = [];
    let url = new URL(start);
    for (let redirects = 0;; redirects++) {
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
            if (!next)
                return { type: 'http_error', url: url.href, status, statusText, hops };
            if (!sameSiteRedirect(url, next))
                return { type: 'redirect', url: url.href, location: next.href, status, statusText, hops };
            if (redirects >= exports.WEB_FETCH_MAX_REDIRECTS)
                throw new WebFetchError(`More than ${exports.WEB_FETCH_MAX_REDIRECTS} redirects: stopped at ${next.href}.`);
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
//# sourceMappingURL=webRequest.js.map