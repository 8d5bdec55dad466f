// The side model of a runner's tools: the small, fast model of the calls tools make themselves
// (WebFetch reads a page, WebSearch searches), on the runner's Anthropic client, non-streamed.
import type Anthropic from '@anthropic-ai/sdk';
import { MAX_PAUSE_CONTINUATIONS } from './model';
import type { SideModel } from '../toolProtocol/Tool';

/** The small, fast model when neither the worker's options nor the environment name one. */
export const SMALL_FAST_MODEL_DEFAULT = 'claude-haiku-4-5';

/** The side model of a worker's tools: the worker's Anthropic client, non-streamed requests. */
export function sideModelOf(anthropic: () => Anthropic, model?: string): SideModel {
  const name =
    model ??
    process.env.ANTHROPIC_SMALL_FAST_MODEL ??
    process.env.ANTHROPIC_DEFAULT_HAIKU_MODEL ??
    SMALL_FAST_MODEL_DEFAULT;
  return {
    model: name,
    async create(req, signal) {
      const client = anthropic();
      const params = {
        model: name,
        max_tokens: req.maxTokens,
        ...(req.system ? { system: req.system } : {}),
        messages: req.messages as Anthropic.MessageParam[],
        ...(req.tools ? { tools: req.tools as unknown as Anthropic.ToolUnion[] } : {}),
        ...(req.toolChoice ? { tool_choice: req.toolChoice as unknown as Anthropic.ToolChoice } : {}),
      };
      // A server tool's loop (web_search) may pause a long turn (stop_reason pause_turn): the turn
      // goes on when the paused content is sent back as is, the same request otherwise, until
      // another stop reason (issue 31 item 4); bounded as the main loop's (runtime/model.ts).
      const responses: Anthropic.Message[] = [];
      let messages = params.messages;
      for (;;) {
        const res = await client.messages.create({ ...params, messages }, { signal });
        responses.push(res);
        if (res.stop_reason !== 'pause_turn') break;
        if (responses.length > MAX_PAUSE_CONTINUATIONS)
          throw new Error(
            `the API paused the ${req.purpose} call ${responses.length} times (stop_reason pause_turn) without finishing it`,
          );
        const paused = responses.flatMap((r) => r.content) as unknown as Anthropic.ContentBlockParam[];
        messages = [...params.messages, { role: 'assistant', content: paused }];
      }
      const last = responses[responses.length - 1] as Anthropic.Message;
      return {
        content: responses.flatMap((r) => r.content) as unknown as Array<Record<string, unknown>>,
        stopReason: last.stop_reason,
        model: last.model,
        // Every continuation is billed: the usage of the call is the sum over its requests.
        usage: sumApiUsage(responses.map((r) => r.usage)),
      };
    },
  };
}

/** The API usage of several requests of one call, added field by field (server tool counts too). */
function sumApiUsage(list: readonly Anthropic.Usage[]): Anthropic.Usage {
  const add = (a: number | null | undefined, b: number | null | undefined) =>
    a == null && b == null ? (a ?? b ?? null) : (a ?? 0) + (b ?? 0);
  return list.reduce((acc, u) => ({
    ...acc,
    input_tokens: acc.input_tokens + u.input_tokens,
    output_tokens: acc.output_tokens + u.output_tokens,
    cache_creation_input_tokens: add(acc.cache_creation_input_tokens, u.cache_creation_input_tokens),
    cache_read_input_tokens: add(acc.cache_read_input_tokens, u.cache_read_input_tokens),
    ...(acc.server_tool_use || u.server_tool_use
      ? {
          server_tool_use: {
            ...(acc.server_tool_use ?? u.server_tool_use)!,
            web_search_requests:
              (acc.server_tool_use?.web_search_requests ?? 0) + (u.server_tool_use?.web_search_requests ?? 0),
          },
        }
      : {}),
  }));
}
