// MCP tools as durable-agent tools: the name `mcp__<server>__<tool>`, the server's JSON Schema as
// both the API input_schema and the validator, safety from the annotations, results mapped to a
// tool_result (is_error from the server's isError). Every call goes through the one pipeline.
import { z } from 'zod';
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { buildTool, type AnyTool, type ToolResult } from '../toolProtocol/Tool';
import type { ToolResultBlockParam } from '../core/apiMessages';
import { mcpServerOf, mcpToolName } from './names';
import { McpUnavailableError, type McpCallResult, type McpManager, type McpToolInfo } from './manager';
import type { McpServers } from './config';
import { mcpReferenceContent, type McpToolOutput } from './content';
import type { McpSessionScope } from './sandboxed';

export type { McpToolOutput } from './content';

/** The SDK's JSON Schema validator (Ajv), made with the first MCP tool: a process without MCP servers never loads it. */
let validatorsMade: AjvJsonSchemaValidator | undefined;
function validators(): AjvJsonSchemaValidator {
  if (!validatorsMade) {
    const ajv =
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require('@modelcontextprotocol/sdk/validation/ajv-provider.js') as typeof import('@modelcontextprotocol/sdk/validation/ajv-provider.js');
    validatorsMade = new ajv.AjvJsonSchemaValidator();
  }
  return validatorsMade;
}

export function mcpResultBlock(
  data: McpToolOutput,
  toolUseId: string,
  server = data.server ?? 'mcp',
): ToolResultBlockParam {
  const content = mcpReferenceContent(data, server);
  if (data.isError === true) {
    // The reference's error result is the text alone (its PostToolUseFailure `error` too).
    const text =
      typeof content === 'string' ? content : content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
    return {
      type: 'tool_result',
      tool_use_id: toolUseId,
      content: text || 'the MCP tool reported an error without text',
      is_error: true,
    };
  }
  return { type: 'tool_result', tool_use_id: toolUseId, content: content.length === 0 ? '(no content)' : content };
}

function inputSchemaOf(info: McpToolInfo): { zod: z.ZodType<Record<string, unknown>>; json: Record<string, unknown> } {
  const json =
    info.inputSchema && typeof info.inputSchema === 'object' && info.inputSchema.type === 'object'
      ? info.inputSchema
      : { type: 'object', properties: {} };
  let validate: ((v: unknown) => { valid: boolean; errorMessage?: string | undefined }) | undefined;
  const validator = validators();
  try {
    validate = validator.getValidator(json as never);
  } catch (e) {
    const msg = (e as Error).message;
    validate = () => ({ valid: false, errorMessage: `the server's input schema does not compile: ${msg}` });
  }
  const zod = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    const r = validate!(value);
    if (!r.valid) ctx.addIssue({ code: 'custom', message: r.errorMessage ?? 'does not match the input schema' });
  });
  return { zod, json };
}

/** Where a tool's server lives, for one session: the manager, the config and the session's cwd. */
export interface McpToolSite {
  manager: McpManager;
  server: string;
  config: McpServers[string];
  cwd: string;
  /** The session's sandbox, which its stdio servers run in (src/mcp/sandboxed.ts); absent: the host. */
  scope?: McpSessionScope;
}

/** A durable-agent tool for one MCP tool of one server. */
export function mcpTool(site: McpToolSite, info: McpToolInfo): AnyTool {
  const name = mcpToolName(site.server, info.name);
  const { zod, json } = inputSchemaOf(info);
  const readOnly = info.annotations?.readOnlyHint === true;
  const idempotent = readOnly || info.annotations?.idempotentHint === true;
  return buildTool<Record<string, unknown>, McpToolOutput>({
    name,
    inputSchema: zod,
    inputJSONSchema: json,
    prompt: () => info.description ?? `${info.name} (MCP server ${site.server})`,
    // With tool search on, every MCP tool is offered by name and loaded through ToolSearch (as the reference).
    shouldDefer: true,
    isReadOnly: () => readOnly,
    isConcurrencySafe: () => readOnly,
    isIdempotent: () => idempotent,
    async call(input, ctx): Promise<ToolResult<McpToolOutput>> {
      const r: McpCallResult = await site.manager.callTool(
        site.server,
        site.config,
        site.cwd,
        info.name,
        input,
        ctx.abortSignal,
        site.scope,
      );
      return { data: { ...r, server: site.server } };
    },
    mapToolResultToToolResultBlockParam: (data, id) => mcpResultBlock(data, id, site.server),
  });
}

/** A stand-in for the tools of a server that is not there: every call is an is_error result saying why. */
export function unavailableMcpTool(name: string, server: string, reason: string): AnyTool {
  return buildTool<Record<string, unknown>, McpToolOutput>({
    name,
    inputSchema: z.record(z.string(), z.unknown()),
    prompt: () => `MCP server ${server} is unavailable`,
    async call() {
      return {
        data: {
          content: [{ type: 'text', text: `MCP server ${server} is unavailable: ${reason}` }],
          isError: true,
          server,
        },
      };
    },
    mapToolResultToToolResultBlockParam: (data, id) => mcpResultBlock(data, id, server),
  });
}

export interface McpToolsResult {
  tools: AnyTool[];
  /** Servers that could not be listed, with the reason (the model is not offered their tools). */
  failures: Array<{ server: string; error: string }>;
}

/**
 * The tools of a session's servers, listed through the manager (servers start on first use).
 * A server that fails contributes no tools and a failure; with `wanted` (a tool name the model
 * asked for), a failed server's tool is a stand-in that answers with the failure.
 */
export async function mcpToolsFor(
  manager: McpManager,
  servers: McpServers,
  cwd: string,
  wanted?: string,
  scope?: McpSessionScope,
): Promise<McpToolsResult> {
  const names = Object.keys(servers);
  const only = wanted !== undefined ? mcpServerOf(wanted, names)?.server : undefined;
  if (wanted !== undefined && only === undefined) return { tools: [], failures: [] };
  const tools: AnyTool[] = [];
  const failures: McpToolsResult['failures'] = [];
  await Promise.all(
    names
      .filter((s) => only === undefined || s === only)
      .map(async (server) => {
        const site: McpToolSite = { manager, server, config: servers[server]!, cwd, ...(scope ? { scope } : {}) };
        try {
          // Listing for the model (no tool wanted) does not wait again for a server that failed to start.
          const infos = await manager.listTools(server, site.config, cwd, wanted === undefined, scope);
          for (const info of infos) tools.push(mcpTool(site, info));
        } catch (e) {
          const error = e instanceof McpUnavailableError ? e.message : `MCP server ${server}: ${(e as Error).message}`;
          failures.push({ server, error });
          if (wanted !== undefined) tools.push(unavailableMcpTool(wanted, server, error));
        }
      }),
  );
  // Stable order: by server as configured, then as listed.
  const order = new Map(names.map((n, i) => [n, i]));
  tools.sort(
    (a, b) =>
      (order.get(mcpServerOf(a.name, names)?.server ?? '') ?? 0) -
      (order.get(mcpServerOf(b.name, names)?.server ?? '') ?? 0),
  );
  return { tools, failures };
}
