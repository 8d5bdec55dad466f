// The edge's check of a session input, before any session starts (startSession, the CLI through
// it, startLocalSession): the workflow's fixed shape check plus every rule that may change between
// releases (what a hook may say: hooks/config.ts). Rules that change live here, never in workflow
// code, so that a session started before a change keeps replaying and continuing-as-new on the new
// worker (DESIGN invariant 14; the workflow keeps only src/temporal/workflows/inputShape.ts, frozen).
// Also the defaults a session input gets from options and env vars (sessionInput, withAgents):
// Temporal-free, so that the in-process runner builds its input the same way as startSession.
import { scratchHolding } from './sandbox/sessionTemp';
import { DurableAgentError } from './core/errors';
import { hookCommandsOf, normalizeHooksConfig } from './hooks/config';
import { sessionInputShapeProblems } from './temporal/workflows/inputShape';
import { isTimeZone } from './core/cronText';
import type { HooksJson, SessionInput } from './temporal/workflows/definitions';
import { resolve } from 'node:path';
import { loadAgentDefinitions } from './agents/definitions';
import { loadSkills, skillListing } from './agents/skills';
import { pinMcpServers, stdioCommands } from './mcp/pins';
import type { McpServers } from './mcp/config';
import { hookControlFiles, mcpServerControlFiles } from './permissions/protectedPaths';
import {
  checkoutLines,
  checkoutRefusal,
  controlFilesFromCheckout,
  type CheckoutControl,
} from './worktree/git/checkoutControl';
import { pinHooks } from './hooks/pins';
import type { HooksConfig } from './hooks/types';
import { PERMISSION_MODES, type PermissionMode } from './toolProtocol/permissionTypes';
import { sandboxPathsFromRules } from './sandbox/policy';
import type { SandboxSettings } from './sandbox/settings';
import { projectRepositoryOf } from './worktree/repository';
import type { ContextSettings } from './core/contextWindow';
import { MIN_THINKING_BUDGET, resolveThinkingSetting, type ThinkingSetting } from './core/thinking';
import { notifySettingsProblems, type NotifySettings } from './core/notifications';

/** A session input refused before the session started: nothing was started. */
export class InvalidSessionInputError extends DurableAgentError {
  constructor(readonly problems: string[]) {
    super('INVALID_SESSION_INPUT', `invalid session input: ${problems.join('; ')}`);
  }
}

/** Every problem of a session input as readable strings (empty when it may start). */
export function sessionInputProblems(input: unknown): string[] {
  const problems = sessionInputShapeProblems(input);
  const hooks = input && typeof input === 'object' ? (input as Partial<SessionInput>).hooks : undefined;
  if (hooks !== undefined && !problems.some((p) => p.startsWith('hooks '))) {
    try {
      normalizeHooksConfig({ hooks });
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  const cm = input && typeof input === 'object' ? (input as Partial<SessionInput>).contextManagement : undefined;
  if (cm && typeof cm === 'object') {
    if (cm.toolSearch !== undefined && !['on', 'off', 'auto'].includes(cm.toolSearch as string))
      problems.push(`contextManagement.toolSearch must be "on", "off" or "auto", not ${JSON.stringify(cm.toolSearch)}`);
    if (
      cm.toolSearchPct !== undefined &&
      (typeof cm.toolSearchPct !== 'number' || !(cm.toolSearchPct > 0 && cm.toolSearchPct < 100))
    )
      problems.push(`contextManagement.toolSearchPct must be a number between 0 and 100 (exclusive)`);
  }
  const model = input && typeof input === 'object' ? (input as Partial<SessionInput>).model : undefined;
  if (model && typeof model === 'object') problems.push(...thinkingProblems(model));
  const timeZone = input && typeof input === 'object' ? (input as Partial<SessionInput>).timeZone : undefined;
  if (timeZone !== undefined && (typeof timeZone !== 'string' || !isTimeZone(timeZone)))
    problems.push(`timeZone ${JSON.stringify(timeZone)} is not an IANA time zone (e.g. Europe/Berlin, UTC)`);
  if (input && typeof input === 'object') problems.push(...notifySettingsProblems((input as SessionInput).notify));
  return problems;
}

/** Throws InvalidSessionInputError naming every problem; returns the input when it may start. */
export function checkSessionInput<T extends SessionInput>(input: T): T {
  const problems = sessionInputProblems(input);
  if (problems.length > 0) throw new InvalidSessionInputError(problems);
  return input;
}

/** The tools a session gets by default: the file and shell tools, NotebookEdit, the web tools, Agent (subagents as child sessions), the worktree and schedule tools, Monitor and TaskStop. */
export const BUILTIN_TOOL_NAMES = [
  'Read',
  'Write',
  'Edit',
  'Glob',
  'Grep',
  'Bash',
  'NotebookEdit',
  'WebFetch',
  'WebSearch',
  'Agent',
  'Skill',
  'EnterWorktree',
  'ExitWorktree',
  'ScheduleWakeup',
  'CronCreate',
  'CronList',
  'CronDelete',
  'Monitor',
  'TaskStop',
];
export const DEFAULT_MODEL = 'claude-sonnet-5-5';

export interface SessionOptions extends Partial<Omit<SessionInput, 'prompt' | 'model'>> {
  prompt: string;
  model?: Partial<SessionInput['model']>;
  /** Text added after the system prompt (the default one, or model.system). */
  appendSystemPrompt?: string;
}

/**
 * The default system prompt: what the model needs to know to work as a coding agent here.
 * `model.system` replaces it; `appendSystemPrompt` adds to it.
 */
export function defaultSystemPrompt(cwd: string, additionalDirectories: readonly string[] = []): string {
  return [
    'You are a coding agent run by durable-agent. You work unattended: use the tools to inspect and change files and to run commands, then report what you did.',
    `The working directory is ${cwd}${additionalDirectories.length ? `; you may also work in ${additionalDirectories.join(', ')}` : ''}. Relative paths are resolved against it.`,
    'Read a file before editing it. Prefer Grep and Glob over Bash for searching; independent read-only calls in one message run in parallel.',
    'Some calls need approval: if a call is denied or rejected, do not retry it unchanged — adjust or explain. If a result says its outcome is unknown (a worker was lost), check the state before acting again.',
    'Finish with a short summary of what you changed and how you verified it.',
  ].join('\n');
}

/**
 * The longest prompt or follow-up message, in characters. A user message travels inline through
 * the session's start (or signal) event and the turn that sends it (tool inputs and results travel
 * by reference): this keeps every such event well below Temporal's payload limits.
 */
export const MAX_MESSAGE_CHARS = 256 * 1024;

export function checkMessageSize(what: string, text: string): void {
  if (text.length > MAX_MESSAGE_CHARS) {
    throw new Error(
      `the ${what} is ${text.length} characters; the limit is ${MAX_MESSAGE_CHARS}: put the material in a file in the working directory and tell the agent to read it`,
    );
  }
}

/** `permissions.disableBypassPermissionsMode: "disable"` and a bypassPermissions session. */
export class BypassDisabledError extends DurableAgentError {
  constructor() {
    super(
      'BYPASS_DISABLED',
      'bypassPermissions mode is disabled by permissions.disableBypassPermissionsMode ("disable") in the settings: choose another --permission-mode.',
    );
  }
}

/**
 * The session's sandbox settings with the paths of its Read/Edit rules merged in, as the reference
 * does (Read deny → denyRead, Edit deny → denyWrite, Edit allow → allowWrite), and its project
 * repository as it is now (`repository`: src/worktree/worktrees.ts projectRepositoryOf).
 */
export function sessionSandbox(
  sandbox: SandboxSettings | undefined,
  rules: SessionInput['rules'],
  cwd: string,
): SandboxSettings {
  const s: SandboxSettings = { ...(sandbox ?? {}) };
  // The session's project repository, fixed now (issue 30): the only one worker-side git runs in.
  // A child session keeps its parent's; `false` records that the session started outside one.
  if (s.repository === undefined) s.repository = projectRepositoryOf(cwd) ?? false;
  const fromRules = sandboxPathsFromRules(rules, cwd);
  if (fromRules.denyRead.length + fromRules.denyWrite.length + fromRules.allowWrite.length === 0) return s;
  const fs = { ...(s.filesystem ?? {}) };
  if (fromRules.denyRead.length) fs.denyRead = [...(fs.denyRead ?? []), ...fromRules.denyRead];
  if (fromRules.denyWrite.length) fs.denyWrite = [...(fs.denyWrite ?? []), ...fromRules.denyWrite];
  if (fromRules.allowWrite.length) fs.allowWrite = [...(fs.allowWrite ?? []), ...fromRules.allowWrite];
  return { ...s, filesystem: fs };
}

/** What the API would refuse of a session's thinking setting (issue 31 item 8; core/thinking.ts). */
function thinkingProblems(model: Partial<SessionInput['model']>): string[] {
  const t = model.thinking as Partial<ThinkingSetting> & { budgetTokens?: unknown };
  if (t === undefined) return [];
  if (!t || typeof t !== 'object' || !['adaptive', 'enabled', 'disabled'].includes(t.type as string))
    return ['model.thinking must be {type: "adaptive"}, {type: "enabled", budgetTokens} or {type: "disabled"}'];
  const problems: string[] = [];
  if (
    t.type === 'enabled' &&
    (typeof t.budgetTokens !== 'number' || !Number.isInteger(t.budgetTokens) || t.budgetTokens < MIN_THINKING_BUDGET)
  )
    problems.push(
      `the thinking budget (MAX_THINKING_TOKENS or --max-thinking-tokens) must be an integer of at least ${MIN_THINKING_BUDGET} (the API's minimum), or 0 to turn thinking off`,
    );
  if (t.type !== 'disabled' && model.temperature !== undefined)
    problems.push(
      'model.temperature cannot be set while thinking is on (the API accepts only its default then): turn thinking off (settings alwaysThinkingEnabled: false, MAX_THINKING_TOKENS=0, --thinking disabled, or model.thinking {type: "disabled"})',
    );
  return problems;
}

/** MAX_THINKING_TOKENS as the reference reads it (parseInt); anything but a whole number is an error naming it. */
export function maxThinkingTokensFromEnv(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (!/^\d+$/.test(value.trim()))
    throw new InvalidSessionInputError([
      `MAX_THINKING_TOKENS ${JSON.stringify(value)}: use a whole number of tokens (at least ${MIN_THINKING_BUDGET}), or 0 to turn thinking off`,
    ]);
  return Number(value.trim());
}

/**
 * A session's thinking when its options name none: the reference's default from the environment
 * (MAX_THINKING_TOKENS, CLAUDE_CODE_DISABLE_THINKING), else on. The CLI passes its own, with the
 * flags and settings (src/cli/commands/run.ts).
 */
export function thinkingFromEnv(env: NodeJS.ProcessEnv = process.env): ThinkingSetting {
  const envMaxThinkingTokens = maxThinkingTokensFromEnv(env.MAX_THINKING_TOKENS);
  return resolveThinkingSetting({
    ...(envMaxThinkingTokens !== undefined ? { envMaxThinkingTokens } : {}),
    disableThinking: truthy(env.CLAUDE_CODE_DISABLE_THINKING),
  });
}

const truthy = (v: string | undefined): boolean => v !== undefined && /^(1|true|yes|on)$/i.test(v.trim());
const falsy = (v: string | undefined): boolean => v !== undefined && /^(0|false|no|off)$/i.test(v.trim());

/**
 * ENABLE_TOOL_SEARCH as the reference reads it: `true` (always defer), `false` (never), `auto`
 * (defer when the deferrable tools' schemas reach 10% of the window), `auto:N` (N%; 0 is `true`, 100
 * is `false`). Unset: `auto` — the reference's default is `true`; ours defers only when it pays
 * (docs/tools.md "Deferred tools and ToolSearch"). Anything else is an error naming the variable.
 */
export function toolSearchFromEnv(value: string | undefined): Pick<ContextSettings, 'toolSearch' | 'toolSearchPct'> {
  if (value === undefined || value.trim() === '') return { toolSearch: 'auto' };
  const v = value.trim();
  if (truthy(v)) return { toolSearch: 'on' };
  if (falsy(v)) return { toolSearch: 'off' };
  if (v.toLowerCase() === 'auto') return { toolSearch: 'auto' };
  const pct = /^auto:(\d+(?:\.\d+)?)$/i.exec(v);
  if (pct) {
    const n = Math.min(100, Number(pct[1]));
    return n === 0
      ? { toolSearch: 'on' }
      : n === 100
        ? { toolSearch: 'off' }
        : { toolSearch: 'auto', toolSearchPct: n };
  }
  throw new InvalidSessionInputError([
    `tool search mode ${JSON.stringify(value)} (ENABLE_TOOL_SEARCH or --tool-search): use true, false, auto or auto:N (N a percentage of the context window)`,
  ]);
}

/**
 * Context management from the reference's env vars (DISABLE_AUTO_COMPACT, DISABLE_COMPACT,
 * CLAUDE_AUTOCOMPACT_PCT_OVERRIDE, CLAUDE_CODE_AUTO_COMPACT_WINDOW, CLAUDE_CODE_DISABLE_1M_CONTEXT,
 * DISABLE_PROMPT_CACHING); an explicit setting beats the env var, key by key.
 */
export function contextSettings(explicit: ContextSettings = {}, env: NodeJS.ProcessEnv = process.env): ContextSettings {
  const positive = (name: string): number | undefined => {
    const v = Number(env[name]);
    return env[name] && Number.isFinite(v) && v > 0 ? v : undefined;
  };
  const fromEnv: ContextSettings = {
    ...(truthy(env.DISABLE_AUTO_COMPACT) || truthy(env.DISABLE_COMPACT) ? { autoCompact: false } : {}),
    ...(positive('CLAUDE_AUTOCOMPACT_PCT_OVERRIDE') !== undefined
      ? { autoCompactPct: Math.min(100, positive('CLAUDE_AUTOCOMPACT_PCT_OVERRIDE') as number) }
      : {}),
    ...(positive('CLAUDE_CODE_AUTO_COMPACT_WINDOW') !== undefined
      ? { autoCompactWindow: Math.floor(positive('CLAUDE_CODE_AUTO_COMPACT_WINDOW') as number) }
      : {}),
    ...(truthy(env.CLAUDE_CODE_DISABLE_1M_CONTEXT) ? { disable1mContext: true } : {}),
    ...(truthy(env.DISABLE_PROMPT_CACHING) ? { promptCaching: false } : {}),
    ...toolSearchFromEnv(env.ENABLE_TOOL_SEARCH),
  };
  const merged = { ...fromEnv, ...explicit };
  // As in the reference, either switch turns auto-compaction off.
  if (fromEnv.autoCompact === false) merged.autoCompact = false;
  return merged;
}

/** Fills defaults: every option documents its env var; an explicit option beats it. */
export function sessionInput(opts: SessionOptions): SessionInput {
  checkMessageSize('prompt', opts.prompt);
  if (opts.memory?.text) checkMessageSize(`memory (CLAUDE.md files ${opts.memory.files.join(', ')})`, opts.memory.text);
  const mode = (opts.permissionMode ?? process.env.DURABLE_AGENT_PERMISSION_MODE ?? 'default') as PermissionMode;
  if (!PERMISSION_MODES.includes(mode))
    throw new Error(`unknown permission mode "${mode}"; use one of ${PERMISSION_MODES.join(', ')}`);
  if (mode === 'bypassPermissions' && opts.disableBypassPermissionsMode) throw new BypassDisabledError();
  const maxConcurrencyEnv = Number(process.env.DURABLE_AGENT_MAX_TOOL_USE_CONCURRENCY);
  const envMs = (name: string): number | undefined => {
    const v = Number(process.env[name]);
    return process.env[name] && Number.isFinite(v) && v > 0 ? v : undefined;
  };
  const retryCapMs = opts.retryCapMs ?? envMs('DURABLE_AGENT_RETRY_CAP_MS');
  const maxOutageMs = opts.maxOutageMs ?? envMs('DURABLE_AGENT_MAX_OUTAGE_MS');
  // Model steps per turn child (issue 33): the workflow's default (50) unless set; 1, a child per step.
  const maxStepsPerTurn = opts.maxStepsPerTurn ?? envMs('DURABLE_AGENT_MAX_STEPS_PER_TURN');
  const cwd = resolve(opts.cwd ?? process.cwd());
  const modelTaskQueue = opts.modelTaskQueue ?? (process.env.DURABLE_AGENT_MODEL_TASK_QUEUE || undefined);
  const { appendSystemPrompt, skills: given, ...rest } = opts;
  // ToolSearch joins the default tool set unless tool search is off (an explicit list names it itself).
  const tools =
    opts.tools ??
    (contextSettings(opts.contextManagement).toolSearch === 'off'
      ? BUILTIN_TOOL_NAMES
      : [...BUILTIN_TOOL_NAMES, 'ToolSearch']);
  // Skills: read once, here at the edge (a malformed SKILL.md throws SkillDefinitionError naming the file and key).
  const skills = tools.includes('Skill') && !opts.parent ? (given ?? loadSkills(cwd)) : undefined;
  const listing = skillListing(skills);
  const baseSystem = opts.model?.system ?? defaultSystemPrompt(cwd, opts.additionalDirectories ?? []);
  const system = [baseSystem, appendSystemPrompt, listing].filter(Boolean).join('\n\n');
  return {
    ...rest,
    ...(skills && skills.length > 0 ? { skills } : {}),
    prompt: opts.prompt,
    model: {
      model: opts.model?.model ?? process.env.ANTHROPIC_MODEL ?? DEFAULT_MODEL,
      maxTokens:
        opts.model?.maxTokens ??
        Number(process.env.DURABLE_AGENT_MAX_TOKENS ?? process.env.CLAUDE_CODE_MAX_OUTPUT_TOKENS ?? 8192),
      ...(system ? { system } : {}),
      ...(opts.model?.temperature !== undefined ? { temperature: opts.model.temperature } : {}),
      // Extended thinking, on by default as in the reference (core/thinking.ts); checked by sessionInputProblems.
      thinking: opts.model?.thinking ?? thinkingFromEnv(),
    },
    tools,
    // The files each stdio server runs from the working directories, pinned now (src/mcp/pins.ts).
    ...(opts.mcpServers
      ? { mcpServers: pinMcpServers(opts.mcpServers, cwd, [cwd, ...(opts.additionalDirectories ?? [])]) }
      : {}),
    // The files each command hook runs from the working directories, pinned now against the
    // project root the hooks run from (src/hooks/pins.ts); a subagent's input brings its parent's.
    ...(opts.hookPins
      ? { hookPins: opts.hookPins }
      : opts.hooks
        ? { hookPins: pinHooks(opts.hooks as HooksConfig, cwd, [cwd, ...(opts.additionalDirectories ?? [])]) }
        : {}),
    permissionMode: mode,
    rules: opts.rules ?? { allow: [], ask: [], deny: [] },
    sandbox: sessionSandbox(opts.sandbox, opts.rules ?? { allow: [], ask: [], deny: [] }, cwd),
    cwd,
    // Cron jobs and wake-ups read the user's local time: the zone is fixed for the session here.
    timeZone: opts.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC',
    maxConcurrency:
      opts.maxConcurrency ?? (Number.isInteger(maxConcurrencyEnv) && maxConcurrencyEnv > 0 ? maxConcurrencyEnv : 10),
    // Streaming tool execution is on unless the option or DURABLE_AGENT_STREAMING_TOOL_EXECUTION=0 turns it off.
    ...((opts.streamingToolExecution ?? !falsy(process.env.DURABLE_AGENT_STREAMING_TOOL_EXECUTION))
      ? {}
      : { streamingToolExecution: false }),
    ...(retryCapMs !== undefined ? { retryCapMs } : {}),
    ...notifyFromEnv(opts),
    ...(maxOutageMs !== undefined ? { maxOutageMs } : {}),
    ...(maxStepsPerTurn !== undefined ? { maxStepsPerTurn } : {}),
    // The model calls' queue, whose workers share one limit (docs/deployment.md); a subagent's comes from its parent.
    ...(modelTaskQueue ? { modelTaskQueue } : {}),
    ...(Object.keys(contextSettings(opts.contextManagement)).length > 0
      ? { contextManagement: contextSettings(opts.contextManagement) }
      : {}),
  };
}

/**
 * A session that offers the Agent tool carries its agent types: general-purpose plus the agent
 * files (~/.claude/agents, .claude/agents), read once at start. A malformed file throws
 * AgentDefinitionError naming the file and the key: the session is not started.
 */
export async function withAgents(input: SessionInput): Promise<SessionInput> {
  if (input.agents || !input.tools.includes('Agent')) return input;
  return { ...input, agents: await loadAgentDefinitions(input.cwd) };
}

/**
 * The files the session's hooks and stdio MCP servers run (protectedPaths hookControlFiles,
 * mcpServerControlFiles): control files of the manifest too, so that a script rewritten by one
 * session is named before the next one runs it. A package runner's local copy counts even when
 * absent: one planted by a session is named as created.
 */
export function runFilesOf(
  cwd: string,
  dirs: readonly string[],
  hooks: HooksJson | undefined,
  servers: McpServers | undefined,
): string[] {
  const all = [resolve(cwd), ...dirs.map((d) => resolve(d))];
  return [
    ...new Set([
      ...hookControlFiles(hookCommandsOf(hooks as HooksConfig | undefined), cwd, all, undefined, { pins: true }),
      ...mcpServerControlFiles(stdioCommands(servers), cwd, all, undefined, () => true),
    ]),
  ];
}

/**
 * A session that would load control files a checkout brought into its linked worktree, and that the
 * person has not trusted (src/worktree/git/checkoutControl.ts; docs/security.md "Checkouts"): nothing was
 * started. `lines` name each file as `run` prints them; `files` are their paths.
 */
export class CheckoutNotTrustedError extends DurableAgentError {
  readonly files: string[];
  constructor(
    readonly control: CheckoutControl,
    readonly lines: string[],
    how = 'start it again with the option trustCheckout: true',
  ) {
    super('CHECKOUT_NOT_TRUSTED', `${lines.join('\n')}\n${checkoutRefusal(control, how)}`);
    this.files = control.changes.map((c) => c.path);
  }
}

/** How a start treats a checkout's control files. */
export interface CheckoutStartOptions {
  /** Start although the worktree's control files came with a checkout and differ from the main checkout's (`--trust-checkout`). */
  trustCheckout?: boolean;
  /**
   * When a session the person trusted last started in this directory (ISO; `run` keeps it in its
   * manifest): only a checkout recorded after it is compared. Unset: any recorded checkout, or, with
   * none, the worktree itself (a worktree made by hand).
   */
  checkoutSince?: string;
}

/**
 * The one check of a checkout's control files at a session's start, for every start path (`run`,
 * `startSession`, `schedule add`; a schedule's firing runs `controlFilesFromCheckout` with the same
 * files on the worker): the control files of the input's directory that a checkout brought and the
 * main checkout does not have as they are (undefined: not a linked worktree, or nothing to name).
 * Throws CheckoutNotTrustedError, naming them, unless `trustCheckout`.
 */
export async function checkoutAtStart(
  input: Pick<SessionInput, 'cwd' | 'additionalDirectories' | 'hooks' | 'mcpServers'>,
  o: CheckoutStartOptions = {},
): Promise<
  { control: CheckoutControl; lines: string[]; runFiles: string[] } | { control?: undefined; runFiles: string[] }
> {
  // A session never starts in a directory any sandboxed command may write outside its project (a
  // symlink in the project leading there, made by an earlier session's Bash): its settings, hooks
  // and repository would be the agent's (red team, issue 30, round d).
  for (const dir of [input.cwd, ...(input.additionalDirectories ?? [])]) {
    const held = scratchHolding(dir);
    if (held)
      throw new Error(
        `durable-agent: nothing was started: the directory ${dir} lies in ${held}, which every sandboxed command may write (a symlink leads there); start the session in the project itself`,
      );
  }
  const runFiles = runFilesOf(input.cwd, input.additionalDirectories ?? [], input.hooks, input.mcpServers);
  const control = await controlFilesFromCheckout(input.cwd, runFiles, o.checkoutSince);
  if (!control || control.changes.length === 0) return { runFiles };
  const lines = checkoutLines(control, input.cwd);
  if (!o.trustCheckout) throw new CheckoutNotTrustedError(control, lines);
  return { control, lines, runFiles };
}

/**
 * Notifications (issue 35): the option, else DURABLE_AGENT_NOTIFY_WEBHOOK (the URL) and
 * DURABLE_AGENT_NOTIFY_WAITING_FOR_MODEL_MINUTES (the outage threshold). A subagent has none.
 */
function notifyFromEnv(opts: SessionOptions, env: NodeJS.ProcessEnv = process.env): { notify?: NotifySettings } {
  if (opts.parent) return {};
  const webhook = opts.notify?.webhook ?? env.DURABLE_AGENT_NOTIFY_WEBHOOK?.trim();
  const minutes = env.DURABLE_AGENT_NOTIFY_WAITING_FOR_MODEL_MINUTES?.trim();
  if (!opts.notify && !webhook) return {};
  return {
    notify: {
      ...(webhook ? { webhook } : {}),
      ...(minutes ? { waitingForModelAfterMs: Number(minutes) * 60_000 } : {}),
      ...opts.notify,
    },
  };
}
