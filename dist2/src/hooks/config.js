"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.normalizeHooksConfig = normalizeHooksConfig;
exports.hookConfigWarnings = hookConfigWarnings;
exports.referenceOnlyHookEvents = referenceOnlyHookEvents;
exports.matcherMatches = matcherMatches;
exports.isValidMatcher = isValidMatcher;
exports.hooksFor = hooksFor;
exports.hookCommandsOf = hookCommandsOf;
// Hook configuration: validation/normalisation and the tool-name matcher.
const types_1 = require("./types");
/** Events whose hooks see one tool call: the only ones where a hook's `if` rule means something. */
const TOOL_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);
/** A permission rule's form: `Tool` or `Tool(spec)`. */
const RULE_FORM = /^\s*[A-Za-z0-9_*.-]+(\([\s\S]*\))?\s*$/;
/** The reference's command-hook keys durable-agent honours. */
const COMMAND_KEYS = new Set(['type', 'command', 'timeout', 'args', 'if', 'shell', 'async', 'statusMessage']);
/** The reference's command-hook keys durable-agent accepts with a load warning (see hookConfigWarnings). */
const WARNED_KEYS = {
    once: 'is not supported by durable-agent: the hook runs every time',
};
function isObject(x) {
    return typeof x === 'object' && x !== null && !Array.isArray(x);
}
/**
 * Accepts either a whole settings object (`{ "hooks": {...} }`) or the inner map and returns a
 * validated HooksConfig. Throws with a precise message (naming the key) on bad shapes, on an
 * event name the reference does not define and on a hook type other than command/function: a
 * mistake shows at load, not at the first call.
 */
function normalizeHooksConfig(raw) {
    if (raw === undefined || raw === null)
        return {};
    if (!isObject(raw))
        throw new Error('hooks config must be an object');
    const inner = 'hooks' in raw && isObject(raw.hooks) ? raw.hooks : raw;
    const out = {};
    for (const key of Object.keys(inner)) {
        if (types_1.REFERENCE_ONLY_HOOK_EVENTS.includes(key))
            continue; // see referenceOnlyHookEvents
        if (!types_1.HOOK_EVENTS.includes(key)) {
            throw new Error(`hooks.${key} is not a hook event (known events: ${types_1.HOOK_EVENTS.join(', ')})`);
        }
    }
    for (const event of types_1.HOOK_EVENTS) {
        const list = inner[event];
        if (list === undefined)
            continue;
        if (!Array.isArray(list))
            throw new Error(`hooks.${event} must be an array`);
        out[event] = list.map((m, i) => normalizeMatcher(m, `hooks.${event}[${i}]`, event));
    }
    return out;
}
/**
 * Load warnings for keys of a valid hooks config that durable-agent does not honour: a command
 * hook's `once`, and keys neither the reference nor durable-agent define (a typo such as
 * `timout`). Each is `[key path, message]`; the config itself loads (normalizeHooksConfig).
 */
function hookConfigWarnings(raw) {
    if (!isObject(raw))
        return [];
    const inner = 'hooks' in raw && isObject(raw.hooks) ? raw.hooks : raw;
    const out = [];
    for (const event of types_1.HOOK_EVENTS) {
        const list = inner[event];
        if (!Array.isArray(list))
            continue;
        list.forEach((m, i) => {
            if (!isObject(m))
                return;
            for (const k of Object.keys(m))
                if (k !== 'matcher' && k !== 'hooks')
                    out.push([`hooks.${event}[${i}].${k}`, 'is not a hook matcher key; it is ignored']);
            if (!Array.isArray(m.hooks))
                return;
            m.hooks.forEach((h, j) => {
                if (!isObject(h) || h.type !== 'command')
                    return;
                for (const k of Object.keys(h)) {
                    if (COMMAND_KEYS.has(k) || k === 'asyncRewake' || k === 'rewakeMessage' || k === 'rewakeSummary')
                        continue;
                    out.push([
                        `hooks.${event}[${i}].hooks[${j}].${k}`,
                        WARNED_KEYS[k] ?? 'is not a command hook key; it is ignored',
                    ]);
                }
            });
        });
    }
    return out;
}
/** The reference's events in a hooks config that durable-agent accepts but never fires (for load warnings). */
function referenceOnlyHookEvents(raw) {
    if (!isObject(raw))
        return [];
    const inner = 'hooks' in raw && isObject(raw.hooks) ? raw.hooks : raw;
    return Object.keys(inner).filter((k) => types_1.REFERENCE_ONLY_HOOK_EVENTS.includes(k));
}
function normalizeMatcher(m, where, event) {
    if (!isObject(m))
        throw new Error(`${where} must be an object`);
    if (m.matcher !== undefined && typeof m.matcher !== 'string')
        throw new Error(`${where}.matcher must be a string`);
    if (typeof m.matcher === 'string' && !NO_MATCHER.has(event) && !isValidMatcher(m.matcher)) {
        throw new Error(`${where}.matcher ${JSON.stringify(m.matcher)} is not a valid regular expression`);
    }
    if (!Array.isArray(m.hooks))
        throw new Error(`${where}.hooks must be an array`);
    const hooks = m.hooks.map((h, j) => normalizeHook(h, `${where}.hooks[${j}]`, event));
    return m.matcher === undefined ? { hooks } : { matcher: m.matcher, hooks };
}
function normalizeHook(h, where, event) {
    if (!isObject(h))
        throw new Error(`${where} must be an object`);
    if (h.timeout !== undefined && (typeof h.timeout !== 'number' || !(h.timeout > 0) || !Number.isFinite(h.timeout))) {
        throw new Error(`${where}.timeout must be a positive number of seconds`);
    }
    if (h.type === 'command') {
        if (typeof h.command !== 'string' || h.command.trim() === '')
            throw new Error(`${where}.command must be a non-empty string`);
        const def = { type: 'command', command: h.command };
        if (h.timeout !== undefined)
            def.timeout = h.timeout;
        if (h.args !== undefined) {
            if (!Array.isArray(h.args) || h.args.some((a) => typeof a !== 'string'))
                throw new Error(`${where}.args must be an array of strings`);
            def.args = h.args;
        }
        if (h.if !== undefined) {
            if (typeof h.if !== 'string' || h.if.trim() === '')
                throw new Error(`${where}.if must be a permission rule such as "Bash(git *)"`);
            if (!TOOL_EVENTS.has(event))
                throw new Error(`${where}.if applies to tool events only (PreToolUse, PostToolUse, PostToolUseFailure), not ${event}`);
            // The rule's form only (this module is in the workflow bundle, the rule parser is not): `Tool` or `Tool(spec)`.
            if (!RULE_FORM.test(h.if))
                throw new Error(`${where}.if ${JSON.stringify(h.if)} is not a permission rule (Tool or Tool(spec), e.g. "Bash(git *)")`);
            def.if = h.if;
        }
        if (h.shell !== undefined && h.shell !== 'bash') {
            throw new Error(`${where}.shell ${JSON.stringify(h.shell)} is not supported by durable-agent (only "bash"; without it the command runs with sh)`);
        }
        if (h.shell === 'bash')
            def.shell = 'bash';
        if (h.async !== undefined && typeof h.async !== 'boolean')
            throw new Error(`${where}.async must be true or false`);
        if (h.async === true)
            def.async = true;
        if (h.asyncRewake !== undefined && h.asyncRewake !== false) {
            throw new Error(`${where}.asyncRewake is not supported by durable-agent (a background hook cannot wake the session); use "async": true, or a blocking hook`);
        }
        return def;
    }
    if (h.type === 'function') {
        if (typeof h.fn !== 'function')
            throw new Error(`${where}.fn must be a function`);
        return h;
    }
    if (h.type === 'prompt' || h.type === 'agent')
        throw new Error(`${where}.type "${h.type}" (a model-evaluated hook) is not supported by durable-agent; use "command"`);
    throw new Error(`${where}.type must be "command" (or "function" from the library API), got ${JSON.stringify(h.type)}`);
}
const NO_MATCHER = new Set(['UserPromptSubmit', 'Stop']);
const NAME_LIST = /^[A-Za-z0-9_\-\s|]+$/;
/**
 * Does a matcher select this tool? Absent, empty and `*` select every tool; a plain list of names
 * (`Edit|Write`, spaces around `|` ignored) is compared exactly (aliases count); anything else is a
 * regular expression searched in the tool name, unanchored as the reference does (`B.s` and `Ba*`
 * select Bash; write `^…$` to match the whole name). An invalid regular expression selects nothing.
 */
function matcherMatches(matcher, toolName, aliases = []) {
    const m = (matcher ?? '').trim();
    if (m === '' || m === '*')
        return true;
    const names = [toolName, ...aliases];
    if (NAME_LIST.test(m)) {
        const list = m
            .split('|')
            .map((s) => s.trim())
            .filter(Boolean);
        return names.some((n) => list.includes(n));
    }
    let re;
    try {
        re = new RegExp(m);
    }
    catch {
        return false;
    }
    return names.some((n) => re.test(n));
}
function isValidMatcher(matcher) {
    const m = (matcher ?? '').trim();
    if (m === '' || m === '*' || NAME_LIST.test(m))
        return true;
    try {
        new RegExp(m);
        return true;
    }
    catch {
        return false;
    }
}
/**
 * The hooks of an event that apply to a query (the tool name for tool events, the source for
 * SessionStart, the reason for SessionEnd, the trigger for PreCompact, the notification type for
 * Notification; events without a matcher pass ''), in configuration order, identical commands once.
 */
function hooksFor(config, event, toolName, aliases = [], callMatches) {
    const out = [];
    const seen = new Set();
    for (const m of config?.[event] ?? []) {
        // UserPromptSubmit and Stop take no matcher (the reference ignores one); SubagentStart/Stop match the agent type.
        if (!NO_MATCHER.has(event) && !matcherMatches(m.matcher, toolName, aliases))
            continue;
        for (const def of m.hooks) {
            if (def.type === 'command') {
                // `if`: the hook runs only when the call matches the permission rule (`Bash(git *)`).
                if (def.if !== undefined && !callMatches?.(def.if))
                    continue;
                const key = def.args ? JSON.stringify([def.command, ...def.args]) : def.command;
                if (seen.has(key))
                    continue;
                seen.add(key);
            }
            const timeoutMs = Math.round((def.timeout ?? types_1.DEFAULT_HOOK_TIMEOUT_SECONDS) * 1000);
            const label = def.type === 'command' ? def.command : (def.name ?? (def.fn.name || 'function hook'));
            out.push(m.matcher === undefined ? { def, timeoutMs, label } : { def, matcher: m.matcher, timeoutMs, label });
        }
    }
    return out;
}
/** Every command hook of a config (command and exec-form arguments), for the protected paths (src/permissions/protectedPaths.ts). */
function hookCommandsOf(config) {
    const out = [];
    for (const matchers of Object.values(config ?? {})) {
        for (const m of matchers ?? []) {
            for (const h of m?.hooks ?? []) {
                if (h?.type === 'command' && typeof h.command === 'string')
                    out.push({ command: h.command, ...(Array.isArray(h.args) ? { args: h.args } : {}) });
            }
        }
    }
    return out;
}
//# sourceMappingURL=config.js.map