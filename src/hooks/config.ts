// Hook configuration: validation/normalisation and the tool-name matcher.
import { DEFAULT_HOOK_TIMEOUT_SECONDS, HOOK_EVENTS, REFERENCE_ONLY_HOOK_EVENTS, type HookDef, type HookEventName, type HookMatcherConfig, type HooksConfig } from './types';

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/**
 * Accepts either a whole settings object (`{ "hooks": {...} }`) or the inner map and returns a
 * validated HooksConfig. Throws with a precise message (naming the key) on bad shapes, on an
 * event name the reference does not define and on a hook type other than command/function: a
 * mistake shows at load, not at the first call.
 */
export function normalizeHooksConfig(raw: unknown): HooksConfig {
  if (raw === undefined || raw === null) return {};
  if (!isObject(raw)) throw new Error('hooks config must be an object');
  const inner = 'hooks' in raw && isObject(raw.hooks) ? raw.hooks : raw;
  const out: HooksConfig = {};
  for (const key of Object.keys(inner)) {
    if ((REFERENCE_ONLY_HOOK_EVENTS as readonly string[]).includes(key)) continue; // see referenceOnlyHookEvents
    if (!(HOOK_EVENTS as readonly string[]).includes(key)) {
      throw new Error(`hooks.${key} is not a hook event (known events: ${HOOK_EVENTS.join(', ')})`);
    }
  }
  for (const event of HOOK_EVENTS) {
    const list = (inner as Record<string, unknown>)[event];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new Error(`hooks.${event} must be an array`);
    out[event] = list.map((m, i) => normalizeMatcher(m, `hooks.${event}[${i}]`));
  }
  return out;
}

/** The reference's events in a hooks config that durable-agent accepts but never fires (for load warnings). */
export function referenceOnlyHookEvents(raw: unknown): string[] {
  if (!isObject(raw)) return [];
  const inner = 'hooks' in raw && isObject(raw.hooks) ? raw.hooks : raw;
  return Object.keys(inner).filter((k) => (REFERENCE_ONLY_HOOK_EVENTS as readonly string[]).includes(k));
}

function normalizeMatcher(m: unknown, where: string): HookMatcherConfig {
  if (!isObject(m)) throw new Error(`${where} must be an object`);
  if (m.matcher !== undefined && typeof m.matcher !== 'string') throw new Error(`${where}.matcher must be a string`);
  if (!Array.isArray(m.hooks)) throw new Error(`${where}.hooks must be an array`);
  const hooks = m.hooks.map((h, j) => normalizeHook(h, `${where}.hooks[${j}]`));
  return m.matcher === undefined ? { hooks } : { matcher: m.matcher, hooks };
}

function normalizeHook(h: unknown, where: string): HookDef {
  if (!isObject(h)) throw new Error(`${where} must be an object`);
  if (h.timeout !== undefined && (typeof h.timeout !== 'number' || !(h.timeout > 0) || !Number.isFinite(h.timeout))) {
    throw new Error(`${where}.timeout must be a positive number of seconds`);
  }
  if (h.type === 'command') {
    if (typeof h.command !== 'string' || h.command.trim() === '') throw new Error(`${where}.command must be a non-empty string`);
    return h.timeout === undefined ? { type: 'command', command: h.command } : { type: 'command', command: h.command, timeout: h.timeout };
  }
  if (h.type === 'function') {
    if (typeof h.fn !== 'function') throw new Error(`${where}.fn must be a function`);
    return h as unknown as HookDef;
  }
  if (h.type === 'prompt' || h.type === 'agent') throw new Error(`${where}.type "${h.type}" (a model-evaluated hook) is not supported by durable-agent; use "command"`);
  throw new Error(`${where}.type must be "command" (or "function" from the library API), got ${JSON.stringify(h.type)}`);
}

const NO_MATCHER = new Set<HookEventName>(['UserPromptSubmit', 'Stop']);

const NAME_LIST = /^[A-Za-z0-9_\-\s|]+$/;

/**
 * Does a matcher select this tool? Absent, empty and `*` select every tool; a plain list of names
 * (`Edit|Write`, spaces around `|` ignored) is compared exactly (aliases count); anything else is a
 * regular expression searched in the tool name, unanchored as the reference does (`B.s` and `Ba*`
 * select Bash; write `^…$` to match the whole name). An invalid regular expression selects nothing.
 */
export function matcherMatches(matcher: string | undefined, toolName: string, aliases: readonly string[] = []): boolean {
  const m = (matcher ?? '').trim();
  if (m === '' || m === '*') return true;
  const names = [toolName, ...aliases];
  if (NAME_LIST.test(m)) {
    const list = m.split('|').map((s) => s.trim()).filter(Boolean);
    return names.some((n) => list.includes(n));
  }
  let re: RegExp;
  try {
    re = new RegExp(m);
  } catch {
    return false;
  }
  return names.some((n) => re.test(n));
}

export function isValidMatcher(matcher: string | undefined): boolean {
  const m = (matcher ?? '').trim();
  if (m === '' || m === '*' || NAME_LIST.test(m)) return true;
  try {
    new RegExp(m);
    return true;
  } catch {
    return false;
  }
}

export interface MatchedHook {
  def: HookDef;
  matcher?: string;
  timeoutMs: number;
  label: string;
}

/**
 * The hooks of an event that apply to a query (the tool name for tool events, the source for
 * SessionStart, the reason for SessionEnd, the trigger for PreCompact, the notification type for
 * Notification; events without a matcher pass ''), in configuration order, identical commands once.
 */
export function hooksFor(config: HooksConfig | undefined, event: HookEventName, toolName: string, aliases: readonly string[] = []): MatchedHook[] {
  const out: MatchedHook[] = [];
  const seen = new Set<string>();
  for (const m of config?.[event] ?? []) {
    // UserPromptSubmit and Stop take no matcher (the reference ignores one); SubagentStart/Stop match the agent type.
    if (!NO_MATCHER.has(event) && !matcherMatches(m.matcher, toolName, aliases)) continue;
    for (const def of m.hooks) {
      if (def.type === 'command') {
        if (seen.has(def.command)) continue;
        seen.add(def.command);
      }
      const timeoutMs = Math.round((def.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS) * 1000);
      const label = def.type === 'command' ? def.command : def.name ?? (def.fn.name || 'function hook');
      out.push(m.matcher === undefined ? { def, timeoutMs, label } : { def, matcher: m.matcher, timeoutMs, label });
    }
  }
  return out;
}
