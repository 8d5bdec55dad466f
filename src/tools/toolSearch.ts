// ToolSearch: loads deferred tools (docs/tools.md "Deferred tools and ToolSearch"). Its result is a
// list of tool_reference blocks: the API expands each into the tool's definition, and every later
// request of the session carries the loaded tools (src/toolProtocol/deferredTools.ts derives them from these
// blocks). The reference's schema: `query`, `max_results` (default 5).
import { z } from 'zod';
import { buildTool, type AnyTool } from '../toolProtocol/Tool';
import {
  DEFAULT_MAX_RESULTS,
  NO_MATCH_TEXT,
  searchTools,
  TOOL_SEARCH_TOOL_NAME,
  type SearchableTool,
} from '../toolProtocol/deferredTools';

const inputSchema = z.strictObject({
  query: z
    .string()
    .describe(
      'What to load: "select:<name>[,<name>...]" for tools by name, or keywords to search the deferred tools\' names and descriptions ("+word" must match).',
    ),
  max_results: z.number().default(DEFAULT_MAX_RESULTS).describe('At most this many tools for a keyword search.'),
});

export type ToolSearchInput = z.output<typeof inputSchema>;

export interface ToolSearchOutput {
  query: string;
  matches: string[];
  /** How many tools the session defers (the reference's PostToolUse tool_response has it too). */
  total_deferred_tools: number;
}

async function searchable(pool: readonly AnyTool[]): Promise<{ deferred: SearchableTool[]; all: SearchableTool[] }> {
  const all = await Promise.all(
    pool.map(async (t) => ({ name: t.name, description: String(await t.prompt()), deferred: t.shouldDefer === true })),
  );
  return { deferred: all.filter((t) => t.deferred && t.name !== TOOL_SEARCH_TOOL_NAME), all };
}

export const ToolSearchTool = buildTool<ToolSearchInput, ToolSearchOutput>({
  name: TOOL_SEARCH_TOOL_NAME,
  inputSchema,
  // The reference's schema lists max_results as required (with its default); the call accepts it absent.
  inputJSONSchema: z.toJSONSchema(inputSchema, { io: 'output' }) as Record<string, unknown>,
  maxResultSizeChars: 100_000,
  prompt: () =>
    [
      'Loads the schemas of deferred tools so that you can call them. Deferred tools are listed by name only (in the system prompt); until one is loaded its parameters are unknown to you.',
      '',
      'Query forms:',
      '- "select:Name1,Name2" loads exactly these tools.',
      '- keywords (e.g. "calendar event") search the deferred tools\' names and descriptions and load the best matches (at most max_results).',
      '- "+slack send" requires "slack" and ranks by the other words.',
      '',
      'Once loaded, a tool stays loaded for the rest of the session: call it directly.',
    ].join('\n'),
  summary: (i) => `ToolSearch ${i.query}`,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  // Loading a schema needs no permission (the call of the loaded tool is checked as any call).
  checkPermissions: async () => ({ behavior: 'allow' as const }),
  async call(input, ctx) {
    const { deferred, all } = await searchable(ctx.pool ?? []);
    return {
      data: {
        query: input.query,
        matches: searchTools(input.query, { deferred, all, maxResults: input.max_results }),
        total_deferred_tools: deferred.length,
      },
    };
  },
  mapToolResultToToolResultBlockParam(d: ToolSearchOutput, toolUseId) {
    if (d.matches.length === 0) return { type: 'tool_result', tool_use_id: toolUseId, content: NO_MATCH_TEXT };
    return {
      type: 'tool_result',
      tool_use_id: toolUseId,
      content: d.matches.map((tool_name) => ({ type: 'tool_reference' as const, tool_name })),
    };
  },
});
