// The fake server's options: where it listens, its script, its faults, its checks. server.ts
// re-exports them; answers.ts and intake.ts read them from here.
import type { PromptCacheOptions } from './promptCache';
import type { RequestLimitOptions } from './rateLimit';
import type { ResponseSpec, ScriptFn } from './types';

export interface FakeAnthropicOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Responses queued from the start. */
  responses?: ResponseSpec[];
  /** Called when the queue is empty. */
  script?: ScriptFn;
  /** `true`: any non-empty `x-api-key` (or Bearer token); a string: exactly that key. Default: anything. */
  requireApiKey?: boolean | string;
  /** Check tool_use/tool_result pairing in requests like the real API. Default true. */
  validateToolPairing?: boolean;
  /** Accept `role: "system"` messages inside `messages` (current Claude Code sends them). Default false. */
  allowSystemMessages?: boolean;
  /** Default JSON piece size for tool_use input (default: ≤ 20 chars and ≥ 3 pieces). */
  jsonChunkSize?: number;
  /** Default text piece size (default 12). */
  textChunkSize?: number;
  /** Send `anthropic-ratelimit-*` headers on successful responses. Default true. */
  rateLimitHeaders?: boolean;
  /** Receives one line per request handled (for the demo's verbose mode). */
  log?: (line: string) => void;
  /**
   * The model's context window: a prompt above it is refused with HTTP 400 `prompt is too long:
   * N tokens > W maximum`, as the API does (before any scripted response is used). Default: none.
   */
  contextWindow?: number;
  /** Prompt-cache simulation for `cache_control` breakpoints (on by default; `false` turns it off). */
  promptCache?: PromptCacheOptions | false;
  /** Characters per token of the fake's token counting. Default 4. */
  charsPerToken?: number;
  /**
   * Check thinking as the API does (thinking.ts): the `thinking` parameter's rules, and every
   * thinking/redacted_thinking block sent back is one this server sent, unchanged and in order.
   * Default true.
   */
  validateThinking?: boolean;
  /**
   * A request limit as the API's (rateLimit.ts): past it a valid request is answered 429
   * `rate_limit_error` with `retry-after`, before the queue or the script is asked. Default: none.
   */
  requestLimit?: RequestLimitOptions;
}
