"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ToolSearchTool = void 0;
// ToolSearch: loads deferred tools (docs/tools.md "Deferred tools and ToolSearch"). Its result is a
// list of tool_reference blocks: the API expands each into the tool's definition, and every later
// request of the session carries the loaded tools (src/tools/toolSearch.ts derives them from these
// blocks). The reference's schema: `query`, `max_results` (default 5).
const zod_1 = require("zod");
const Tool_1 = require("../Tool");
const toolSearch_1 = require("../toolSearch");
const inputSchema = zod_1.z.strictObject({
    query: zod_1.z
        .string()
        .describe('What to load: "select:<name>[,<name>...]" for tools by name, or keywords to search the deferred tools\' names and descriptions ("+word" must match).'),
    max_results: zod_1.z.number().default(toolSearch_1.DEFAULT_MAX_RESULTS).describe('At most this many tools for a keyword search.'),
});
async function searchable(pool) {
    const all = await Promise.all(pool.map(async (t) => ({ name: t.name, description: String(await t.prompt()), deferred: t.shouldDefer === true })));
    return { deferred: all.filter((t) => t.deferred && t.name !== toolSearch_1.TOOL_SEARCH_TOOL_NAME), all };
}
exports.ToolSearchTool = (0, Tool_1.buildTool)({
    name: toolSearch_1.TOOL_SEARCH_TOOL_NAME,
    inputSchema,
    // The reference's schema lists max_results as required (with its default); the call accepts it absent.
    inputJSONSchema: zod_1.z.toJSONSchema(inputSchema, { io: 'output' }),
    maxResultSizeChars: 100_000,
    prompt: () => [
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
    checkPermissions: async () => ({ behavior: 'allow' }),
    async call(input, ctx) {
        const { deferred, all } = await searchable(ctx.pool ?? []);
        return {
            data: {
                query: input.query,
                matches: (0, toolSearch_1.searchTools)(input.query, { deferred, all, maxResults: input.max_results }),
                total_deferred_tools: deferred.length,
            },
        };
    },
    mapToolResultToToolResultBlockParam(d, toolUseId) {
        if (d.matches.length === 0)
            return { type: 'tool_result', tool_use_id: toolUseId, content: toolSearch_1.NO_MATCH_TEXT };
        return {
            type: 'tool_result',
            tool_use_id: toolUseId,
            content: d.matches.map((tool_name) => ({ type: 'tool_reference', tool_name })),
        };
    },
});
//# sourceMappingURL=toolSearch.js.map