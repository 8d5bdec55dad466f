// Deferred tools and ToolSearch, the pure part (docs/tools.md "Deferred tools and ToolSearch"):
// which tools a request defers, which the conversation has loaded (the tool_reference blocks already
// in it: nothing else is kept, so the set survives continue-as-new, compaction and replay), what a
// ToolSearch query finds, and the request's tools and messages shaped for the Messages API.
import type { Message, ToolReferenceContent, UserContentBlock } from '../core/apiMessages';

export const TOOL_SEARCH_TOOL_NAME = 'ToolSearch';
/** A deferred stand-in sent from the first request on, so that the set of deferred tools is never empty. */
export const DEFERRED_PLACEHOLDER_NAME = 'DeferredToolPlaceholder';
/** The text after the tool results that loaded tools (one per such result), as the reference sends it. */
export const TOOL_LOADED_TEXT = 'Tool loaded.';
export const NO_MATCH_TEXT = 'No matching deferred tools found';
export const DEFAULT_MAX_RESULTS = 5;

/**
 * What a schema error of a deferred tool the request did not load adds (the reference's text, which
 * the model sees): load the tool first, and the tool's input schema.
 */
export function notLoadedHint(toolName: string, inputSchema: unknown): string {
  return (
    "\n\nThis tool's schema was not sent to the API — it was not in the discovered-tool set derived from message history. " +
    'Without the schema in your prompt, typed parameters (arrays, numbers, booleans) get emitted as strings and the client-side parser rejects them. ' +
    `Load the tool first: call ${TOOL_SEARCH_TOOL_NAME} with query "select:${toolName}", then retry this call. ` +
    `For reference, this tool's input schema is: ${JSON.stringify(inputSchema)}`
  );
}
/** The reference's limits: a query's words and a select's names beyond these are ignored. */
const MAX_QUERY_WORDS = 32;
const MAX_SELECT_NAMES = 64;

/** `on`: always defer; `off`: every schema up front, no ToolSearch; `auto`: defer when the deferrable schemas pass `toolSearchPct` of the window. */
export type ToolSearchMode = 'on' | 'off' | 'auto';
/** The reference's auto threshold: deferrable tools' tokens ≥ 10% of the model's context window. */
export const DEFAULT_TOOL_SEARCH_PCT = 10;

/** A tool as ToolSearch sees it: its name, its description, and whether it is deferred. */
export interface SearchableTool {
  name: string;
  description: string;
}

/** The tool names of every tool_reference block in the messages, in order of first appearance. */
export function referencedToolNames(messages: readonly Message[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type !== 'tool_result' || typeof b.content === 'string') continue;
      for (const c of b.content)
        if (c.type === 'tool_reference' && !seen.has(c.tool_name)) {
          seen.add(c.tool_name);
          out.push(c.tool_name);
        }
    }
  }
  return out;
}

/** Did the model ever call ToolSearch in this conversation (auto mode then stays on)? */
export function usedToolSearch(messages: readonly Message[]): boolean {
  return messages.some(
    (m) => m.role === 'assistant' && m.content.some((b) => b.type === 'tool_use' && b.name === TOOL_SEARCH_TOOL_NAME),
  );
}

/** The parts of a tool's name a keyword matches: `mcp__server__tool` splits into server and tool, CamelCase into words. */
function nameParts(name: string): { parts: string[]; coarse: string[]; full: string; mcp: boolean } {
  const m = /^mcp__(.+?)__(.+)$/.exec(name);
  if (m) {
    const coarse = [m[1] as string, m[2] as string].map((p) => p.toLowerCase());
    const parts = coarse.flatMap((p) => p.split(/[\s_.]+/)).filter(Boolean);
    return { parts, coarse, full: parts.join(' '), mcp: true };
  }
  const parts = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replaceAll('_', ' ')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
  return { parts, coarse: [name.toLowerCase()], full: parts.join(' '), mcp: false };
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The tool of that name, exactly or ignoring case. */
function byName<T extends SearchableTool>(tools: readonly T[], name: string): T | undefined {
  const lower = name.toLowerCase();
  return tools.find((t) => t.name === name) ?? tools.find((t) => t.name.toLowerCase() === lower);
}

/**
 * What a ToolSearch query finds, as tool names (the reference's algorithm):
 * - `select:A,B` loads those tools by name (any tool of the session, exact or ignoring case; unknown names are skipped);
 * - a query that is a tool's name finds that tool;
 * - `mcp__server…` finds the deferred tools whose names start with it;
 * - else keywords, scored against each deferred tool's name parts and description (a `+word` must match),
 *   best first, at most `maxResults`.
 */
export function searchTools(
  query: string,
  opts: { deferred: readonly SearchableTool[]; all: readonly SearchableTool[]; maxResults?: number },
): string[] {
  const max = Math.max(0, Math.floor(opts.maxResults ?? DEFAULT_MAX_RESULTS));
  const select = /^select:(.+)$/is.exec(query.trim());
  if (select) {
    const names = (select[1] as string)
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean)
      .slice(0, MAX_SELECT_NAMES);
    const found: string[] = [];
    for (const n of names) {
      const t = byName(opts.deferred, n) ?? byName(opts.all, n);
      if (t && !found.includes(t.name)) found.push(t.name);
    }
    return found;
  }
  const words = query.trim().split(/\s+/).filter(Boolean).slice(0, MAX_QUERY_WORDS);
  const text = words.join(' ');
  if (text === '') return [];
  const exact = byName(opts.deferred, text) ?? byName(opts.all, text);
  if (exact) return [exact.name];
  const lower = text.toLowerCase();
  if (lower.startsWith('mcp__') && lower.length > 5) {
    const prefixed = opts.deferred
      .filter((t) => t.name.toLowerCase().startsWith(lower))
      .slice(0, max)
      .map((t) => t.name);
    if (prefixed.length > 0) return prefixed;
  }
  const terms = lower.split(/\s+/);
  const required = terms.filter((t) => t.startsWith('+') && t.length > 1).map((t) => t.slice(1));
  const scored = required.length > 0 ? [...required, ...terms.filter((t) => !t.startsWith('+'))] : terms;
  const word = new Map(scored.map((t) => [t, new RegExp(`\\b${escapeRegExp(t)}\\b`)]));
  const candidates = opts.deferred.filter((tool) => {
    if (required.length === 0) return true;
    const p = nameParts(tool.name);
    const desc = tool.description.toLowerCase();
    return required.every(
      (r) =>
        p.parts.some((x) => x.includes(r)) || p.coarse.some((x) => x.includes(r)) || (word.get(r) as RegExp).test(desc),
    );
  });
  return candidates
    .map((tool) => {
      const p = nameParts(tool.name);
      const desc = tool.description.toLowerCase();
      let score = 0;
      for (const t of scored) {
        if (p.parts.includes(t)) score += p.mcp ? 12 : 10;
        else if (p.parts.some((x) => x.includes(t))) score += p.mcp ? 6 : 5;
        if (p.coarse.includes(t)) score += p.mcp ? 12 : 10;
        else if (p.coarse.some((x) => x.includes(t))) score += p.mcp ? 4 : 3;
        if (p.full.includes(t) && score === 0) score += 3;
        if ((word.get(t) as RegExp).test(desc)) score += 2;
      }
      return { name: tool.name, score };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, max)
    .map((s) => s.name);
}

/** A tool definition as a model request carries it; `deferrable` is ours (never sent). */
export interface RequestTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  deferrable?: boolean;
  defer_loading?: boolean;
}

export interface DeferralSettings {
  mode: ToolSearchMode;
  /** auto: defer once the deferrable tools' estimated tokens reach this % of `window`. */
  pct: number;
  window: number;
  /** Estimated tokens of a value (the engine's estimate). */
  estimate: (value: unknown) => number;
}

export interface DeferredRequest {
  /** The request's tools: the up-front ones, then the placeholder and the loaded deferred ones. */
  tools: RequestTool[];
  /** Tool search is on for this request (ToolSearch offered, deferred tools named in `note`). */
  active: boolean;
  /** The names of every deferred tool, one per line, with how to load them (for the system prompt). */
  note?: string;
  /** The messages as sent: `Tool loaded.` after results that loaded tools; a reference to a tool this request lacks becomes text. */
  shape: (messages: readonly Message[]) => Message[];
}

const stripOurs = ({ deferrable: _d, ...t }: RequestTool): RequestTool => t;

/**
 * The request's tools when the session offers ToolSearch. Deferred: every `deferrable` tool (MCP
 * tools, the built-ins the reference defers). Loaded: those a tool_reference in the transcript
 * names (`full`, the whole transcript: a compaction does not unload them). A loaded tool whose
 * reference the model still sees goes with `defer_loading: true` (the API expands it there); one
 * whose reference was summarised away is sent whole, so its schema stays in the prompt.
 */
export function deferTools(
  defined: readonly RequestTool[],
  full: readonly Message[],
  view: readonly Message[],
  s: DeferralSettings,
): DeferredRequest {
  const search = defined.find((t) => t.name === TOOL_SEARCH_TOOL_NAME);
  const deferrable = defined.filter((t) => t.deferrable && t.name !== TOOL_SEARCH_TOOL_NAME);
  const active =
    search !== undefined &&
    deferrable.length > 0 &&
    (s.mode === 'on' ||
      (s.mode === 'auto' &&
        (usedToolSearch(full) || s.estimate(deferrable.map(stripOurs)) >= (s.window * s.pct) / 100)));
  if (!active) {
    const tools = defined.filter((t) => t.name !== TOOL_SEARCH_TOOL_NAME).map(stripOurs);
    return { tools, active: false, shape: (m) => shapeMessages(m, new Set(tools.map((t) => t.name))) };
  }
  const deferredNames = new Set(deferrable.map((t) => t.name));
  const loaded = referencedToolNames(full).filter((n) => deferredNames.has(n));
  const inView = new Set(referencedToolNames(view));
  const tools: RequestTool[] = [
    ...defined.filter((t) => !deferredNames.has(t.name)).map(stripOurs),
    {
      name: DEFERRED_PLACEHOLDER_NAME,
      description: 'Not a tool: it keeps deferred loading on. Do not call it.',
      input_schema: { type: 'object', properties: {} },
      defer_loading: true,
    },
    ...loaded.map((n) => {
      const t = stripOurs(deferrable.find((d) => d.name === n) as RequestTool);
      return inView.has(n) ? { ...t, defer_loading: true } : t;
    }),
  ];
  const note = [
    `These tools are available but their schemas are not loaded: call ${TOOL_SEARCH_TOOL_NAME} with "select:<name>[,<name>...]" to load them (or with keywords to search them) before you call one.`,
    ...deferrable.map((t) => t.name).sort(),
  ].join('\n');
  return { tools, active: true, note, shape: (m) => shapeMessages(m, new Set(tools.map((t) => t.name))) };
}

/**
 * The view as sent: after the tool results of a user message that loaded tools, one `Tool loaded.`
 * text per such result (the reference's wire shape); a tool_reference to a tool the request does not
 * carry (an MCP server gone, tool search off) becomes a text saying so (the API refuses it otherwise).
 */
export function shapeMessages(messages: readonly Message[], offered: ReadonlySet<string>): Message[] {
  return messages.map((m) => {
    if (m.role !== 'user' || typeof m.content === 'string') return m;
    let loadedResults = 0;
    let changed = false;
    const content: UserContentBlock[] = m.content.map((b) => {
      if (b.type !== 'tool_result' || typeof b.content === 'string') return b;
      const refs = b.content.filter((c): c is ToolReferenceContent => c.type === 'tool_reference');
      if (refs.length === 0) return b;
      if (refs.some((r) => offered.has(r.tool_name))) loadedResults++;
      if (refs.every((r) => offered.has(r.tool_name))) return b;
      changed = true;
      const inner = b.content.map((c) =>
        c.type === 'tool_reference' && !offered.has(c.tool_name)
          ? { type: 'text' as const, text: `Tool ${c.tool_name} is not available in this request.` }
          : c,
      );
      return { ...b, content: inner };
    });
    if (loadedResults === 0 && !changed) return m;
    const texts = Array.from({ length: loadedResults }, () => ({ type: 'text' as const, text: TOOL_LOADED_TEXT }));
    return { role: 'user', content: [...content, ...texts] };
  });
}
