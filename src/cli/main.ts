#!/usr/bin/env node
// durable-agent: the command-line program — the embedded default (`dev`), workers, and the
// commands that start, follow, steer and audit sessions.
import { existsSync, readFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { Client } from '@temporalio/client';
import { AgentDefinitionError, loadAgentDefinitions, type AgentDefinition } from '../agents/definitions';
import {
  SessionNotFoundError,
  approveToolUse,
  denyToolUse,
  interruptSession,
  sendMessage,
  sessionHandle,
  sessionStatus,
  startSession,
  type SessionOptions,
} from '../client';
import { connectClient, loadConnectionConfig, type ConnectionOverrides } from '../temporal/connection';
import { PERMISSION_MODES, type PermissionMode } from '../tools/permissionTypes';
import { STATUS_SEARCH_ATTRIBUTE, TASK_QUEUE_DEFAULT } from '../workflows/definitions';
import { describeOutage } from '../engine/retry';
import { followSession } from './follow';
import { loadSettings } from './settings';
import { DurableAgentError, type ErrorCode } from '../engine/errors';
import { isWorkflowNotFound } from '../temporal/errors';
import { McpConfigError, resolveMcpServers } from '../mcp/config';
import { loadMemory, memoryReminder, sha256 } from '../memory/claudeMd';

class UsageError extends DurableAgentError {
  constructor(message: string) {
    super('USAGE', message);
  }
}

/** What a worker says at start about Bash's OS sandbox on this host. */
async function workerSandboxLine(): Promise<string> {
  const { sandboxAvailability } = await import('../sandbox/host');
  const a = await sandboxAvailability();
  return a.available ? 'available (Bash runs sandboxed unless a session opts out)' : `UNAVAILABLE — ${a.reason}; sessions run Bash unsandboxed (refused with sandbox.failIfUnavailable)`;
}

interface ConnOpts {
  address?: string;
  namespace?: string;
  apiKey?: string;
  tls?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  tlsCa?: string;
  tlsServerName?: string;
  taskQueue?: string;
  json?: boolean;
}

function connectionOverrides(o: ConnOpts): ConnectionOverrides {
  const tlsFiles = o.tlsCert || o.tlsKey || o.tlsCa || o.tlsServerName;
  return {
    ...(o.address ? { address: o.address } : {}),
    ...(o.namespace ? { namespace: o.namespace } : {}),
    ...(o.apiKey ? { apiKey: o.apiKey } : {}),
    ...(tlsFiles
      ? {
          tls: {
            ...(o.tlsCert ? { clientCertPath: o.tlsCert } : {}),
            ...(o.tlsKey ? { clientKeyPath: o.tlsKey } : {}),
            ...(o.tlsCa ? { serverCaCertPath: o.tlsCa } : {}),
            ...(o.tlsServerName ? { serverName: o.tlsServerName } : {}),
          },
        }
      : o.tls !== undefined
        ? { tls: o.tls }
        : {}),
  };
}

function addConnectionOptions(cmd: Command): Command {
  return cmd
    .option('--address <host:port>', 'Temporal frontend address (env TEMPORAL_ADDRESS, default localhost:7233)')
    .option('--namespace <name>', 'Temporal namespace (env TEMPORAL_NAMESPACE, default "default")')
    .option('--api-key <key>', 'Temporal API key (env TEMPORAL_API_KEY); turns TLS on')
    .option('--tls', 'connect with TLS (env TEMPORAL_TLS)')
    .option('--tls-cert <path>', 'mTLS client certificate (env TEMPORAL_TLS_CLIENT_CERT_PATH)')
    .option('--tls-key <path>', 'mTLS client key (env TEMPORAL_TLS_CLIENT_KEY_PATH)')
    .option('--tls-ca <path>', 'server CA certificate (env TEMPORAL_TLS_SERVER_CA_CERT_PATH)')
    .option('--tls-server-name <name>', 'TLS server name (env TEMPORAL_TLS_SERVER_NAME)');
}

/** The embedded server's options, shared by `dev` and `demo`. */
function addServerOptions(cmd: Command): Command {
  return cmd
    .option('--db <file>', 'SQLite file the server persists to', join('.durable-agent', 'temporal.db'))
    .option('--port <n>', 'gRPC port of the server', positiveInt('--port'), 7233)
    .option('--ui-port <n>', 'port of the Temporal UI', positiveInt('--ui-port'), 8233);
}

async function withClient<T>(o: ConnOpts, fn: (client: Client) => Promise<T>): Promise<T> {
  const { connection, client } = await connectClient(loadConnectionConfig(connectionOverrides(o)));
  try {
    return await fn(client);
  } finally {
    await connection.close().catch(() => undefined);
  }
}

const positiveInt = (name: string) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a positive whole number`);
  return n;
};
const collect = (v: string, prev: string[]) => [...prev, v];
const identity = () => `${userInfo().username}@${hostname()}`;

function print(o: ConnOpts, value: unknown, text: string): void {
  process.stdout.write(`${o.json ? JSON.stringify(value) : text}\n`);
}

export function buildProgram(): Command {
  const program = new Command('durable-agent')
    .description('A durable agent runner: every model call and every tool call is a Temporal activity.')
    .version(JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')).version as string)
    .showSuggestionAfterError(true)
    .exitOverride();
  program.configureOutput({ outputError: (str, write) => write(str.split('\n').filter(Boolean)[0] + '\n') });

  addServerOptions(
    program.command('dev').description('Start the embedded default: a Temporal dev server (persisted to SQLite, with its UI) and a worker'),
  )
    .option('--ip <ip>', 'address to bind', '127.0.0.1')
    .option('--task-queue <name>', 'task queue of the worker (env DURABLE_AGENT_TASK_QUEUE)')
    .action(async (o: { db: string; port: number; uiPort: number; ip: string; taskQueue?: string }) => {
      const { startDev } = await import('./dev');
      const dev = await startDev({ db: o.db, port: o.port, uiPort: o.uiPort, ip: o.ip, ...(o.taskQueue ? { taskQueue: o.taskQueue } : {}) });
      console.log(`temporal: ${dev.server.address} (persisted to ${resolve(o.db)})`);
      console.log(`ui:       ${dev.server.uiAddress}`);
      console.log(`worker:   task queue ${o.taskQueue ?? process.env.DURABLE_AGENT_TASK_QUEUE ?? TASK_QUEUE_DEFAULT}`);
      console.log(`sandbox:  ${await workerSandboxLine()}`);
      console.log(`ready. In another terminal: durable-agent run "…"   (Ctrl-C here stops the server and the worker; sessions resume on the next start)`);
      await waitForSignal();
      console.log('stopping…');
      await dev.stop();
    });

  addServerOptions(
    program.command('demo').description('Run the demo on the embedded default: dev server + UI + worker + a session on a scratch copy of the sample project'),
  )
    .option('--no-auto-approve', 'leave the approval to you (durable-agent approve …)')
    .option('--exit', 'stop the server when the demo session ends')
    .action(async (o: { db: string; port: number; uiPort: number; autoApprove: boolean; exit?: boolean }) => {
      const { runDemo } = await import('./demo');
      process.exitCode = await runDemo({ ...o, exit: o.exit ?? false, waitForSignal });
    });

  addConnectionOptions(
    program
      .command('worker')
      .description('Run a worker only (connects to TEMPORAL_ADDRESS)')
      .option('--task-queue <name>', 'task queue to poll (env DURABLE_AGENT_TASK_QUEUE)')
      .option('--store-dir <dir>', 'transcripts, ledger and large results (env DURABLE_AGENT_STORE_DIR)')
      .option('--store <url>', 'a store shared by workers on several hosts: postgres://user:pw@host:5432/db (env DURABLE_AGENT_STORE)'),
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
    const worker = await createAgentWorker({ connection, namespace: config.namespace, ...(o.taskQueue ? { taskQueue: o.taskQueue } : {}), storeDir, blobStore });
    console.log(`worker: ${config.address} namespace ${config.namespace}, task queue ${o.taskQueue ?? process.env.DURABLE_AGENT_TASK_QUEUE ?? TASK_QUEUE_DEFAULT}`);
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
      .option('--max-turns <n>', 'stop after N turns', positiveInt('--max-turns'))
      .option('--max-total-tokens <n>', 'stop after N tokens in all', positiveInt('--max-total-tokens'))
      .option('--approval-timeout <seconds>', 'deny a pending approval after this long', positiveInt('--approval-timeout'))
      .addOption(new Option('--on-interrupt <what>', 'after an interrupt: wait for a message or end').choices(['wait', 'end']))
      .option('--id <id>', 'session id (default: generated)')
      .option('--task-queue <name>', 'task queue (env DURABLE_AGENT_TASK_QUEUE)')
      .option('--tool-task-queue <name>', "task queue of the tool activities: a worker on the host that has the working directory")
      .option('--no-sandbox', 'run Bash without the OS sandbox (default: sandboxed where the platform supports it)')
      .option('--no-streaming-tools', 'start tools only when the model message is complete (default: safe tools start while it streams; env DURABLE_AGENT_STREAMING_TOOL_EXECUTION=0)')
      .option('--detach', 'print the session id and return')
      .option('--json', 'JSON lines'),
  ).action(async (promptWords: string[], o: ConnOpts & Record<string, unknown>) => {
    const prompt = promptWords.join(' ').trim();
    if (!prompt) throw new UsageError('the prompt is empty: durable-agent run "what to do"');
    const cwd = resolve(o.cwd as string);
    if (!existsSync(cwd)) throw new UsageError(`--cwd ${cwd} does not exist`);
    const settings = loadSettings(cwd);
    for (const w of settings.warnings) process.stderr.write(`durable-agent: warning: ${w}\n`);
    // Managed settings beat the command line (as the reference); a flag they override is reported.
    const managed = settings.managed;
    for (const [flag, key, value] of [['--model', 'model', managed.model], ['--max-tokens', 'maxTokens', managed.maxTokens], ['--permission-mode', 'permissions.defaultMode', managed.mode]] as const) {
      const given = flag === '--model' ? o.model : flag === '--max-tokens' ? o.maxTokens : o.permissionMode;
      if (value !== undefined && given !== undefined && given !== value) process.stderr.write(`durable-agent: warning: ${flag} ${String(given)} is overridden by ${key} in the managed settings ${managed.path}\n`);
    }
    if (managed.model) o.model = managed.model;
    if (managed.maxTokens) o.maxTokens = managed.maxTokens;
    if (managed.mode) o.permissionMode = managed.mode;
    if (settings.managedRulesOnly) {
      const dropped = [...(o.allow as string[]), ...(o.ask as string[]), ...(o.deny as string[])];
      if (dropped.length > 0) process.stderr.write(`durable-agent: warning: --allow/--ask/--deny rules are ignored: allowManagedPermissionRulesOnly in ${managed.path}\n`);
      o.allow = [];
      o.ask = [];
      o.deny = [];
    }
    const memory = loadMemory(cwd);
    for (const w of memory.warnings) process.stderr.write(`durable-agent: warning: ${w}\n`);
    const memoryText = memoryReminder(memory.files);
    const permissionMode = (o.permissionMode as PermissionMode | undefined) ?? settings.mode ?? process.env.DURABLE_AGENT_PERMISSION_MODE;
    if (permissionMode === 'bypassPermissions' && settings.disableBypassPermissionsMode) {
      throw new UsageError(`bypassPermissions mode is disabled by permissions.disableBypassPermissionsMode ("disable") in ${settings.sources.join(', ')}: choose another --permission-mode`);
    }
    const sandbox = o.sandbox === false ? { ...(settings.sandbox ?? {}), enabled: false } : settings.sandbox;
    // MCP servers: settings `mcpServers` plus the approved servers of `.mcp.json` (src/mcp/config.ts).
    let mcp: ReturnType<typeof resolveMcpServers>;
    try {
      mcp = resolveMcpServers({ cwd, ...(settings.mcp ? { settingsServers: settings.mcp.servers, settingsOrigin: settings.mcp.origins, approval: settings.mcp.approval } : {}), env: process.env });
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
    const opts: SessionOptions & { id?: string; taskQueue?: string } = {
      prompt,
      cwd,
      model: {
        ...((o.model as string | undefined) ?? settings.model ? { model: ((o.model as string | undefined) ?? settings.model) as string } : {}),
        ...((o.maxTokens as number | undefined) ?? settings.maxTokens ? { maxTokens: ((o.maxTokens as number | undefined) ?? settings.maxTokens) as number } : {}),
        ...(o.systemPrompt ? { system: o.systemPrompt as string } : {}),
      },
      ...(o.appendSystemPrompt ? { appendSystemPrompt: o.appendSystemPrompt as string } : {}),
      // Unset here, the session's input takes DURABLE_AGENT_PERMISSION_MODE (else 'default').
      ...((o.permissionMode ?? settings.mode) ? { permissionMode: (o.permissionMode ?? settings.mode) as PermissionMode } : {}),
      ...(sandbox ? { sandbox } : {}),
      ...(settings.disableBypassPermissionsMode ? { disableBypassPermissionsMode: true } : {}),
      rules: { allow: [...settings.allow, ...(o.allow as string[])], ask: [...settings.ask, ...(o.ask as string[])], deny: [...settings.deny, ...(o.deny as string[])] },
      additionalDirectories: [...settings.additionalDirectories, ...(o.addDir as string[]).map((d) => resolve(d))],
      ...(settings.hooks ? { hooks: settings.hooks } : {}),
      ...(Object.keys(mcp.servers).length > 0 ? { mcpServers: mcp.servers } : {}),
      ...(settings.autoCompactEnabled !== undefined ? { contextManagement: { autoCompact: settings.autoCompactEnabled } } : {}),
      settingsSources: settings.sources,
      ...(memory.files.length > 0 ? { memory: { files: memory.files.map((f) => f.path), text: memoryText, sha256: sha256(memoryText) } } : {}),
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
    await withClient(o, async (client) => {
      const handle = await startSession(client, opts);
      const id = handle.workflowId;
      if (o.detach) {
        print(o, { session: id }, id);
        return;
      }
      if (!o.json) {
        console.log(`session ${id} started (cwd ${cwd})`);
        const desc = await handle.describe().catch(() => undefined);
        const line = (desc?.memo as { sandbox?: unknown } | undefined)?.sandbox;
        if (typeof line === 'string') console.log(`sandbox: ${line}`);
        const servers = Object.keys(mcp.servers);
        if (servers.length > 0) console.log(`MCP servers: ${servers.map((n) => `${n} (${mcp.origins[n]})`).join(', ')}`);
        console.log(`settings: ${settings.sources.length ? settings.sources.join(', ') : 'none'}`);
        console.log(`memory: ${memory.files.length ? memory.files.map((f) => f.path).join(', ') : 'none'}`);
        console.log(`agents: ${agents.map((a) => (a.source === 'built-in' ? a.name : `${a.name} (${a.source})`)).join(', ')}`);
      }
      await followAndExit(client, id, o);
    });
  });

  addConnectionOptions(program.command('attach').description('Follow a running session live').argument('<id>').option('--json', 'JSON lines')).action(
    async (id: string, o: ConnOpts) =>
      withClient(o, async (client) => {
        await sessionStatus(client, id);
        await followAndExit(client, id, o);
      }),
  );

  addConnectionOptions(program.command('ls').description('List sessions').option('--limit <n>', 'at most N', positiveInt('--limit'), 20).option('--json', 'JSON lines')).action(
    async (o: ConnOpts & { limit: number }) =>
      withClient(o, async (client) => {
        let n = 0;
        for await (const wf of client.workflow.list({ query: `WorkflowType = 'sessionWorkflow'` })) {
          if (n++ >= o.limit) break;
          const memo = (wf.memo ?? {}) as { prompt?: string };
          const sa = wf.typedSearchAttributes?.getAll().find((p) => p.key.name === STATUS_SEARCH_ATTRIBUTE);
          const row: { id: string; status: string; started: string; prompt: string; waiting?: string } = { id: wf.workflowId, status: typeof sa?.value === 'string' ? sa.value : wf.status.name.toLowerCase(), started: wf.startTime.toISOString(), prompt: memo.prompt ?? '' };
          if (row.status === 'waiting_for_model') {
            // Since when and until when: the session's status says.
            const st = await sessionStatus(client, wf.workflowId).catch(() => undefined);
            if (st?.outage) row.waiting = describeOutage(st.outage, Date.now());
          }
          print(o, row, `${row.id}  ${row.status.padEnd(17)} ${row.started}  ${row.prompt.replace(/\s+/g, ' ').slice(0, 60)}${row.waiting ? `\n    ${row.waiting}` : ''}`);
        }
        if (n === 0 && !o.json) console.log('no sessions');
      }),
  );

  addConnectionOptions(program.command('status').description("Show a session's status").argument('<id>').option('--json', 'JSON')).action(async (id: string, o: ConnOpts) =>
    withClient(o, async (client) => {
      const s = await sessionStatus(client, id);
      const desc = await sessionHandle(client, id).describe().catch(() => undefined);
      const memo = desc?.memo as { sandbox?: unknown; settings?: string[]; memory?: string[] } | undefined;
      const sandbox = memo?.sandbox;
      const lines = [
        `session   ${s.sessionId}`,
        `status    ${s.status} (${s.phase})${s.endReason ? ` — ${s.endReason}` : ''}`,
        ...(typeof sandbox === 'string' ? [`sandbox   ${sandbox}`] : []),
        ...(Array.isArray(memo?.settings) ? [`settings  ${memo.settings.length ? memo.settings.join(', ') : 'none'}`] : []),
        ...(Array.isArray(memo?.memory) ? [`memory    ${memo.memory.length ? memo.memory.join(', ') : 'none'}`] : []),
        `turn      ${s.turn}   tool calls ${s.toolCalls}   runs ${s.runs + 1}`,
        `usage     ${s.usage.input_tokens} in / ${s.usage.output_tokens} out tokens${s.usage.cache_read_input_tokens || s.usage.cache_creation_input_tokens ? ` (prompt cache: ${s.usage.cache_read_input_tokens ?? 0} read, ${s.usage.cache_creation_input_tokens ?? 0} written)` : ''}`,
        ...(s.contextTokens !== undefined || s.compactions?.length ? [`context   ${s.contextTokens ?? '?'} tokens in the model's view${s.compactions?.length ? `; ${s.compactions.length} compaction(s), last: ${s.compactions[s.compactions.length - 1]?.trigger} in turn ${s.compactions[s.compactions.length - 1]?.turn}` : ''}`] : []),
        ...(s.outage ? [`waiting   ${describeOutage(s.outage, Date.now())}`] : []),
        ...s.pendingApprovals.map((a) => `pending   ${a.toolUseId}  ${a.summary} — ${a.message}`),
        ...(s.lastText ? [`last      ${s.lastText.replace(/\s+/g, ' ').slice(0, 200)}`] : []),
      ];
      const shown = { ...s, ...(typeof sandbox === 'string' ? { sandbox } : {}), ...(Array.isArray(memo?.settings) ? { settings: memo.settings } : {}), ...(Array.isArray(memo?.memory) ? { memory: memo.memory } : {}) };
      print(o, s.outage ? { ...shown, waiting: describeOutage(s.outage, Date.now()) } : shown, lines.join('\n'));
    }),
  );

  addConnectionOptions(program.command('transcript').description("Print a session's conversation").argument('<id>').option('--store-dir <dir>', 'store (env DURABLE_AGENT_STORE_DIR)').option('--store <url>', 'the shared store (env DURABLE_AGENT_STORE)').option('--json', 'JSON')).action(
    async (id: string, o: ConnOpts & { storeDir?: string; store?: string }) =>
      withClient(o, async (client) => {
        const s = await sessionStatus(client, id);
        const { TranscriptStore } = await import('../stores/messageStore');
        const { configuredBlobStore } = await import('../stores/configured');
        const { defaultStoreDir } = await import('../worker');
        // The store the workers are configured with (DURABLE_AGENT_BLOB_STORE, else the files under the store dir).
        const store = new TranscriptStore(configuredBlobStore({ storeDir: o.storeDir ?? defaultStoreDir(), ...(o.store ? { store: o.store } : {}) }));
        const messages = await store.load(s.head);
        if (o.json) return print(o, messages, '');
        // Compaction boundaries: from there on the model saw a summary of the messages above.
        const marks = new Map<number, string[]>();
        const out: string[] = [];
        for (const c of s.compactions ?? []) {
          const line = `── compaction ${c.n} (${c.trigger}, turn ${c.turn}): ${c.tokensBefore} → ${c.tokensAfter} tokens; the model saw a summary of the ${c.summarizedThrough} messages above from here on ──`;
          marks.set(c.summarizedThrough, [...(marks.get(c.summarizedThrough) ?? []), line]);
        }
        for (const [i, m] of messages.entries()) {
          for (const line of marks.get(i) ?? []) out.push(line);
          const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
          for (const b of blocks as Array<Record<string, unknown>>) {
            if (b.type === 'text') out.push(`${m.role}: ${String(b.text)}`);
            else if (b.type === 'tool_use') out.push(`${m.role}: [tool_use ${String(b.id)}] ${String(b.name)} ${JSON.stringify(b.input)}`);
            else if (b.type === 'tool_result') {
              const c = typeof b.content === 'string' ? b.content : JSON.stringify(b.content);
              out.push(`${m.role}: [tool_result ${String(b.tool_use_id)}${b.is_error ? ' error' : ''}] ${c.slice(0, 300)}`);
            }
          }
        }
        for (const [i, lines] of marks) if (i >= messages.length) out.push(...lines);
        // One write, awaited: the program exits right after, and a long transcript must reach a pipe whole.
        await new Promise<void>((resolve) => process.stdout.write(`${out.join('\n')}\n`, () => resolve()));
      }),
  );

  addConnectionOptions(program.command('audit').description("A session's audit report, rebuilt from the Temporal history").argument('<id>').option('--json', 'JSON lines')).action(
    async (id: string, o: ConnOpts) =>
      withClient(o, async (client) => {
        await sessionExists(client, id);
        const audit = await import('../audit');
        const report = await audit.buildAudit(client, id);
        process.stdout.write(o.json ? audit.auditJsonLines(report) : audit.formatAuditText(report));
      }),
  );

  addConnectionOptions(program.command('interrupt').description('Interrupt the running turn (in-flight tools are cancelled)').argument('<id>').option('--json', 'JSON')).action(
    async (id: string, o: ConnOpts) =>
      withClient(o, async (client) => {
        await interruptSession(client, id, identity());
        print(o, { session: id, interrupted: true }, `interrupt sent to ${id}`);
      }),
  );

  addConnectionOptions(program.command('send').description('Send a follow-up message to a session').argument('<id>').argument('<message...>').option('--json', 'JSON')).action(
    async (id: string, words: string[], o: ConnOpts) =>
      withClient(o, async (client) => {
        const text = words.join(' ').trim();
        if (!text) throw new UsageError('the message is empty');
        await sendMessage(client, id, text);
        print(o, { session: id, sent: text }, `message sent to ${id}`);
      }),
  );

  addConnectionOptions(
    program.command('approve').description('Approve a pending tool call').argument('<id>').argument('[tool_use_id]').option('--by <identity>', 'who approves', identity()).option('--json', 'JSON'),
  ).action(async (id: string, toolUseId: string | undefined, o: ConnOpts & { by: string }) =>
    withClient(o, async (client) => {
      const r = await approveToolUse(client, id, toolUseId, o.by);
      print(o, { session: id, decision: 'approve', ...r }, r.status === 'applied' ? `approved ${r.toolUseId}` : r.status === 'not_applied' ? notAppliedText(r) : pendingText('approve', id, r));
      if (r.status === 'not_applied') process.exitCode = 1;
    }),
  );

  addConnectionOptions(
    program
      .command('deny')
      .description('Deny a pending tool call')
      .argument('<id>')
      .argument('[tool_use_id]')
      .option('--reason <text>', 'told to the model')
      .option('--by <identity>', 'who denies', identity())
      .option('--json', 'JSON'),
  ).action(async (id: string, toolUseId: string | undefined, o: ConnOpts & { reason?: string; by: string }) =>
    withClient(o, async (client) => {
      const r = await denyToolUse(client, id, toolUseId, o.reason, o.by);
      print(o, { session: id, decision: 'deny', ...r }, r.status === 'applied' ? `denied ${r.toolUseId}` : r.status === 'not_applied' ? notAppliedText(r) : pendingText('deny', id, r));
      if (r.status === 'not_applied') process.exitCode = 1;
    }),
  );

  addConnectionOptions(program.command('cancel').description('Cancel a session (in-flight tools are cancelled)').argument('<id>').option('--json', 'JSON')).action(async (id: string, o: ConnOpts) =>
    withClient(o, async (client) => {
      await sessionExists(client, id);
      await sessionHandle(client, id).cancel();
      print(o, { session: id, cancelled: true }, `cancel requested for ${id}`);
    }),
  );

  return program;
}

async function sessionExists(client: Client, id: string): Promise<void> {
  try {
    await sessionHandle(client, id).describe();
  } catch (err) {
    if (isWorkflowNotFound(err)) throw new SessionNotFoundError(id);
    throw err;
  }
}

/** An approve/deny that came too late: what counted instead. */
function notAppliedText(r: { toolUseId: string; decision: 'approve' | 'deny'; outcome: string }): string {
  return `not applied: ${r.toolUseId} was ${r.decision === 'approve' ? 'approved' : 'denied'} — ${r.outcome}`;
}

/** An approve/deny that the server holds until a worker takes it: say so, and how to check. */
function pendingText(decision: 'approve' | 'deny', id: string, r: { toolUseId?: string; taskQueue: string }): string {
  return (
    `${decision} of ${r.toolUseId ?? 'the pending call'} sent to ${id}, but no worker has taken it yet: it is applied when a worker ` +
    `for task queue ${r.taskQueue} runs (unless the Temporal server restarts first). Check with: durable-agent status ${id}`
  );
}

function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}

async function followAndExit(client: Client, id: string, o: ConnOpts): Promise<void> {
  const detach = waitForSignal();
  const outcome = await followSession(client, id, { json: o.json ?? false, detach });
  if (outcome.kind === 'detached') {
    console.error(
      `\ndetached; the session keeps running.\n  re-attach:  durable-agent attach ${id}\n  interrupt:  durable-agent interrupt ${id}\n  cancel:     durable-agent cancel ${id}`,
    );
    process.exitCode = 130;
    return;
  }
  process.exitCode = outcome.status === 'completed' ? 0 : 1;
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
