// The fake API's token counting, context window and prompt cache, modelled on the real one: the
// prompt is a sequence of blocks in the order tools → system → messages; `cache_control` marks a
// breakpoint; a request reads the longest cached prefix found at a breakpoint or up to 20 blocks
// before it, writes every breakpoint's prefix (5 minutes, refreshed on use, ≥ a minimum size),
// and reports input_tokens / cache_creation_input_tokens / cache_read_input_tokens as the API does.
import { createHash } from 'node:crypto';
import type { MessagesRequest } from './types';

export interface PromptSegment {
  /** Hash of the prompt up to and including this block. */
  prefixHash: string;
  tokens: number;
  breakpoint: boolean;
}

export interface PromptCacheOptions {
  /** Entry lifetime; refreshed when read. Default 5 minutes (the API's ephemeral TTL). */
  ttlMs?: number;
  /** A prefix shorter than this is not cached (the API's minimum: 1024 tokens for most models). */
  minTokens?: number;
  /** How many blocks before a breakpoint the lookup walks back. Default 20. */
  lookbackBlocks?: number;
  now?: () => number;
}

export interface CacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

function withoutCacheControl(block: unknown): unknown {
  if (!block || typeof block !== 'object' || Array.isArray(block)) return block;
  const { cache_control: _ignored, ...rest } = block as Record<string, unknown>;
  return rest;
}

function hasCacheControl(block: unknown): boolean {
  return (
    !!block &&
    typeof block === 'object' &&
    'cache_control' in (block as Record<string, unknown>) &&
    (block as Record<string, unknown>)['cache_control'] != null
  );
}

/** Tools a tool_reference in the messages names (a deferred tool the API expanded). */
function referencedTools(request: MessagesRequest): Set<string> {
  const out = new Set<string>();
  for (const m of request.messages)
    if (typeof m.content !== 'string')
      for (const b of m.content)
        if (b.type === 'tool_result' && Array.isArray(b.content))
          for (const c of b.content as Array<{ type?: unknown; tool_name?: unknown }>)
            if (c && c.type === 'tool_reference' && typeof c.tool_name === 'string') out.add(c.tool_name);
  return out;
}

/**
 * The prompt as blocks in cache order, each with the hash of the prefix it ends and its token count
 * (an estimate: the block's JSON length / `charsPerToken`). A deferred tool (`defer_loading`) is in
 * the prompt only when a tool_reference names it, as the API expands it.
 */
export function promptSegments(request: MessagesRequest, charsPerToken = 4): PromptSegment[] {
  const raw: Array<{ key: string; breakpoint: boolean }> = [];
  const referenced = referencedTools(request);
  for (const tool of request.tools ?? []) {
    const t = tool as { defer_loading?: unknown; name?: unknown };
    if (t && t.defer_loading === true && !(typeof t.name === 'string' && referenced.has(t.name))) continue;
    raw.push({ key: `tool:${JSON.stringify(withoutCacheControl(tool))}`, breakpoint: hasCacheControl(tool) });
  }
  const system = request.system;
  if (typeof system === 'string' && system !== '')
    raw.push({ key: `system:${JSON.stringify({ type: 'text', text: system })}`, breakpoint: false });
  else if (Array.isArray(system))
    for (const b of system)
      raw.push({ key: `system:${JSON.stringify(withoutCacheControl(b))}`, breakpoint: hasCacheControl(b) });
  for (const [i, m] of request.messages.entries()) {
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    for (const [j, b] of blocks.entries()) {
      raw.push({
        key: `${i}:${m.role}:${j}:${JSON.stringify(withoutCacheControl(b))}`,
        breakpoint: hasCacheControl(b),
      });
    }
  }
  let prev = '';
  return raw.map((r) => {
    prev = createHash('sha256').update(prev).update(r.key).digest('hex');
    return { prefixHash: prev, tokens: Math.max(1, Math.ceil(r.key.length / charsPerToken)), breakpoint: r.breakpoint };
  });
}

export function promptTokens(segments: readonly PromptSegment[]): number {
  return segments.reduce((n, s) => n + s.tokens, 0);
}

/** The API's wording for a prompt over the window (HTTP 400, invalid_request_error). */
export function promptTooLongMessage(tokens: number, window: number): string {
  return `prompt is too long: ${tokens} tokens > ${window} maximum`;
}

export class PromptCacheSim {
  private readonly entries = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly minTokens: number;
  private readonly lookback: number;
  private readonly now: () => number;

  constructor(opts: PromptCacheOptions = {}) {
    this.ttlMs = opts.ttlMs ?? 5 * 60_000;
    this.minTokens = opts.minTokens ?? 1024;
    this.lookback = opts.lookbackBlocks ?? 20;
    this.now = opts.now ?? Date.now;
  }

  /** Usage of one successful request; reads and writes the cache as the API would. */
  use(segments: readonly PromptSegment[]): CacheUsage {
    const now = this.now();
    const cumulative: number[] = [];
    let sum = 0;
    for (const s of segments) cumulative.push((sum += s.tokens));
    const total = sum;
    const breakpoints = segments.flatMap((s, i) => (s.breakpoint ? [i] : []));
    if (breakpoints.length === 0)
      return { input_tokens: total, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    let hit = -1;
    for (const bp of breakpoints) {
      for (let j = bp; j >= Math.max(0, bp - this.lookback); j--) {
        const expires = this.entries.get((segments[j] as PromptSegment).prefixHash);
        if (expires !== undefined && expires > now) {
          hit = Math.max(hit, j);
          break;
        }
      }
    }
    const read = hit >= 0 ? (cumulative[hit] as number) : 0;
    if (hit >= 0) this.entries.set((segments[hit] as PromptSegment).prefixHash, now + this.ttlMs);
    let written = read;
    for (const bp of breakpoints) {
      const upTo = cumulative[bp] as number;
      if (upTo < this.minTokens) continue;
      this.entries.set((segments[bp] as PromptSegment).prefixHash, now + this.ttlMs);
      written = Math.max(written, upTo);
    }
    const creation = Math.max(0, written - read);
    return {
      input_tokens: total - read - creation,
      cache_creation_input_tokens: creation,
      cache_read_input_tokens: read,
    };
  }

  clear(): void {
    this.entries.clear();
  }
}
