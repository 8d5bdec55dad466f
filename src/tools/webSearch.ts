// WebSearch: the Messages API's server-side web search tool. One model call (the worker's side
// model, the session's client) offers only `web_search` (`web_search_20250305`, with the call's
// allowed/blocked domains) and requires it; the API runs the searches and answers with
// `server_tool_use` and `web_search_tool_result` blocks, which become the result, as the reference.
import { z } from 'zod';
import { buildTool, type PermissionResult, type SideModelResponse } from '../toolProtocol/Tool';

/** The reference's cap on searches per call. */
export const WEB_SEARCH_MAX_USES = 8;
const SEARCH_MAX_TOKENS = 8192;

const inputSchema = z.strictObject({
  query: z.string().min(2).describe('What to search the web for.'),
  allowed_domains: z.array(z.string()).optional().describe('Only return results from these domains.'),
  blocked_domains: z.array(z.string()).optional().describe('Never return results from these domains.'),
});

export type WebSearchInput = z.infer<typeof inputSchema>;

export interface WebSearchHits {
  tool_use_id: string;
  content: Array<{ title: string; url: string }>;
}

export interface WebSearchOutput {
  query: string;
  /** The model's text between searches, and each search's hits, in order. */
  results: Array<WebSearchHits | string>;
  durationSeconds: number;
  searchCount: number;
}

const PROMPT = `Searches the web and returns the results: titles and URLs, with the search model's summary.

- Use it for information that may be newer than what you know, or that you need to check.
- allowed_domains restricts the results to those sites; blocked_domains leaves those sites out (not both at once).
- Cite what you use: name the sources in your answer as Markdown links.`;

const SYSTEM =
  'You search the web for the user. Run the search for the query you are given, then summarise in a few sentences what the results say, naming the sources.';

/** The response's blocks as the result: text between searches, and each search's hits (or its error). */
export function searchResults(query: string, content: SideModelResponse['content'], seconds: number): WebSearchOutput {
  const results: WebSearchOutput['results'] = [];
  let text = '';
  let uses = 0;
  let answers = 0;
  const flush = (): void => {
    if (text.trim() !== '') results.push(text.trim());
    text = '';
  };
  for (const b of content) {
    if (b.type === 'server_tool_use') {
      uses++;
      flush();
    } else if (b.type === 'web_search_tool_result') {
      answers++;
      const c = b.content;
      if (Array.isArray(c)) {
        results.push({
          tool_use_id: String(b.tool_use_id ?? ''),
          content: c
            .filter((h): h is Record<string, unknown> => typeof h === 'object' && h !== null)
            .map((h) => ({ title: String(h.title ?? ''), url: String(h.url ?? '') })),
        });
      } else {
        const code = (c as { error_code?: unknown } | undefined)?.error_code;
        results.push(`Web search error: ${typeof code === 'string' ? code : 'unknown'}`);
      }
    } else if (b.type === 'text') text += String(b.text ?? '');
  }
  flush();
  return { query, results, durationSeconds: seconds, searchCount: Math.max(uses, answers) };
}

export const WebSearchTool = buildTool<WebSearchInput, WebSearchOutput>({
  name: 'WebSearch',
  // Deferred behind ToolSearch when tool search is on (the reference defers it too).
  shouldDefer: true,
  inputSchema,
  maxResultSizeChars: 100_000,
  prompt: () => PROMPT,
  summary: (input) => `WebSearch "${input.query}"`,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  // Searching again after a lost worker is harmless; a finished call is never searched again (the ledger).
  isIdempotent: () => true,

  async validateInput(input) {
    if (input.query.trim().length === 0) return { result: false, message: 'Error: Missing query', errorCode: 1 };
    if (input.allowed_domains?.length && input.blocked_domains?.length)
      return {
        result: false,
        message: 'Error: Cannot specify both allowed_domains and blocked_domains in the same request',
        errorCode: 2,
      };
    return { result: true };
  },

  // As the reference: no opinion of its own, but a search is never allowed by the mode alone.
  async checkPermissions(input): Promise<PermissionResult> {
    return { behavior: 'ask', message: `WebSearch needs approval to search the web for "${input.query}".` };
  },

  async call(input, ctx) {
    if (!ctx.sideModel) throw new Error('WebSearch runs on the model API, and this runner has no model.');
    const started = performance.now();
    const tool: Record<string, unknown> = {
      type: 'web_search_20250305',
      name: 'web_search',
      max_uses: WEB_SEARCH_MAX_USES,
      ...(input.allowed_domains?.length ? { allowed_domains: input.allowed_domains } : {}),
      ...(input.blocked_domains?.length ? { blocked_domains: input.blocked_domains } : {}),
    };
    const res = await ctx.sideModel.create(
      {
        purpose: 'web_search',
        system: SYSTEM,
        messages: [{ role: 'user', content: `Search the web for: ${input.query}` }],
        maxTokens: SEARCH_MAX_TOKENS,
        tools: [tool],
        toolChoice: { type: 'tool', name: 'web_search' },
      },
      ctx.abortSignal,
    );
    const data = searchResults(input.query, res.content, (performance.now() - started) / 1000);
    if (data.results.length === 0) throw new Error('The search returned nothing (no results and no text). Try again.');
    return { data };
  },

  mapToolResultToToolResultBlockParam(data, toolUseId) {
    // The reference's layout and closing reminder, word for word (test:reference "WebSearch through the server tool").
    let text = `Web search results for query: "${data.query}"\n\n`;
    for (const r of data.results) {
      if (typeof r === 'string') text += `${r}\n\n`;
      else if (r.content.length > 0) text += `Links: ${JSON.stringify(r.content)}\n\n`;
      else text += 'No links found.\n\n';
    }
    text += '\nREMINDER: You MUST include the sources above in your response to the user using markdown hyperlinks.';
    return { type: 'tool_result', tool_use_id: toolUseId, content: text.trim() };
  },
});
