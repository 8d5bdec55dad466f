// The commands that follow and read an existing session: attach, ls, status, transcript, audit.
import { costText, totalCostUsd } from '../../core/modelUsage';
import type { Command } from 'commander';
import type { Client } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { describeOutage } from '../../core/retry';
import { autonomyLines, waitingLine } from '../autonomyText';
import { budgetLines, budgetText } from './budget';
import { decodePayload, converterOf } from '../../temporal/service/payloads';
import type { SessionStatus } from '../../temporal/workflows/definitions';
import type { subagentApprovals } from '../follow';
import {
  addConnectionOptions,
  followAndExit,
  positiveInt,
  print,
  sessionExists,
  withClient,
  type ConnOpts,
} from '../options';
import { terminalLine, terminalSafe } from '../terminalText';

// The Temporal client side (the client helpers, following, the SDK's converters and protos) is
// loaded by each action when it runs: `--help` and the other commands do without it (issue 32).
const clientHelpers = () => import('../../temporal/client');

export function addAttachCommand(program: Command): void {
  addConnectionOptions(
    program
      .command('attach')
      .description('Follow a running session live')
      .argument('<id>')
      .option('--json', 'JSON lines'),
  ).action(async (id: string, o: ConnOpts) =>
    withClient(o, async (client) => {
      // Answered by the server alone (a query would wait for a worker, silently, when none runs).
      await sessionExists(client, id);
      await followAndExit(client, id, o);
    }),
  );
}

export function addLsCommand(program: Command): void {
  addConnectionOptions(
    program
      .command('ls')
      .description('List sessions')
      .option('--limit <n>', 'at most N', positiveInt('--limit'), 20)
      .option('--json', 'JSON lines'),
  ).action(async (o: ConnOpts & { limit: number }) =>
    withClient(o, async (client) => {
      const { sessionStatus } = await clientHelpers();
      let n = 0;
      for await (const wf of listSessions(client)) {
        if (n++ >= o.limit) break;
        const row: {
          id: string;
          status: string;
          started: string;
          prompt: string;
          schedule?: string;
          waiting?: string;
        } = {
          id: wf.id,
          status: wf.status,
          started: wf.started,
          prompt: wf.prompt,
          // Started by a schedule (durable-agent schedule add).
          ...(wf.schedule ? { schedule: wf.schedule } : {}),
        };
        if (row.status === 'waiting_for_model') {
          // Since when and until when: the session's status says.
          const st = await sessionStatus(client, wf.id).catch(() => undefined);
          if (st?.outage) row.waiting = describeOutage(st.outage, Date.now());
        } else if (row.status === 'budget_exceeded') {
          const st = await sessionStatus(client, wf.id).catch(() => undefined);
          if (st?.budget) row.waiting = `${budgetText(st.budget)}: durable-agent budget ${wf.id} --add <usd>`;
        } else if (row.status === 'waiting') {
          // A wake-up, cron jobs or background tasks: until when and why.
          const st = await sessionStatus(client, wf.id).catch(() => undefined);
          const line = st ? waitingLine(st) : undefined;
          if (line) row.waiting = line;
        }
        print(
          o,
          row,
          `${row.id}  ${row.status.padEnd(17)} ${row.started}  ${row.schedule ? `[schedule ${row.schedule}] ` : ''}${row.prompt.replace(/\s+/g, ' ').slice(0, 60)}${row.waiting ? `\n    ${row.waiting}` : ''}`,
        );
      }
      if (n === 0 && !o.json) console.log('no sessions');
    }),
  );
}

/** What the workflow's memo says about the session's start (src/temporal/client.ts writes it). */
type StartMemo = { sandbox?: unknown; settings?: string[]; memory?: string[]; cwd?: string } | undefined;
type ChildApprovals = Awaited<ReturnType<typeof subagentApprovals>>;

export function addStatusCommand(program: Command): void {
  addConnectionOptions(
    program.command('status').description("Show a session's status").argument('<id>').option('--json', 'JSON'),
  ).action(async (id: string, o: ConnOpts) =>
    withClient(o, async (client) => {
      const { sessionHandle, sessionStatus } = await clientHelpers();
      const { controlWriteText, subagentApprovals } = await import('../follow');
      const s = await sessionStatus(client, id);
      const desc = await sessionHandle(client, id)
        .describe()
        .catch(() => undefined);
      const memo = desc?.memo as StartMemo;
      const sandbox = memo?.sandbox;
      // A running subagent's approval waits on its own session: show it here with the id that answers it.
      const childPending = s.currentTurnWorkflowId
        ? await subagentApprovals(client, id, s.currentTurnWorkflowId).catch(() => [])
        : [];
      const shown = {
        ...s,
        // Every model call of the session's tree, priced (null: a model has no price; absent: none counted yet).
        ...(s.modelUsage ? { total_cost_usd: totalCostUsd(s.modelUsage) } : {}),
        ...(childPending.length
          ? { subagentApprovals: childPending.map((c) => ({ session: c.childId, ...c.approval })) }
          : {}),
        ...(typeof sandbox === 'string' ? { sandbox } : {}),
        ...(Array.isArray(memo?.settings) ? { settings: memo.settings } : {}),
        ...(Array.isArray(memo?.memory) ? { memory: memo.memory } : {}),
      };
      print(
        o,
        s.outage ? { ...shown, waiting: describeOutage(s.outage, Date.now()) } : shown,
        statusLines(s, memo, childPending, controlWriteText).join('\n'),
      );
    }),
  );
}

/** `status` as text, a line per fact. */
function statusLines(
  s: SessionStatus,
  memo: StartMemo,
  childPending: ChildApprovals,
  controlWriteText: (w: { path: string; change: string }, cwd: string | undefined) => string,
): string[] {
  const sandbox = memo?.sandbox;
  return [
    `session   ${s.sessionId}`,
    `status    ${s.status} (${s.phase})${s.endReason ? ` — ${s.endReason}` : ''}`,
    ...(typeof sandbox === 'string' ? [`sandbox   ${sandbox}`] : []),
    ...(Array.isArray(memo?.settings) ? [`settings  ${memo.settings.length ? memo.settings.join(', ') : 'none'}`] : []),
    ...(Array.isArray(memo?.memory) ? [`memory    ${memo.memory.length ? memo.memory.join(', ') : 'none'}`] : []),
    `turn      ${s.turn}   tool calls ${s.toolCalls}   runs ${s.runs + 1}`,
    `usage     ${s.usage.input_tokens} in / ${s.usage.output_tokens} out tokens${s.usage.cache_read_input_tokens || s.usage.cache_creation_input_tokens ? ` (prompt cache: ${s.usage.cache_read_input_tokens ?? 0} read, ${s.usage.cache_creation_input_tokens ?? 0} written)` : ''}`,
    ...(s.modelUsage
      ? [
          `cost      ${costText(s.modelUsage)} — every model call of the session's tree`,
          ...Object.entries(s.modelUsage).map(
            ([m, u]) =>
              `  ${m}: ${u.calls} call(s), ${u.inputTokens} in / ${u.outputTokens} out tokens, cache ${u.cacheReadInputTokens} read / ${u.cacheCreationInputTokens} written${u.webSearchRequests ? `, ${u.webSearchRequests} web search(es)` : ''}, ${u.costUSD === null ? 'cost unknown (no price)' : `$${u.costUSD.toFixed(6)}`}`,
          ),
        ]
      : []),
    ...(s.contextTokens !== undefined || s.compactions?.length
      ? [
          `context   ${s.contextTokens ?? '?'} tokens in the model's view${s.compactions?.length ? `; ${s.compactions.length} compaction(s), last: ${s.compactions[s.compactions.length - 1]?.trigger} in turn ${s.compactions[s.compactions.length - 1]?.turn}` : ''}`,
        ]
      : []),
    ...(s.outage ? [`waiting   ${describeOutage(s.outage, Date.now())}`] : []),
    ...autonomyLines(s).map((l) => `autonomy  ${l}`),
    ...(s.budget ? budgetLines(s.budget, s.sessionId) : []),
    ...s.pendingApprovals.map(
      (a) => `pending   ${a.toolUseId}  ${terminalLine(a.summary)} — ${terminalLine(a.message)}`,
    ),
    ...childPending.map(
      (c) =>
        `pending   ${c.approval.toolUseId}  ${terminalLine(c.via)} › ${terminalLine(c.approval.summary)} — ${terminalLine(c.approval.message)} (durable-agent approve ${c.childId} ${c.approval.toolUseId})`,
    ),
    ...(s.hookNotices ?? []).map((n) => `hook      ${n.replace(/\s+/g, ' ').slice(0, 300)}`),
    ...(s.controlWrites ?? []).map(
      (w) =>
        `control   ⚠ ${controlWriteText(w, memo?.cwd ?? s.context.cwd)} by ${w.summary || w.toolName} (turn ${w.turn}, ${w.toolUseId})`,
    ),
    ...(s.lastText ? [`last      ${s.lastText.replace(/\s+/g, ' ').slice(0, 200)}`] : []),
  ];
}

export function addTranscriptCommand(program: Command): void {
  addConnectionOptions(
    program
      .command('transcript')
      .description("Print a session's conversation")
      .argument('<id>')
      .option('--store-dir <dir>', 'store (env DURABLE_AGENT_STORE_DIR)')
      .option('--store <url>', 'the shared store (env DURABLE_AGENT_STORE)')
      .option('--json', 'JSON'),
  ).action(async (id: string, o: ConnOpts & { storeDir?: string; store?: string }) =>
    withClient(o, async (client) => {
      const s = await (await clientHelpers()).sessionStatus(client, id);
      const { TranscriptStore } = await import('../../stores/messageStore');
      const { configuredBlobStore } = await import('../../stores/configured');
      const { defaultStoreDir } = await import('../../stores/dataHome');
      // The store the workers are configured with (DURABLE_AGENT_BLOB_STORE, else the files under the store dir).
      const store = new TranscriptStore(
        configuredBlobStore({ storeDir: o.storeDir ?? defaultStoreDir(), ...(o.store ? { store: o.store } : {}) }),
      );
      const messages = await store.load(s.head);
      if (o.json) return print(o, messages, '');
      const out = transcriptLines(messages, s.compactions ?? []);
      // One write, awaited: the program exits right after, and a long transcript must reach a pipe whole.
      await new Promise<void>((resolve) => process.stdout.write(`${terminalSafe(out.join('\n'))}\n`, () => resolve()));
    }),
  );
}

/**
 * The transcript as text: a line per block (thinking marked `[thinking]` with its text, encrypted
 * thinking `[redacted thinking]`), with the compaction boundaries where they fell.
 */
export function transcriptLines(
  messages: Array<{ role: string; content: unknown }>,
  compactions: NonNullable<SessionStatus['compactions']>,
): string[] {
  // Compaction boundaries: from there on the model saw a summary of the messages above.
  const marks = new Map<number, string[]>();
  const out: string[] = [];
  for (const c of compactions) {
    const line = `── compaction ${c.n} (${c.trigger}, turn ${c.turn}): ${c.tokensBefore} → ${c.tokensAfter} tokens; the model saw a summary of the ${c.summarizedThrough} messages above from here on ──`;
    marks.set(c.summarizedThrough, [...(marks.get(c.summarizedThrough) ?? []), line]);
  }
  for (const [i, m] of messages.entries()) {
    for (const line of marks.get(i) ?? []) out.push(line);
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    for (const b of blocks as Array<Record<string, unknown>>) {
      if (b.type === 'text') out.push(`${m.role}: ${String(b.text)}`);
      else if (b.type === 'thinking') out.push(`${m.role}: [thinking] ${String(b.thinking)}`);
      else if (b.type === 'redacted_thinking') out.push(`${m.role}: [redacted thinking]`);
      else if (b.type === 'tool_use')
        out.push(`${m.role}: [tool_use ${String(b.id)}] ${String(b.name)} ${JSON.stringify(b.input)}`);
      else if (b.type === 'tool_result') {
        const c = typeof b.content === 'string' ? b.content : JSON.stringify(b.content);
        out.push(`${m.role}: [tool_result ${String(b.tool_use_id)}${b.is_error ? ' error' : ''}] ${c.slice(0, 300)}`);
      }
    }
  }
  for (const [i, lines] of marks) if (i >= messages.length) out.push(...lines);
  return out;
}

export function addAuditCommand(program: Command): void {
  addConnectionOptions(
    program
      .command('audit')
      .description("A session's audit report, rebuilt from the Temporal history")
      .argument('<id>')
      .option('--json', 'JSON lines'),
  ).action(async (id: string, o: ConnOpts) =>
    withClient(o, async (client) => {
      await sessionExists(client, id);
      const audit = await import('../../audit');
      const report = await audit.buildAudit(client, id);
      process.stdout.write(o.json ? audit.auditJsonLines(report) : terminalSafe(audit.formatAuditText(report)));
    }),
  );
}

/**
 * The sessions, newest first, read from the server's list without the SDK's eager decoding: one
 * session whose memo this client cannot decode (a codec it lacks) is listed with a note, and does
 * not stop the listing.
 */
async function* listSessions(
  client: Client,
): AsyncGenerator<{ id: string; status: string; started: string; prompt: string; schedule?: string }> {
  const { defaultPayloadConverter } = await import('@temporalio/common');
  const { temporal } = await import('@temporalio/proto');
  const { STATUS_SEARCH_ATTRIBUTE } = await import('../../temporal/workflows/definitions');
  const converter = converterOf(client);
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await client.workflowService.listWorkflowExecutions({
      namespace: client.options.namespace,
      query: `WorkflowType = 'sessionWorkflow'`,
      ...(nextPageToken ? { nextPageToken } : {}),
    });
    for (const wf of page.executions ?? []) {
      const statusPayload = wf.searchAttributes?.indexedFields?.[STATUS_SEARCH_ATTRIBUTE];
      let status = (temporal.api.enums.v1.WorkflowExecutionStatus[wf.status ?? 0] ?? 'unknown')
        .replace(/^WORKFLOW_EXECUTION_STATUS_/, '')
        .toLowerCase();
      // Search attributes are never codec-encoded.
      const attr = statusPayload ? defaultPayloadConverter.fromPayload<unknown>(statusPayload as Payload) : undefined;
      if (typeof attr === 'string') status = attr;
      else if (Array.isArray(attr) && typeof attr[0] === 'string') status = attr[0];
      let schedule: string | undefined;
      const scheduleMemo = wf.memo?.fields?.schedule;
      if (scheduleMemo) {
        const v = await decodePayload<string>(converter, scheduleMemo as Payload).catch(() => undefined);
        if (typeof v === 'string') schedule = v;
      }
      let prompt = '';
      const memo = wf.memo?.fields?.prompt;
      if (memo) {
        try {
          prompt = String((await decodePayload<string>(converter, memo as Payload)) ?? '');
        } catch (err) {
          prompt = `(memo unreadable by this client: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]})`;
        }
      }
      const seconds = Number(wf.startTime?.seconds ?? 0);
      const started = new Date(seconds * 1000 + Math.floor((wf.startTime?.nanos ?? 0) / 1e6)).toISOString();
      yield { id: wf.execution?.workflowId ?? '?', status, started, prompt, ...(schedule ? { schedule } : {}) };
    }
    nextPageToken = page.nextPageToken && page.nextPageToken.length > 0 ? page.nextPageToken : undefined;
  } while (nextPageToken);
}
