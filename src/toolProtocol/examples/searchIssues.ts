// Example custom tool (the seed's SearchIssues): wraps an HTTP issue-search API as a
// business-level action. The model chooses what to search for; the URL, the token, the HTTP
// details and the raw response shape stay in here.
//
//   const tool = createSearchIssuesTool({ baseUrl: 'https://tracker.example.com/api', token });
//   // register it next to BUILTIN_TOOLS in the tool pool
import { z } from 'zod';
import { buildTool, type Tool } from '../Tool';

export interface SearchIssuesOptions {
  /** API root; the tool calls GET {baseUrl}/issues/search. Never shown to the model. */
  baseUrl: string;
  /** Bearer token. Never shown to the model, never put in results or errors. */
  token: string;
  /** Injected fetch (tests, proxies); defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Tool name (default "SearchIssues"). */
  name?: string;
}

export const SEARCH_ISSUES_MAX_BODY_CHARS = 300;
const MAX_TITLE_CHARS = 200;

const inputSchema = z.strictObject({
  query: z.string().min(1).describe('Keywords to search issue titles and descriptions for, e.g. "login timeout".'),
  state: z
    .enum(['open', 'closed', 'all'])
    .optional()
    .describe('Which issues to search: open (default), closed, or all.'),
  limit: z.number().int().min(1).max(20).optional().describe('How many issues to return, 1-20 (default 10).'),
});

export type SearchIssuesInput = z.infer<typeof inputSchema>;

export interface IssueSummary {
  number: number;
  title: string;
  state: string;
  url: string;
  /** The start of the description, cut at SEARCH_ISSUES_MAX_BODY_CHARS. */
  excerpt?: string;
}

export interface SearchIssuesOutput {
  query: string;
  state: 'open' | 'closed' | 'all';
  issues: IssueSummary[];
  /** The API says more issues match than were returned. */
  hasMore: boolean;
}

/** What we accept from the API: { items | issues: [...], hasMore?, total? }. */
interface ApiIssue {
  number?: number;
  id?: number;
  title?: string;
  state?: string;
  url?: string;
  html_url?: string;
  body?: string | null;
}

function cut(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function createSearchIssuesTool(options: SearchIssuesOptions): Tool<SearchIssuesInput, SearchIssuesOutput> {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const redact = (s: string) => (options.token ? s.split(options.token).join('[redacted]') : s);

  return buildTool<SearchIssuesInput, SearchIssuesOutput>({
    name: options.name ?? 'SearchIssues',
    inputSchema,
    maxResultSizeChars: 10_000,
    prompt: () =>
      "Searches the project's issue tracker by keywords and returns matching issues (number, title, state, link, start of the description). " +
      'Use it to find issues related to a feature or a failure. Read-only.',
    summary: (input) => `SearchIssues "${input.query}" (${input.state ?? 'open'}, ${input.limit ?? 10})`,
    // Searching changes nothing, and independent HTTP requests do not share state.
    isReadOnly: () => true,
    isConcurrencySafe: () => true,

    async validateInput({ query }) {
      if (query.trim().length < 2) return { result: false, message: 'The search query needs at least 2 characters.' };
      return { result: true };
    },

    // No checkPermissions: the default passthrough lets rules and mode decide.

    async call({ query, state = 'open', limit = 10 }, ctx) {
      const url = new URL(`${base}/issues/search`);
      url.searchParams.set('q', query.trim());
      url.searchParams.set('state', state);
      url.searchParams.set('limit', String(limit));
      const res = await doFetch(url, {
        method: 'GET',
        headers: {
          Authorization: `Bearer ${options.token}`,
          Accept: 'application/json',
          // Stable across retries and replays of this tool_use: lets the API deduplicate.
          'Idempotency-Key': ctx.idempotencyKey,
        },
        signal: ctx.abortSignal,
      });
      if (!res.ok) {
        const body = await res.text().catch(() => '');
        throw new Error(
          redact(
            `Issue search failed: HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${body ? `: ${cut(body, 200)}` : ''}`,
          ),
        );
      }
      const json = (await res.json()) as { items?: ApiIssue[]; issues?: ApiIssue[]; hasMore?: boolean; total?: number };
      const raw = json.items ?? json.issues ?? [];
      const issues = raw.slice(0, limit).map((it): IssueSummary => {
        const summary: IssueSummary = {
          number: it.number ?? it.id ?? 0,
          title: cut(it.title ?? '(untitled)', MAX_TITLE_CHARS),
          state: it.state ?? 'unknown',
          url: it.html_url ?? it.url ?? '',
        };
        if (it.body) summary.excerpt = cut(it.body, SEARCH_ISSUES_MAX_BODY_CHARS);
        return summary;
      });
      const hasMore =
        json.hasMore ?? (typeof json.total === 'number' ? json.total > issues.length : raw.length > limit);
      return { data: { query, state, issues, hasMore } };
    },

    mapToolResultToToolResultBlockParam(data, toolUseId) {
      const scope = data.state === 'all' ? '' : `${data.state} `;
      if (data.issues.length === 0) {
        return { type: 'tool_result', tool_use_id: toolUseId, content: `No ${scope}issues match "${data.query}".` };
      }
      const lines = data.issues.map((i) => {
        let s = `#${i.number} [${i.state}] ${i.title}${i.url ? `\n  ${i.url}` : ''}`;
        if (i.excerpt) s += `\n  ${i.excerpt}`;
        return s;
      });
      const more = data.hasMore ? '\n\nMore issues match: refine the query or raise limit (max 20).' : '';
      return {
        type: 'tool_result',
        tool_use_id: toolUseId,
        content: `Found ${data.issues.length} ${scope}issue${data.issues.length === 1 ? '' : 's'} for "${data.query}":\n${lines.join('\n')}${more}`,
      };
    },
  });
}
