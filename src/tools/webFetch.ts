// WebFetch: fetches a URL, turns the page into text and answers the model's prompt about it with
// a small, fast model call (the worker's side model), as the reference does. Permission per host
// (`WebFetch(domain:…)` rules); never a loopback or private address unless a rule names the host;
// never a host the sandbox's network settings forbid. The activity that runs it is the durable
// part: a tool_use_id with a recorded result is never fetched again (the execution ledger).
import { z } from 'zod';
import { domainPatternMatches, domainRuleContent, normalizeHost, ruleNamesHost } from '../permissions/domains';
import { parseRuleSafe } from '../permissions/rules';
import { sandboxEnabled } from '../sandbox/policy';
import type { NetworkRecord } from '../core/toolRecords';
import { buildTool, type PermissionResult, type SideModel, type ToolUseContext } from '../toolProtocol/Tool';
import { isInternalAddress } from './webAddress';
import { htmlToText, isTextContentType } from './webContent';
import { fetchUrl, WebFetchError, type FetchResult } from './webRequest';
import { isIP } from 'node:net';

export const WEB_FETCH_MAX_URL_CHARS = 2000;
/** How much page text one call reads (from `offset`): the reference's 100,000 characters. */
export const WEB_FETCH_READ_CHARS = 100_000;
const ANSWER_MAX_TOKENS = 4096;

const inputSchema = z.strictObject({
  url: z
    .string()
    .refine((u) => u.length <= WEB_FETCH_MAX_URL_CHARS, {
      abort: true,
      message: `URL is longer than ${WEB_FETCH_MAX_URL_CHARS} characters`,
    })
    .url()
    .describe('The URL to fetch (http:// is upgraded to https://).'),
  prompt: z.string().describe('What to find out from the page: the answer is extracted from its text.'),
  offset: z
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .describe('Character of the page text to start reading at, to read on through a long page (the result gives it).'),
});

export type WebFetchInput = z.infer<typeof inputSchema>;

export interface WebFetchOutput {
  bytes: number;
  code: number;
  codeText: string;
  result: string;
  durationMs: number;
  url: string;
}

const PROMPT = `Fetches a web page and answers a question about it.

- Give the page's URL and a prompt saying what you want from it; a small, fast model reads the page (converted from HTML to Markdown) and answers the prompt. The answer, not the page, comes back.
- http:// URLs are fetched as https://. Only public hosts: localhost, private and link-local addresses are refused unless the user allowed the host by name.
- A redirect to another host is not followed: the result names the target, and you may fetch it with a new call.
- A long page is read 100,000 characters at a time; the result gives the offset to read on from.
- Pages that need a login are not readable this way.`;

function hostOf(url: string): string {
  try {
    return normalizeHost(new URL(url).hostname);
  } catch {
    return '';
  }
}

/**
 * The URL as fetched: http upgraded to https, as the reference — except for a loopback or private
 * address literal that an allow rule names (a local server the user allowed by name rarely has TLS).
 */
export function upgradedUrl(url: string, rules?: Rules): string {
  const u = new URL(url);
  const host = normalizeHost(u.hostname);
  const namedLocal = isIP(host) !== 0 && isInternalAddress(host) && hostNamedByAllowRule(rules, host);
  if (u.protocol === 'http:' && !namedLocal) u.protocol = 'https:';
  return u.href;
}

type Rules = ToolUseContext['permission']['rules'];

function webFetchRules(rules: readonly string[]): string[] {
  const out: string[] = [];
  for (const r of rules) {
    const rule = parseRuleSafe(r);
    if (rule?.toolName === 'WebFetch' && rule.content?.startsWith('domain:')) out.push(rule.content);
  }
  return out;
}

/** Does an allow rule name this exact host? (the only way to a loopback or private address) */
export function hostNamedByAllowRule(rules: Rules | undefined, host: string): boolean {
  return webFetchRules(rules?.allow ?? []).some((c) => ruleNamesHost(c, host));
}

/** Why the session's sandbox network settings forbid the host, if they do. */
export function sandboxForbids(ctx: Pick<ToolUseContext, 'permission'>, host: string): string | undefined {
  const denied = ctx.permission.sandbox?.network?.deniedDomains ?? [];
  const hit = denied.find((p) => domainPatternMatches(p, host));
  return hit === undefined ? undefined : `${host} is in the sandbox's network.deniedDomains (${hit}).`;
}

/**
 * Is the host on the session's network allowlist: `sandbox.network.allowedDomains` or a
 * `WebFetch(domain:…)` allow rule (the reference builds the sandbox's list from both)?
 */
function onAllowlist(ctx: Pick<ToolUseContext, 'permission'>, host: string): boolean {
  const allowed = ctx.permission.sandbox?.network?.allowedDomains ?? [];
  return (
    allowed.some((p) => domainPatternMatches(p, host)) ||
    webFetchRules(ctx.permission.rules?.allow ?? []).some((c) => domainPatternMatches(c.slice('domain:'.length), host))
  );
}

/** A redirect away from the site or an HTTP error, in the reference's words (test:reference "WebFetch allowed by a domain rule"). */
function resultText(r: Extract<FetchResult, { type: 'redirect' | 'http_error' }>, input: WebFetchInput): string {
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
export function answerRequest(page: string, prompt: string, offset: number, total: number): string {
  const lead =
    offset > 0 ? `This is part of a longer page: it starts ${offset} characters into the page's ${total}.\n\n` : '';
  return (
    `${lead}<page>\n${page}\n</page>\n\n${prompt}\n\n` +
    'Answer the request from the page above only, concisely. Quote at most a sentence or two word for word; say so when the page does not answer it.'
  );
}

async function answer(model: SideModel, request: string, signal: AbortSignal): Promise<string> {
  const res = await model.create(
    { purpose: 'web_fetch', messages: [{ role: 'user', content: request }], maxTokens: ANSWER_MAX_TOKENS },
    signal,
  );
  const text = res.content
    .filter((b) => b.type === 'text')
    .map((b) => String(b.text ?? ''))
    .join('');
  if (text.trim() === '') throw new Error('The model that reads the page gave no answer. Trying again may work.');
  return text;
}

function networkRecord(url: string, r: FetchResult): NetworkRecord {
  const cut = (s: string): string => (s.length > 300 ? `${s.slice(0, 299)}…` : s);
  return {
    url: cut(url),
    requests: r.hops.map((h) => ({ ...h, url: cut(h.url) })),
    bytes: r.hops.reduce((n, h) => n + h.bytes, 0),
    ...(r.type === 'redirect' ? { redirectedTo: cut(r.location) } : {}),
  };
}

export const WebFetchTool = buildTool<WebFetchInput, WebFetchOutput>({
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
  getRuleContent: (input) => domainRuleContent(hostOf(input.url)),

  async validateInput(input) {
    let url: URL;
    try {
      url = new URL(input.url);
    } catch {
      return { result: false, message: `Invalid URL "${input.url}": it could not be parsed.`, errorCode: 1 };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return { result: false, message: `WebFetch fetches http(s) URLs only, not ${url.protocol}`, errorCode: 1 };
    if (url.username || url.password)
      return { result: false, message: 'WebFetch does not send credentials given in the URL.', errorCode: 1 };
    const host = normalizeHost(url.hostname);
    if (!isIP(host) && !host.includes('.'))
      return {
        result: false,
        message: `WebFetch does not fetch ${host} or other host names without a dot. For a local server, use Bash (curl).`,
        errorCode: 1,
      };
    return { result: true };
  },

  async checkPermissions(input, ctx): Promise<PermissionResult> {
    const host = hostOf(input.url);
    const forbidden = sandboxForbids(ctx, host);
    if (forbidden)
      return {
        behavior: 'deny',
        message: `WebFetch refused: ${forbidden}`,
        decisionReason: { type: 'sandbox', reason: forbidden },
      };
    // An address literal inside the network is refused before any rule or mode is asked.
    if (isIP(host) && isInternalAddress(host) && !hostNamedByAllowRule(ctx.permission.rules, host))
      return {
        behavior: 'deny',
        message: `WebFetch refused: ${host} is a loopback, private or link-local address; an allow rule naming it (WebFetch(domain:${host})) is needed.`,
        decisionReason: { type: 'tool', reason: 'internal address' },
      };
    // With the sandbox on, a host off the network allowlist leaves the wall: it asks in every mode
    // (bypassPermissions lifts prompts, not the sandbox), and dontAsk denies it.
    if (
      ctx.permission.sandbox &&
      sandboxEnabled(ctx.permission.sandbox, process.platform).on &&
      !onAllowlist(ctx, host)
    ) {
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
    if (!ctx.sideModel) throw new Error('WebFetch needs a model to read the page, and this runner has none.');
    const url = upgradedUrl(input.url, ctx.permission.rules);
    const fetched = await fetchUrl(url, {
      signal: ctx.abortSignal,
      internalAllowed: (host) => hostNamedByAllowRule(ctx.permission.rules, host),
      forbidden: (host) => sandboxForbids(ctx, host),
    }).catch((err: unknown) => {
      if (ctx.abortSignal.aborted) throw err;
      throw err instanceof WebFetchError ? err : new Error(`Fetching ${url} failed: ${(err as Error).message}`);
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
    let result: string;
    if (!isTextContentType(fetched.contentType)) {
      result = `The page is binary content (${fetched.contentType.split(';')[0] || 'unknown type'}, ${bytes} bytes), which WebFetch does not read. Download it with Bash (curl) to work with it.`;
    } else {
      const raw = fetched.body.toString('utf8');
      const page = fetched.contentType.toLowerCase().includes('text/html') ? htmlToText(raw) : raw;
      const offset = input.offset ?? 0;
      if (offset > 0 && offset >= page.length) {
        result = `Nothing left to read from offset ${offset}: the page's text is ${page.length} characters long.`;
      } else {
        const window = page.slice(offset, offset + WEB_FETCH_READ_CHARS);
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
