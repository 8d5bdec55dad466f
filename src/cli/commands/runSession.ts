// `durable-agent run`'s steps 1–7 (src/cli/commands/run.ts lists them): the prompt, the settings, memory,
// MCP servers, agents and skills, checked and built into the session's options, then started and
// followed (./runStart.ts). Loaded when `run` or `schedule add` runs, not for every command (issue 32).
import { terminalSafe } from '../terminalText';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { AgentDefinitionError, loadAgentDefinitions, type AgentDefinition } from '../../agents/definitions';
import { loadSkills, SkillDefinitionError, type SkillDefinition } from '../../agents/skills';
import { maxThinkingTokensFromEnv, toolSearchFromEnv } from '../../sessionInput';
import { resolveThinkingSetting } from '../../core/thinking';
import { MEMORY_INLINE_MAX_CHARS, type SessionMemory } from '../../core/memoryReminder';
import { claudeJsonPath } from '../../mcp/claudeJson';
import { readMcpConfigArgs } from '../../mcp/cliConfig';
import { McpConfigError, resolveMcpServers } from '../../mcp/config';
import { sessionMemory } from '../../claudeMd/blobs';
import { loadMemory, memoryReminder } from '../../claudeMd/claudeMd';
import { hiddenPathPredicate } from '../../permissions/resultFilter';
import type { PermissionMode } from '../../toolProtocol/permissionTypes';
import { sessionModel } from '../model';
import { UsageError } from '../options';
import { loadSettings, type EffectiveSettings } from '../settings';
import {
  checkNoLiveWriter,
  checkSettledControlFiles,
  projectControlFiles,
  waitForSettledControlFiles,
} from '../settledControl';
import { prepareRunWorktree, worktreeNotice, worktreeSandbox } from '../worktree';
import { warn, type Loaded, type McpServers, type Memory, type RunOpts, type RunSessionOptions } from './runOpts';
import { startAndFollow } from './runStart';
import type { Worktree } from '../../worktree/worktrees';

/** `run` once its flags are checked (./run.ts runCommand): credentials, the prompt, steps 1–9. */
export async function runSession(promptWords: string[], o: RunOpts): Promise<void> {
  await checkCredentials();
  if (o.print && promptWords.length === 0) promptWords = [await readStdinPrompt()];
  const { opts, loaded } = await buildRunSession(promptWords, o);
  await startAndFollow(o, opts, loaded);
}

/**
 * No credentials, no session (issue 31 item 7): one line, before anything starts. The workers make
 * the calls, with their own environment; this checks the one `dev`/`up` hand theirs. Where the
 * workers run elsewhere with their own key, DURABLE_AGENT_WORKER_HAS_CREDENTIALS=1 says so.
 */
async function checkCredentials(): Promise<void> {
  if (process.env.DURABLE_AGENT_WORKER_HAS_CREDENTIALS === '1') return;
  const { modelCredentials, NO_CREDENTIALS_MESSAGE } = await import('../../runtime/credentials');
  const found = await modelCredentials().catch((err: unknown) => {
    throw new UsageError(
      `the Anthropic API credentials cannot be read: ${err instanceof Error ? err.message : String(err)}`,
    );
  });
  if (found === undefined)
    throw new UsageError(
      `${NO_CREDENTIALS_MESSAGE} (Workers on other hosts that hold their own: DURABLE_AGENT_WORKER_HAS_CREDENTIALS=1.)`,
    );
}

/** `-p` without a prompt argument: the prompt is stdin (as the reference); a terminal or nothing is refused. */
async function readStdinPrompt(): Promise<string> {
  const none = 'Input must be provided either through stdin or as a prompt argument when using --print';
  if (process.stdin.isTTY) throw new UsageError(none);
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (!text) throw new UsageError(none);
  return text;
}

/**
 * Steps 1–7: the session's options from the flags, the settings, memory, MCP servers and agents,
 * with every one-line UsageError before anything starts (`run`, and `schedule add` for each firing).
 */
export async function buildRunSession(
  promptWords: string[],
  o: RunOpts,
): Promise<{ opts: RunSessionOptions; loaded: Loaded }> {
  const prompt = promptWords.join(' ').trim();
  if (!prompt) throw new UsageError('the prompt is empty: durable-agent run "what to do"');
  let cwd = resolve(o.cwd);
  if (!existsSync(cwd)) throw new UsageError(`--cwd ${cwd} does not exist`);
  let worktree: Worktree | undefined;
  if (o.worktree !== undefined) {
    worktree = await prepareRunWorktree(cwd, o.worktree);
    process.stderr.write(terminalSafe(worktreeNotice(worktree)));
    cwd = worktree.path;
  }
  for (const d of o.addDir) if (!existsSync(resolve(d))) throw new UsageError(`--add-dir ${resolve(d)} does not exist`);
  // The project's settings and .mcp.json are read once they have settled (red team, issue 30, L2:
  // settledControl.ts). The wait (under a second, right after an edit) is silent: a person who just
  // saved their settings needs no note, and an error stays the one line it was.
  const controlFiles = projectControlFiles(cwd);
  await waitForSettledControlFiles(controlFiles, () => undefined);
  checkNoLiveWriter(controlFiles);
  const settings = loadSettings(cwd);
  if (worktree) settings.sandbox = worktreeSandbox(settings.sandbox, worktree);
  for (const w of settings.warnings) warn(w);
  for (const n of settings.notes) process.stderr.write(`durable-agent: note: ${terminalSafe(n)}\n`);
  applyManagedSettings(o, settings);
  const memory = loadRunMemory(cwd, settings, o);
  checkBypassAllowed(o, settings);
  const mcp = runMcpServers(cwd, settings, o);
  checkSettledControlFiles(
    [...settings.sources, ...Object.values(mcp.origins)].filter(
      (f, i, all) => controlFiles.includes(f) && all.indexOf(f) === i,
    ),
  );
  const agents = await runAgents(cwd);
  const skills = runSkills(cwd);
  const opts = { ...(await runSessionOptions(prompt, cwd, o, settings, memory, mcp, agents)), skills };
  return { opts, loaded: { cwd, settings, memory, mcp, agents, skills } };
}

/** Managed settings beat the command line (as the reference); a flag they override is reported. Changes `o`. */
function applyManagedSettings(o: RunOpts, settings: EffectiveSettings): void {
  const managed = settings.managed;
  for (const [flag, key, value] of [
    ['--model', 'model', managed.model],
    ['--max-tokens', 'maxTokens', managed.maxTokens],
    ['--permission-mode', 'permissions.defaultMode', managed.mode],
  ] as const) {
    const given = flag === '--model' ? o.model : flag === '--max-tokens' ? o.maxTokens : o.permissionMode;
    if (value !== undefined && given !== undefined && given !== value)
      warn(`${flag} ${String(given)} is overridden by ${key} in the managed settings ${managed.path}`);
  }
  if (managed.model) o.model = managed.model;
  if (managed.maxTokens) o.maxTokens = managed.maxTokens;
  if (managed.mode) o.permissionMode = managed.mode;
  if (settings.managedRulesOnly) {
    const dropped = [...o.allow, ...o.ask, ...o.deny];
    if (dropped.length > 0)
      warn(`--allow/--ask/--deny rules are ignored: allowManagedPermissionRulesOnly in ${managed.path}`);
    o.allow = [];
    o.ask = [];
    o.deny = [];
  }
}

/**
 * Memory files are read by the worker outside the sandbox: never a credential file, nothing a
 * Read deny rule covers, no project import or rule that really lies outside (claudeMd.ts).
 */
function loadRunMemory(cwd: string, settings: EffectiveSettings, o: RunOpts): Memory {
  const memoryDirs = [cwd, ...settings.additionalDirectories, ...o.addDir.map((d) => resolve(d))];
  const memoryDeny = hiddenPathPredicate(
    'Read',
    { allow: [], ask: [], deny: [...settings.deny, ...o.deny] },
    { cwd, workingDirectories: memoryDirs },
  );
  const memory = loadMemory(cwd, {
    excludes: settings.claudeMdExcludes,
    workingDirectories: memoryDirs,
    ...(memoryDeny ? { readDenied: memoryDeny } : {}),
  });
  for (const w of memory.warnings) warn(w);
  return memory;
}

function checkBypassAllowed(o: RunOpts, settings: EffectiveSettings): void {
  const permissionMode = o.permissionMode ?? settings.mode ?? process.env.DURABLE_AGENT_PERMISSION_MODE;
  if (permissionMode === 'bypassPermissions' && settings.disableBypassPermissionsMode) {
    throw new UsageError(
      `bypassPermissions mode is disabled by permissions.disableBypassPermissionsMode ("disable") in ${settings.bypassDisabledBy ?? settings.sources.join(', ')}: choose another --permission-mode`,
    );
  }
}

/**
 * MCP servers: ~/.claude.json (user and local scope), the approved servers of `.mcp.json`,
 * settings `mcpServers`, then --mcp-config (src/mcp/config.ts).
 */
function runMcpServers(cwd: string, settings: EffectiveSettings, o: RunOpts): McpServers {
  let mcp: McpServers;
  try {
    const cliServers = { ...readMcpConfigArgs(o.mcpConfig, cwd), strict: o.strictMcpConfig === true };
    const fromSettings = settings.mcp
      ? {
          settingsServers: settings.mcp.servers,
          settingsOrigin: settings.mcp.origins,
          approval: settings.mcp.approval,
        }
      : {};
    mcp = resolveMcpServers({
      cwd,
      ...fromSettings,
      env: process.env,
      ...(settings.personPassEnv ? { personPassEnv: settings.personPassEnv } : {}),
      claudeJson: claudeJsonPath(),
      cli: cliServers,
    });
  } catch (err) {
    if (err instanceof McpConfigError) throw new UsageError(err.message);
    throw err;
  }
  for (const w of mcp.warnings) warn(w);
  return mcp;
}

/** Subagents: general-purpose plus ~/.claude/agents and .claude/agents, checked before anything starts. */
async function runAgents(cwd: string): Promise<AgentDefinition[]> {
  try {
    return await loadAgentDefinitions(cwd);
  } catch (err) {
    if (err instanceof AgentDefinitionError) throw new UsageError(err.message);
    throw err;
  }
}

/** Skills: ~/.claude/skills and .claude/skills, checked before anything starts (a bad SKILL.md names the file and key). */
function runSkills(cwd: string): SkillDefinition[] {
  try {
    return loadSkills(cwd);
  } catch (err) {
    if (err instanceof SkillDefinitionError) throw new UsageError(err.message);
    throw err;
  }
}

/** The session's memory: inline when small; else stored in the worker's store (same env as the worker) and sent by reference. */
async function memoryForRun(files: string[], text: string): Promise<SessionMemory> {
  if (text.length <= MEMORY_INLINE_MAX_CHARS) return sessionMemory(files, text);
  const { configuredBlobStore } = await import('../../stores/configured');
  const { defaultStoreDir } = await import('../../stores/dataHome');
  return sessionMemory(files, text, configuredBlobStore({ storeDir: defaultStoreDir() }));
}

async function runSessionOptions(
  prompt: string,
  cwd: string,
  o: RunOpts,
  settings: EffectiveSettings,
  memory: Memory,
  mcp: McpServers,
  agents: AgentDefinition[],
): Promise<RunSessionOptions> {
  const memoryText = memoryReminder(memory.files);
  const sandbox = o.sandbox === false ? { ...(settings.sandbox ?? {}), enabled: false } : settings.sandbox;
  const model = sessionModel(o.model, process.env, settings.model, warn);
  const maxTokens = o.maxTokens ?? settings.maxTokens;
  // Extended thinking as the reference decides it at start (src/core/thinking.ts resolveThinkingSetting).
  const envMaxThinkingTokens = maxThinkingTokensFromEnv(process.env.MAX_THINKING_TOKENS);
  const thinking = resolveThinkingSetting({
    ...(o.thinking ? { flag: o.thinking } : {}),
    ...(envMaxThinkingTokens !== undefined ? { envMaxThinkingTokens } : {}),
    ...(o.maxThinkingTokens !== undefined ? { flagMaxThinkingTokens: o.maxThinkingTokens } : {}),
    ...(settings.alwaysThinkingEnabled !== undefined ? { alwaysThinkingEnabled: settings.alwaysThinkingEnabled } : {}),
    disableThinking: /^(1|true|yes|on)$/i.test((process.env.CLAUDE_CODE_DISABLE_THINKING ?? '').trim()),
  });
  return {
    prompt,
    cwd,
    model: {
      ...(model ? { model } : {}),
      ...(maxTokens ? { maxTokens } : {}),
      thinking,
      ...(o.systemPrompt ? { system: o.systemPrompt } : {}),
    },
    ...(o.appendSystemPrompt ? { appendSystemPrompt: o.appendSystemPrompt } : {}),
    // Unset here, the session's input takes DURABLE_AGENT_PERMISSION_MODE (else 'default').
    ...((o.permissionMode ?? settings.mode)
      ? { permissionMode: (o.permissionMode ?? settings.mode) as PermissionMode }
      : {}),
    ...(sandbox ? { sandbox } : {}),
    ...(settings.disableBypassPermissionsMode ? { disableBypassPermissionsMode: true } : {}),
    rules: {
      allow: [...settings.allow, ...o.allow],
      ask: [...settings.ask, ...o.ask],
      deny: [...settings.deny, ...o.deny],
    },
    additionalDirectories: [...settings.additionalDirectories, ...o.addDir.map((d) => resolve(d))],
    ...(settings.hooks ? { hooks: settings.hooks } : {}),
    ...(Object.keys(mcp.servers).length > 0 ? { mcpServers: mcp.servers } : {}),
    ...(settings.autoCompactEnabled !== undefined || o.toolSearch !== undefined
      ? {
          contextManagement: {
            ...(settings.autoCompactEnabled !== undefined ? { autoCompact: settings.autoCompactEnabled } : {}),
            // The flag beats ENABLE_TOOL_SEARCH (read by the session input's defaults).
            ...(o.toolSearch !== undefined ? toolSearchFromEnv(o.toolSearch) : {}),
          },
        }
      : {}),
    settingsSources: settings.sources,
    // A large memory is stored in the worker's store and travels by reference (src/claudeMd/blobs.ts).
    ...(memory.files.length > 0
      ? {
          memory: await memoryForRun(
            memory.files.map((f) => f.path),
            memoryText,
          ),
        }
      : {}),
    agents,
    ...(o.maxTurns ? { maxTurns: o.maxTurns } : {}),
    // Notifications: the flag's webhook over the settings' `notify` (over DURABLE_AGENT_NOTIFY_WEBHOOK: sessionInput).
    ...(o.notifyWebhook || settings.notify
      ? { notify: { ...settings.notify, ...(o.notifyWebhook ? { webhook: o.notifyWebhook } : {}) } }
      : {}),
    ...(o.maxTotalTokens ? { maxTotalTokens: o.maxTotalTokens } : {}),
    ...budgetOptions(o),
    ...(o.approvalTimeout ? { approvalTimeoutMs: o.approvalTimeout * 1000 } : {}),
    ...(o.onInterrupt ? { onInterrupt: o.onInterrupt } : {}),
    ...(o.id ? { id: o.id } : {}),
    ...(o.taskQueue ? { taskQueue: o.taskQueue } : {}),
    ...(o.toolTaskQueue ? { toolTaskQueue: o.toolTaskQueue } : {}),
    ...(o.streamingTools === false ? { streamingToolExecution: false } : {}),
  };
}

/**
 * The tree's budget (issue 34): `--max-budget-usd` and/or `--max-total-tokens` hold the session and
 * everything it starts. Over it the session waits in `budget_exceeded` for `budget ID --add`; with -p
 * (or `--on-budget end`) it ends, as the reference's `error_max_budget_usd`.
 */
export function budgetOptions(o: RunOpts): {
  maxBudgetUsd?: number;
  onBudget?: 'wait' | 'end';
  budgetThreshold?: number;
} {
  const any = o.maxBudgetUsd !== undefined || o.maxTotalTokens !== undefined;
  if (!any) {
    if (o.onBudget || o.budgetThreshold !== undefined)
      throw new UsageError('--on-budget and --budget-threshold need a budget: --max-budget-usd or --max-total-tokens');
    return {};
  }
  return {
    ...(o.maxBudgetUsd !== undefined ? { maxBudgetUsd: o.maxBudgetUsd } : {}),
    onBudget: o.onBudget ?? (o.print ? 'end' : 'wait'),
    ...(o.budgetThreshold !== undefined ? { budgetThreshold: o.budgetThreshold } : {}),
  };
}
