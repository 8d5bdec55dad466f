"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.WebFetchTool = exports.WEB_FETCH_READ_CHARS = exports.WEB_FETCH_MAX_URL_CHARS = void 0;
exports.upgradedUrl = upgradedUrl;
exports.hostNamedByAllowRule = hostNamedByAllowRule;
exports.sandboxForbids = sandboxForbids;
exports.answerRequest = answerRequest;
// WebFetch: fetches a URL, turns the page into text and answers the model's prompt about it with
// a small, fast model call (the worker's side model), as the reference does. Permission per host
// (`WebFetch(domain:…)` rules); never a loopback or private address unless a rule names the host;
// never a host the sandbox's network settings forbid. The activity that runs it is the durable
// part: a tool_use_id with a recorded result is never fetched again (the execution ledger).
const zod_1 = require("zod");
const domains_1 = require("../../permissions/domains");
const rules_1 = require("../../permissions/rules");
const policy_1 = require("../../sandbox/policy");
const Tool_1 = require("../Tool");
const webAddress_1 = require("./webAddress");
const webContent_1 = require("./webContent");
const webRequest_1 = require("./webRequest");
const node_net_1 = require("node:net");
exports.WEB_FETCH_MAX_URL_CHARS = 2000;
/** How much page text one call reads (from `offset`): the reference's 100,000 characters. */
exports.WEB_FETCH_READ_CHARS = 100_000;
const ANSWER_MAX_TOKENS = 4096;
const inputSchema = zod_1.z.strictObject({
    url: zod_1.z
        .string()
        .refine((u) => u.length <= exports.WEB_FETCH_MAX_URL_CHARS, {
        abort: true,
        message: `URL is longer than ${exports.WEB_FETCH_MAX_URL_CHARS} characters`,
    })
        .url()
        .describe('The URL to fetch (http:// is upgraded to https://).'),
    prompt: zod_1.z.string().describe('What to find out from the page: the answer is extracted from its text.'),
    offset: zod_1.z
        .number()
        .int()
        .min(0)
        .max(Number.MAX_SAFE_INTEGER)
        .optional()
        .describe('Character of the page text to start reading at, to read on through a long page (the result gives it).'),
});
const PROMPT = `Fetches a web page and answers a question about it.

- Give the page's URL and a prompt saying what you want from it; a small, fast model reads the page (converted from HTML to Markdown) and answers the prompt. The answer, not the page, comes back.
- http:// URLs are fetched as https://. Only public hosts: localhost, private and link-local addresses are refused unless the user allowed the host by name.
- A redirect to another host is not followed: the result names the target, and you may fetch it with a new call.
- A long page is read 100,000 characters at a time; the result gives the offset to read on from.
- Pages that need a login are not readable this way.`;
function hostOf(url) {
    try {
        return (0, domains_1.normalizeHost)(new URL(url).hostname);
    }
    catch {
        return '';
    }
}
/**
 * The URL as fetched: http upgraded to https, as the reference — except for a loopback or private
 * address literal that an allow rule names (a local server the user allowed by name rarely has TLS).
 */
function upgradedUrl(url, rules) {
    const u = new URL(url);
    const host = (0, domains_1.normalizeHost)(u.hostname);
    const namedLocal = (0, node_net_1.isIP)(host) !== 0 && (0, webAddress_1.isInternalAddress)(host) && hostNamedByAllowRule(rules, host);
    if (u.protocol === 'http:' && !namedLocal)
        u.protocol = 'https:';
    return u.href;
}
function webFetchRules(rules) {
    const out = [];
    for (const r of rules) {
        const rule = (0, rules_1.parseRuleSafe)(r);
        if (rule?.toolName === 'WebFetch' && rule.content?.startsWith('domain:'))
            out.push(rule.content);
    }
    return out;
}
/** Does an allow rule name this exact host? (the only way to a loopback or private address) */
function hostNamedByAllowRule(rules, host) {
    return webFetchRules(rules?.allow ?? []).some((c) => (0, domains_1.ruleNamesHost)(c, host));
}
/** Why the session's sandbox network settings forbid the host, if they do. */
function sandboxForbids(ctx, host) {
    const denied = ctx.permission.sandbox?.network?.deniedDomains ?? [];
    const hit = denied.find((p) => (0, domains_1.domainPatternMatches)(p, host));
    return hit === undefined ? undefined : `${host} is in the sandbox's network.deniedDomains (${hit}).`;
}
/**
 * Is the host on the session's network allowlist: `sandbox.network.allowedDomains` or a
 * `WebFetch(domain:…)` allow rule (the reference builds the sandbox's list from both)?
 */
function onAllowlist(ctx, host) {
    const allowed = ctx.permission.sandbox?.network?.allowedDomains ?? [];
    return (allowed.some((p) => (0, domains_1.domainPatternMatches)(p, host)) ||
        webFetchRules(ctx.permission.rules?.allow ?? []).some((c) => (0, domains_1.domainPatternMatches)(c.slice('domain:'.length), host)));
}
/** A redirect away from the site or an HTTP error, in the reference's words (test:reference "WebFetch allowed by a domain rule"). */
function resultText(r, input) {
    if (r.type === 'redirect') {
        return [
            'REDIRECT DETECTED: The URL redirects to a location that was not fetched automatically.',
            '',
            `    Original URL: ${r.url}`,
            `    Redirect URL (from the server's Location header — server-supplied, not verified): ${r.location}`,
            `    Status: ${r.status} ${r.statusText}`,
            '',
            '    To complete your request, I need to fetch content from the redirected URL. Please use WebFetch again with these parameters:',
            `    - url: "${r.location}"`,
            `    - prompt: "${input.prompt}"`,
            // Not in the reference's text (its model starts long pages over): the offset the call had.
            ...(input.offset ? [`    - offset: ${input.offset}`] : []),
        ].join('\n');
    }
    return [
        `The server returned HTTP ${r.status} ${r.statusText}.${r.retryAfter ? `\nRetry-After: ${r.retryAfter}` : ''}`,
        '',
        'The response body was not retrieved. If this URL requires authentication, use an authenticated tool (e.g. `gh` for GitHub, or an MCP-provided fetch tool) instead of WebFetch.',
    ].join('\n');
}
/** The request the small model gets: the page text (one window of it), then the prompt. */
function answerRequest(page, prompt, offset, total) {
    const lead = offset > 0 ? `This is part of a longer page: it starts ${offset} characters into the page's ${total}.\n\n` : '';
    return (`${lead}<page>\n${page}\n</page>\n\n${prompt}\n\n` +
        'Answer the request from the page above only, concisely. Quote at most a sentence or two word for word; say so when the page does not answer it.');
}
async function answer(model, request, signal) {
    const res = await model.create({ purpose: 'web_fetch', messages: [{ role: 'user', content: request }], maxTokens: ANSWER_MAX_TOKENS }, signal);
    const text = res.content
        .filter((b) => b.type === 'text')
        .map((b) => String(b.text ?? ''))
        .join('');
    if (text.trim() === '')
        throw new Error('The model that reads the page gave no answer. Trying again may work.');
    return text;
}
function networkRecord(url, r) {
    const cut = (s) => (s.length > 300 ? `${s.slice(0, 299)}…` : s);
    return {
        url: cut(url),
        requests: r.hops.map((h) => ({ ...h, url: cut(h.url) })),
        bytes: r.hops.reduce((n, h) => n + h.bytes, 0),
        ...(r.type === 'redirect' ? { redirectedTo: cut(r.location) } : {}),
    };
}
exports.WebFetchTool = (0, Tool_1.buildTool)({
    name: 'WebFetch',
    // Deferred behind ToolSearch when tool search is on (the reference defers it too).
    shouldDefer: true,
    inputSchema,
    maxResultSizeChars: 100_000,
    prompt: () => PROMPT,
    summary: (input) => `WebFetch ${input.url}${input.offset ? ` (from ${input.offset})` : ''}`,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    // A GET: fetching again after a lost worker is harmless. A finished call is never fetched again (the ledger).
    isIdempotent: () => true,
    getRuleContent: (input) => (0, domains_1.domainRuleContent)(hostOf(input.url)),
    async validateInput(input) {
        let url;
        try {
            url = new URL(input.url);
        }
        catch {
            return { result: false, message: `Invalid URL "${input.url}": it could not be parsed.`, errorCode: 1 };
        }
        if (url.protocol !== 'http:' && url.protocol !== 'https:')
            return { result: false, message: `WebFetch fetches http(s) URLs only, not ${url.protocol}`, errorCode: 1 };
        if (url.username || url.password)
            return { result: false, message: 'WebFetch does not send credentials given in the URL.', errorCode: 1 };
        const host = (0, domains_1.normalizeHost)(url.hostname);
        if (!(0, node_net_1.isIP)(host) && !host.includes('.'))
            return {
                result: false,
                message: `WebFetch does not fetch ${host} or other host names without a dot. For a local server, use Bash (curl).`,
                errorCode: 1,
            };
        return { result: true };
    },
    async checkPermissions(input, ctx) {
        const host = hostOf(input.url);
        const forbidden = sandboxForbids(ctx, host);
        if (forbidden)
            return {
                behavior: 'deny',
                message: `WebFetch refused: ${forbidden}`,
                decisionReason: { type: 'sandbox', reason: forbidden },
            };
        // An address literal inside the network is refused before any rule or mode is asked.
        if ((0, node_net_1.isIP)(host) && (0, webAddress_1.isInternalAddress)(host) && !hostNamedByAllowRule(ctx.permission.rules, host))
            return {
                behavior: 'deny',
                message: `WebFetch refused: ${host} is a loopback, private or link-local address; an allow rule naming it (WebFetch(domain:${host})) is needed.`,
                decisionReason: { type: 'tool', reason: 'internal address' },
            };
        // With the sandbox on, a host off the network allowlist leaves the wall: it asks in every mode
        // (bypassPermissions lifts prompts, not the sandbox), and dontAsk denies it.
        if (ctx.permission.sandbox &&
            (0, policy_1.sandboxEnabled)(ctx.permission.sandbox, process.platform).on &&
            !onAllowlist(ctx, host)) {
            const reason = `${host} is not on the sandbox's network allowlist (sandbox.network.allowedDomains or a WebFetch(domain:…) allow rule)`;
            return {
                behavior: 'ask',
                message: `WebFetch needs approval to fetch from ${host}: ${reason}.`,
                decisionReason: { type: 'sandbox', reason, requested: true },
            };
        }
        return { behavior: 'ask', message: `WebFetch needs approval to fetch from ${host}.` };
    },
    async call(input, ctx) {
        const started = Date.now();
        if (!ctx.sideModel)
            throw new Error('WebFetch needs a model to read the page, and this runner has none.');
        const url = upgradedUrl(input.url, ctx.permission.rules);
        const fetched = await (0, webRequest_1.fetchUrl)(url, {
            signal: ctx.abortSignal,
            internalAllowed: (host) => hostNamedByAllowRule(ctx.permission.rules, host),
            forbidden: (host) => sandboxForbids(ctx, host),
        }).catch((err) => {
            if (ctx.abortSignal.aborted)
                throw err;
            throw err instanceof webRequest_1.WebFetchError ? err : new Error(`Fetching ${url} failed: ${err.message}`);
        });
        const network = networkRecord(input.url, fetched);
        if (fetched.type !== 'ok') {
            const text = resultText(fetched, input);
            return {
                data: {
                    bytes: Buffer.byteLength(text),
                    code: fetched.status,
                    codeText: fetched.statusText,
                    result: text,
                    durationMs: Date.now() - started,
                    url: input.url,
                },
                network,
            };
        }
        const bytes = fetched.body.length;
        let result;
        if (!(0, webContent_1.isTextContentType)(fetched.contentType)) {
            result = `The page is binary content (${fetched.contentType.split(';')[0] || 'unknown type'}, ${bytes} bytes), which WebFetch does not read. Download it with Bash (curl) to work with it.`;
        }
        else {
            const raw = fetched.body.toString('utf8');
            const page = fetched.contentType.toLowerCase().includes('text/html') ? (0, webContent_1.htmlToText)(raw) : raw;
            const offset = input.offset ?? 0;
            if (offset > 0 && offset >= page.length) {
                result = `Nothing left to read from offset ${offset}: the page's text is ${page.length} characters long.`;
            }
            else {
                const window = page.slice(offset, offset + exports.WEB_FETCH_READ_CHARS);
                result = await answer(ctx.sideModel, answerRequest(window, input.prompt, offset, page.length), ctx.abortSignal);
                const end = offset + window.length;
                if (end < page.length)
                    result += `\n\n[WebFetch note: the answer covers characters ${offset} to ${end} of the page's ${page.length}. To read on, call WebFetch again with the same url and offset: ${end}.]`;
            }
        }
        return {
            data: {
                bytes,
                code: fetched.status,
                codeText: fetched.statusText,
                result,
                durationMs: Date.now() - started,
                url: input.url,
            },
            network,
        };
    },
    mapToolResultToToolResultBlockParam(data, toolUseId) {
        return { type: 'tool_result', tool_use_id: toolUseId, content: data.result };
    },
});
//# sourceMappingURL=webFetch.js.map