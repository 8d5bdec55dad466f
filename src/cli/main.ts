#!/usr/bin/env node
// durable-agent: the command-line program — the embedded default (`dev`), workers, and the
// commands that start, follow, steer and audit sessions.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { AgentDefinitionError, loadAgentDefinitions, type AgentDefinition } from '../agents/definitions';
import { startSession, type SessionOptions } from '../client';
import { loadConnectionConfig } from '../temporal/connection';
import { PERMISSION_MODES, type PermissionMode } from '../tools/permissionTypes';
import { TASK_QUEUE_DEFAULT } from '../workflows/definitions';
import { loadSettings } from './settings';
import { sessionModel } from './model';
import {
  UsageError,
  addConnectionOptions,
  addServerOptions,
  collect,
  connectionOverrides,
  followAndExit,
  positiveInt,
  print,
  waitForSignal,
  withClient,
  type ConnOpts,
} from './options';
import { addSessionCommands } from './sessionCommands';
import { DurableAgentError, type ErrorCode } from '../engine/errors';
import { McpConfigError, resolveMcpServers } from '../mcp/config';
import { claudeJsonPath } from '../mcp/claudeJson';
import { readMcpConfigArgs } from '../mcp/cliConfig';
import { loadMemory, memoryReminder } from '../memory/claudeMd';
import { hiddenPathPredicate } from '../permissions/resultFilter';
import { sessionMemory } from '../memory/blobs';
import { MEMORY_INLINE_MAX_CHARS, type SessionMemory } from '../engine/memory';

/** What a worker says at start about Bash's OS sandbox on this host. */
async function workerSandboxLine(): Promise<string> {
  const { sandboxAvailability } = await import('../sandbox/host');
  const a = await sandboxAvailability();
  return a.available
    ? 'available (Bash runs sandboxed unless a session opts out)'
    : `UNAVAILABLE — ${a.reason}; sessions run Bash unsandboxed (refused with sandbox.failIfUnavailable)`;
}

/** The session's memory: inline when small; else stored in the worker's store (same env as the worker) and sent by reference. */
async function memoryForRun(files: string[], text: string): Promise<SessionMemory> {
  if (text.length <= MEMORY_INLINE_MAX_CHARS) return sessionMemory(files, text);
  const { configuredBlobStore } = await import('../stores/configured');
  const { defaultStoreDir } = await import('../worker');
  return sessionMemory(files, text, configuredBlobStore({ storeDir: defaultStoreDir() }));
}

export function buildProgram(): Command {
  const program = new Command('durable-agent')
    .description('A durable agent runner: every model call and every tool call is a Temporal activity.')
    .version(JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')).version as string)
    .showSuggestionAfterError(true)
    .exitOverride();
  program.configureOutput({ outputError: (str, write) => write(str.split('\n').filter(Boolean)[0] + '\n') });

  addServerOptions(
    program
      .command('dev')
      .description('Start the embedded default: a Temporal dev server (persisted to SQLite, with its UI) and a worker'),
  )
    .option('--ip <ip>', 'address to bind', '127.0.0.1')
    .option('--task-queue <name>', 'task queue of the worker (env DURABLE_AGENT_TASK_QUEUE)')
    .action(async (o: { db: string; port: number; uiPort: number; ip: string; taskQueue?: string }, cmd: Command) => {
      const { startDev } = await import('./dev');
      const defaultDb = cmd.getOptionValueSource('db') === 'default';
      const dev = await startDev({
        db: o.db,
        defaultDb,
        port: o.port,
        uiPort: o.uiPort,
        ip: o.ip,
        ...(o.taskQueue ? { taskQueue: o.taskQueue } : {}),
      });
      console.log(`temporal: ${dev.server.address} (persisted to ${resolve(o.db)})`);
      console.log(`ui:       ${dev.server.uiAddress}`);
      console.log(`worker:   task queue ${o.taskQueue ?? process.env.DURABLE_AGENT_TASK_QUEUE ?? TASK_QUEUE_DEFAULT}`);
      console.log(`sandbox:  ${await workerSandboxLine()}`);
      console.log(
        `ready. In another terminal: durable-agent run "…"   (Ctrl-C here stops the server and the worker; sessions resume on the next start)`,
      );
      await waitForSignal();
      console.log('stopping…');
      await dev.stop();
    });

  addServerOptions(
    program
      .command('demo')
      .description(
        'Run the demo on the embedded default: dev server + UI + worker + a session on a scratch copy of the sample project',
      ),
  )
    .option('--no-auto-approve', 'leave the approval to you (durable-agent approve …)')
    .option('--exit', 'stop the server when the demo session ends')
    .action(
      async (o: { db: string; port: number; uiPort: number; autoApprove: boolean; exit?: boolean }, cmd: Command) => {
        const { runDemo } = await import('./demo');
        process.exitCode = await runDemo({
          ...o,
          defaultDb: cmd.getOptionValueSource('db') === 'default',
          exit: o.exit ?? false,
          waitForSignal,
        });
      },
    );

  addConnectionOptions(
    program
      .command('worker')
      .description('Run a worker only (connects to TEMPORAL_ADDRESS)')
      .option('--task-queue <name>', 'task queue to poll (env DURABLE_AGENT_TASK_QUEUE)')
      .option('--store-dir <dir>', 'transcripts, ledger and large results (env DURABLE_AGENT_STORE_DIR)')
      .option(
        '--store <url>',
        'a store shared by workers on several hosts: postgres://user:pw@host:5432/db (env DURABLE_AGENT_STORE)',
      ),
  ).action(async (o: ConnOpts & { storeDir?: string; store?: string }) => {
    const { connectWorker } = await import('../temporal/connection');
    const { createAgentWorker } = await import('../worker');
    const { quietTemporalRuntime } = await import('./dev');
    quietTemporalRuntime();
    const config = loadConnectionConfig(connectionOverrides(o));
    // The store first: a bad --store / DURABLE_AGENT_STORE is one line, before any connection.
    const { configuredBlobStore, describeBlobStore } = await import('../stores/configured');
    const storeDir = o.storeDir ?? (await import('../worker')).defaultStoreDir();
    const blobStore = configuredBlobStore({ storeDir, ...(o.store ? { store: o.store } : {}) });
    const connection = await connectWorker(config);
    const worker = await createAgentWorker({
      connection,
      namespace: config.namespace,
      ...(o.taskQueue ? { taskQueue: o.taskQueue } : {}),
      storeDir,
      blobStore,
    });
    console.log(
      `worker: ${config.address} namespace ${config.namespace}, task queue ${o.taskQueue ?? process.env.DURABLE_AGENT_TASK_QUEUE ?? TASK_QUEUE_DEFAULT}`,
    );
    console.log(`store: ${describeBlobStore(blobStore)}`);
    console.log(`sandbox: ${await workerSandboxLine()}`);
    const running = worker.run();
    await Promise.race([waitForSignal(), running]);
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running;
  });

  addConnectionOptions(
    program
      .command('run')
      .description('Start a session and follow it live (Ctrl-C detaches; the job keeps running)')
      .argument('<prompt...>', 'what the agent should do')
      .option('--cwd <dir>', 'working directory of the session', process.cwd())
      .option('--model <name>', 'model (env ANTHROPIC_MODEL)')
      .option('--max-tokens <n>', 'max output tokens per model call', positiveInt('--max-tokens'))
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
      .option('--max-total-tokens <n>', 'stop after N tokens in all', positiveInt('--max-total-tokens'))
      .option(
        '--approval-timeout <seconds>',
        'deny a pending approval after this long',
        positiveInt('--approval-timeout'),
      )
      .addOption(
        new Option('--on-interrupt <what>', 'after an interrupt: wait for a message or end').choices(['wait', 'end']),
      )
      .option('--id <id>', 'session id (default: generated)')
      .option('--task-queue <name>', 'task queue (env DURABLE_AGENT_TASK_QUEUE)')
      .option(
        '--tool-task-queue <name>',
        'task queue of the tool activities: a worker on the host that has the working directory',
      )
      .option('--no-sandbox', 'run Bash without the OS sandbox (default: sandboxed where the platform supports it)')
      .option(
        '--no-streaming-tools',
        'start tools only when the model message is complete (default: safe tools start while it streams; env DURABLE_AGENT_STREAMING_TOOL_EXECUTION=0)',
      )
      .option('--detach', 'print the session id and return')
      .option('--json', 'JSON lines'),
  ).action(async (promptWords: string[], o: ConnOpts & Record<string, unknown>) => {
    const prompt = promptWords.join(' ').trim();
    if (!prompt) throw new UsageError('the prompt is empty: durable-agent run "what to do"');
    const cwd = resolve(o.cwd as string);
    if (!existsSync(cwd)) throw new UsageError(`--cwd ${cwd} does not exist`);
    for (const d of o.addDir as string[])
      if (!existsSync(resolve(d))) throw new UsageError(`--add-dir ${resolve(d)} does not exist`);
    const settings = loadSettings(cwd);
    for (const w of settings.warnings) process.stderr.write(`durable-agent: warning: ${w}\n`);
    for (const n of settings.notes) process.stderr.write(`durable-agent: note: ${n}\n`);
    // Managed settings beat the command line (as the reference); a flag they override is reported.
    const managed = settings.managed;
    for (const [flag, key, value] of [
      ['--model', 'model', managed.model],
      ['--max-tokens', 'maxTokens', managed.maxTokens],
      ['--permission-mode', 'permissions.defaultMode', managed.mode],
    ] as const) {
      const given = flag === '--model' ? o.model : flag === '--max-tokens' ? o.maxTokens : o.permissionMode;
      if (value !== undefined && given !== undefined && given !== value)
        process.stderr.write(
          `durable-agent: warning: ${flag} ${String(given)} is overridden by ${key} in the managed settings ${managed.path}\n`,
        );
    }
    if (managed.model) o.model = managed.model;
    if (managed.maxTokens) o.maxTokens = managed.maxTokens;
    if (managed.mode) o.permissionMode = managed.mode;
    if (settings.managedRulesOnly) {
      const dropped = [...(o.allow as string[]), ...(o.ask as string[]), ...(o.deny as string[])];
      if (dropped.length > 0)
        process.stderr.write(
          `durable-agent: warning: --allow/--ask/--deny rules are ignored: allowManagedPermissionRulesOnly in ${managed.path}\n`,
        );
      o.allow = [];
      o.ask = [];
      o.deny = [];
    }
    // Memory files are read by the worker outside the sandbox: never a credential file, nothing a
    // Read deny rule covers, no project import or rule that really lies outside (claudeMd.ts).
    const memoryDirs = [cwd, ...settings.additionalDirectories, ...(o.addDir as string[]).map((d) => resolve(d))];
    const memoryDeny = hiddenPathPredicate(
      'Read',
      { allow: [], ask: [], deny: [...settings.deny, ...(o.deny as string[])] },
      { cwd, workingDirectories: memoryDirs },
    );
    const memory = loadMemory(cwd, {
      excludes: settings.claudeMdExcludes,
      workingDirectories: memoryDirs,
      ...(memoryDeny ? { readDenied: memoryDeny } : {}),
    });
    for (const w of memory.warnings) process.stderr.write(`durable-agent: warning: ${w}\n`);
    const memoryText = memoryReminder(memory.files);
    const permissionMode =
      (o.permissionMode as PermissionMode | undefined) ?? settings.mode ?? process.env.DURABLE_AGENT_PERMISSION_MODE;
    if (permissionMode === 'bypassPermissions' && settings.disableBypassPermissionsMode) {
      throw new UsageError(
        `bypassPermissions mode is disabled by permissions.disableBypassPermissionsMode ("disable") in ${settings.bypassDisabledBy ?? settings.sources.join(', ')}: choose another --permission-mode`,
      );
    }
    const sandbox = o.sandbox === false ? { ...(settings.sandbox ?? {}), enabled: false } : settings.sandbox;
    // MCP servers: ~/.claude.json (user and local scope), the approved servers of `.mcp.json`,
    // settings `mcpServers`, then --mcp-config (src/mcp/config.ts).
    let mcp: ReturnType<typeof resolveMcpServers>;
    try {
      const cliServers = { ...readMcpConfigArgs(o.mcpConfig as string[], cwd), strict: o.strictMcpConfig === true };
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
        claudeJson: claudeJsonPath(),
        cli: cliServers,
      });
    } catch (err) {
      if (err instanceof McpConfigError) throw new UsageError(err.message);
      throw err;
    }
    for (const w of mcp.warnings) process.stderr.write(`durable-agent: warning: ${w}\n`);
    // Subagents: general-purpose plus ~/.claude/agents and .claude/agents, checked before anything starts.
    let agents: AgentDefinition[];
    try {
      agents = await loadAgentDefinitions(cwd);
    } catch (err) {
      if (err instanceof AgentDefinitionError) throw new UsageError(err.message);
      throw err;
    }
    const model = sessionModel(o.model as string | undefined, process.env, settings.model, (w) =>
      process.stderr.write(`durable-agent: warning: ${w}\n`),
    );
    const opts: SessionOptions & { id?: string; taskQueue?: string } = {
      prompt,
      cwd,
      model: {
        ...(model ? { model } : {}),
        ...(((o.maxTokens as number | undefined) ?? settings.maxTokens)
          ? { maxTokens: ((o.maxTokens as number | undefined) ?? settings.maxTokens) as number }
          : {}),
        ...(o.systemPrompt ? { system: o.systemPrompt as string } : {}),
      },
      ...(o.appendSystemPrompt ? { appendSystemPrompt: o.appendSystemPrompt as string } : {}),
      // Unset here, the session's input takes DURABLE_AGENT_PERMISSION_MODE (else 'default').
      ...((o.permissionMode ?? settings.mode)
        ? { permissionMode: (o.permissionMode ?? settings.mode) as PermissionMode }
        : {}),
      ...(sandbox ? { sandbox } : {}),
      ...(settings.disableBypassPermissionsMode ? { disableBypassPermissionsMode: true } : {}),
      rules: {
        allow: [...settings.allow, ...(o.allow as string[])],
        ask: [...settings.ask, ...(o.ask as string[])],
        deny: [...settings.deny, ...(o.deny as string[])],
      },
      additionalDirectories: [...settings.additionalDirectories, ...(o.addDir as string[]).map((d) => resolve(d))],
      ...(settings.hooks ? { hooks: settings.hooks } : {}),
      ...(Object.keys(mcp.servers).length > 0 ? { mcpServers: mcp.servers } : {}),
      ...(settings.autoCompactEnabled !== undefined
        ? { contextManagement: { autoCompact: settings.autoCompactEnabled } }
        : {}),
      settingsSources: settings.sources,
      // A large memory is stored in the worker's store and travels by reference (src/memory/blobs.ts).
      ...(memory.files.length > 0
        ? {
            memory: await memoryForRun(
              memory.files.map((f) => f.path),
              memoryText,
            ),
          }
        : {}),
      agents,
      ...(o.maxTurns ? { maxTurns: o.maxTurns as number } : {}),
      ...(o.maxTotalTokens ? { maxTotalTokens: o.maxTotalTokens as number } : {}),
      ...(o.approvalTimeout ? { approvalTimeoutMs: (o.approvalTimeout as number) * 1000 } : {}),
      ...(o.onInterrupt ? { onInterrupt: o.onInterrupt as 'wait' | 'end' } : {}),
      ...(o.id ? { id: o.id as string } : {}),
      ...(o.taskQueue ? { taskQueue: o.taskQueue } : {}),
      ...(o.toolTaskQueue ? { toolTaskQueue: o.toolTaskQueue as string } : {}),
      ...(o.streamingTools === false ? { streamingToolExecution: false } : {}),
    };
    // The control files against the previous session's here (src/cli/controlManifest.ts): every change is named.
    const { changeLines, controlFilesSinceLastSession, recordSessionEnd, recordSessionStart, runFilesOf } =
      await import('./controlManifest');
    // The scripts its hooks and MCP servers run count too: what one session rewrote is named before the next runs it.
    const runFiles = runFilesOf(cwd, opts.additionalDirectories ?? [], opts.hooks, opts.mcpServers);
    const since = await controlFilesSinceLastSession(cwd, opts.additionalDirectories ?? [], undefined, runFiles).catch(
      (err: unknown) => {
        process.stderr.write(
          `durable-agent: warning: the control files could not be compared with the last session here: ${err instanceof Error ? err.message : String(err)}\n`,
        );
        return undefined;
      },
    );
    const changed = since ? changeLines(since, cwd) : [];
    await withClient(o, async (client) => {
      const handle = await startSession(client, opts);
      const id = handle.workflowId;
      if (since) {
        await recordSessionStart(cwd, id, since.now).catch((err: unknown) =>
          process.stderr.write(
            `durable-agent: warning: the control-file manifest was not written: ${err instanceof Error ? err.message : String(err)}\n`,
          ),
        );
      }
      for (const line of changed) process.stderr.write(`${line}\n`);
      // Which files were loaded: in the JSON form too (the first line of `run --json`).
      const loaded = {
        cwd,
        settings: settings.sources,
        memory: memory.files.map((f) => f.path),
        ...(since?.changes.length
          ? { controlFilesChanged: since.changes.map((c) => ({ ...c, since: since.previous?.session })) }
          : {}),
      };
      if (o.detach) {
        print(o, { session: id, ...loaded }, id);
        return;
      }
      if (o.json) console.log(JSON.stringify({ session: id, event: 'started', ...loaded }));
      else {
        console.log(`session ${id} started (cwd ${cwd})`);
        const desc = await handle.describe().catch(() => undefined);
        const line = (desc?.memo as { sandbox?: unknown } | undefined)?.sandbox;
        if (typeof line === 'string') console.log(`sandbox: ${line}`);
        const servers = Object.keys(mcp.servers);
        if (servers.length > 0)
          console.log(`MCP servers: ${servers.map((n) => `${n} (${mcp.origins[n]})`).join(', ')}`);
        console.log(`settings: ${settings.sources.length ? settings.sources.join(', ') : 'none'}`);
        console.log(`memory: ${memory.files.length ? memory.files.map((f) => f.path).join(', ') : 'none'}`);
        console.log(
          `agents: ${agents.map((a) => (a.source === 'built-in' ? a.name : `${a.name} (${a.source})`)).join(', ')}`,
        );
      }
      const outcome = await followAndExit(client, id, o);
      if (outcome === 'ended')
        await recordSessionEnd(cwd, opts.additionalDirectories ?? [], id, undefined, undefined, runFiles).catch(
          () => undefined,
        );
    });
  });

  addSessionCommands(program);

  return program;
}

const WHOLE_MESSAGE = new Set<ErrorCode>(['SERVER_UNREACHABLE', 'NOT_FOUND', 'NOT_PENDING', 'SESSION_ENDED']);

/** One line, no stack: what went wrong and what to do. */
export function describeError(err: unknown): string {
  // These say all they need in a message made for the terminal; the others' first line is the point.
  if (err instanceof DurableAgentError && WHOLE_MESSAGE.has(err.code)) return err.message;
  if (err instanceof Error) return (err.message.split('\n')[0] ?? String(err)) as string;
  return String(err);
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version exit 0; usage errors were printed by commander in one line.
      return err.exitCode;
    }
    process.stderr.write(`durable-agent: ${describeError(err)}\n`);
    return 1;
  }
}

if (require.main === module) {
  main(process.argv).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`durable-agent: ${describeError(err)}\n`);
      process.exit(1);
    },
  );
}
