// `durable-agent run`: start a session and follow it live. The steps, in order (each one may stop
// the run with a one-line UsageError before anything starts):
//   1. check the prompt, --cwd and --add-dir;   2. load settings (managed ones beat the flags);
//   3. load memory (CLAUDE.md);   4. refuse a disabled bypassPermissions mode;
//   5. resolve MCP servers;   6. load subagents;   7. build the session's options;
//   8. compare the control files with the last session here;   9. start, print, follow.
// With -p/--print or --output-format (text|json|stream-json), step 9 prints only what `claude -p`
// prints in that format (src/cli/printFollow.ts, src/cli/printFormat.ts); the prompt may come on stdin.
import { terminalSafe } from '../terminalText';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
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
import { PERMISSION_MODES, type PermissionMode } from '../../toolProtocol/permissionTypes';
import { sessionModel } from '../model';
import { UsageError, addConnectionOptions, collect, fraction, positiveInt, usdAmount, wholeNumber } from '../options';
import { loadSettings, type EffectiveSettings } from '../settings';
import {
  checkNoLiveWriter,
  checkSettledControlFiles,
  projectControlFiles,
  waitForSettledControlFiles,
} from '../settledControl';
import { OUTPUT_FORMATS } from '../printFormat';
import { prepareRunWorktree, worktreeNotice, worktreeSandbox } from '../worktree';
import { warn, type Loaded, type McpServers, type Memory, type RunOpts, type RunSessionOptions } from './runOpts';
import { startAndFollow } from './runStart';
import type { Worktree } from '../../worktree/worktrees';

export type { RunOpts } from './runOpts';

/**
 * The flags that shape a session (everything of `run` but --id, --detach and --json): `run` and
 * `schedule add` share them, and buildRunSession reads them.
 */
export function addSessionFlags(cmd: Command): Command {
  return cmd
    .option('--cwd <dir>', 'working directory of the session', process.cwd())
    .option('--model <name>', 'model (env ANTHROPIC_MODEL)')
    .option('--max-tokens <n>', 'max output tokens per model call', positiveInt('--max-tokens'))
    .addOption(
      new Option('--thinking <mode>', 'extended thinking (on by default): enabled (= adaptive) or disabled').choices([
        'enabled',
        'adaptive',
        'disabled',
      ]),
    )
    .option(
      '--max-thinking-tokens <n>',
      'thinking budget for models that take one (0: off; env MAX_THINKING_TOKENS wins)',
      wholeNumber('--max-thinking-tokens'),
    )
    .option('--system-prompt <text>', 'replace the default system prompt')
    .option('--append-system-prompt <text>', 'add to the system prompt')
    .addOption(new Option('--permission-mode <mode>', 'permission mode').choices([...PERMISSION_MODES]))
    .option('--allow <rule>', 'allow rule, e.g. "Bash(npm test)" (repeatable)', collect, [])
    .option('--ask <rule>', 'ask rule (repeatable)', collect, [])
    .option('--deny <rule>', 'deny rule (repeatable)', collect, [])
    .option('--add-dir <dir>', 'additional working directory (repeatable)', collect, [])
    .option(
      '--mcp-config <file|json>',
      'MCP servers from a JSON file or string { "mcpServers": … } (repeatable; no approval needed)',
      collect,
      [],
    )
    .option('--strict-mcp-config', 'use only the --mcp-config servers (not ~/.claude.json, .mcp.json or settings)')
    .option('--max-turns <n>', 'stop after N turns', positiveInt('--max-turns'))
    .option(
      '--notify-webhook <url>',
      'POST notifications (approval needed, ended, failed…) here (env DURABLE_AGENT_NOTIFY_WEBHOOK)',
    )
    .option(
      '--max-total-tokens <n>',
      "budget of N tokens for the session's whole tree (subagents, compactions, side calls)",
      positiveInt('--max-total-tokens'),
    )
    .option(
      '--max-budget-usd <usd>',
      "budget in US dollars for the session's whole tree; over it the session waits in budget_exceeded",
      usdAmount('--max-budget-usd'),
    )
    .addOption(
      new Option('--on-budget <what>', 'over budget: wait for `budget ID --add` (default; -p: end) or end').choices([
        'wait',
        'end',
      ]),
    )
    .option(
      '--budget-threshold <fraction>',
      'notify once past this share of the budget (default 0.8)',
      fraction('--budget-threshold'),
    )
    .option(
      '--approval-timeout <seconds>',
      'deny a pending approval after this long',
      positiveInt('--approval-timeout'),
    )
    .addOption(
      new Option('--on-interrupt <what>', 'after an interrupt: wait for a message or end').choices(['wait', 'end']),
    )
    .option('--task-queue <name>', 'task queue (env DURABLE_AGENT_TASK_QUEUE)')
    .option(
      '--tool-task-queue <name>',
      'task queue of the tool activities: a worker on the host that has the working directory',
    )
    .option('--no-sandbox', 'run Bash without the OS sandbox (default: sandboxed where the platform supports it)')
    .option(
      '--trust-checkout',
      "start although the worktree's control files (.claude/, .mcp.json, the scripts hooks run) came with a checkout and differ from the main checkout's (named first)",
    )
    .option(
      '--no-streaming-tools',
      'start tools only when the model message is complete (default: safe tools start while it streams; env DURABLE_AGENT_STREAMING_TOOL_EXECUTION=0)',
    )
    .option(
      '--tool-search <mode>',
      'deferred tools behind ToolSearch: true, false, auto or auto:N (default auto: when MCP and other deferrable schemas reach N% (10) of the window; env ENABLE_TOOL_SEARCH)',
    );
}

export function addRunCommand(program: Command): void {
  addSessionFlags(
    addConnectionOptions(
      program
        .command('run')
        .description('Start a session and follow it live (Ctrl-C detaches; the job keeps running)')
        .argument('[prompt...]', 'what the agent should do (with -p: else read from stdin)'),
    ),
  )
    // Run only: a schedule's firings would all share one worktree.
    .option(
      '--worktree [name]',
      'run in the git worktree .claude/worktrees/<name> (branch worktree-<name>) of the repository, created or reused before the session starts',
    )
    .option('--id <id>', 'session id (default: generated)')
    .option('--detach', 'print the session id and return')
    .option('--json', 'JSON lines')
    .option('-p, --print', "print the session's result and nothing else, as `claude -p` (default format text)")
    .addOption(
      new Option('--output-format <format>', 'with -p: what to print (implies -p)').choices([...OUTPUT_FORMATS]),
    )
    .option('--verbose', 'with -p: needed by --output-format stream-json, as the reference')
    .action(runCommand);
}

async function runCommand(promptWords: string[], o: RunOpts): Promise<void> {
  if (o.outputFormat) o.print = true;
  if (o.print) {
    o.outputFormat ??= 'text';
    if (o.detach) throw new UsageError('-p/--print follows the session to its end: it does not take --detach');
    if (o.outputFormat === 'stream-json' && !o.verbose)
      throw new UsageError('When using --print, --output-format=stream-json requires --verbose');
  } else if (promptWords.length === 0) throw new UsageError("missing required argument 'prompt'");
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
  const { defaultStoreDir } = await import('../../temporal/worker');
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
