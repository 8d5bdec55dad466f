// The commands that follow, read, steer and audit an existing session: attach, ls, status,
// transcript, audit, interrupt, send, approve, deny, cancel.
import type { Command } from 'commander';
import type { Client } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { converterOf, decodePayload } from '../temporal/payloads';
import {
  SessionNotFoundError,
  approveToolUse,
  denyToolUse,
  interruptSession,
  sendMessage,
  sessionHandle,
  sessionStatus,
} from '../client';
import { describeOutage } from '../engine/retry';
import { isWorkflowNotFound } from '../temporal/errors';
import { STATUS_SEARCH_ATTRIBUTE } from '../workflows/definitions';
import {
  UsageError,
  addConnectionOptions,
  followAndExit,
  identity,
  positiveInt,
  print,
  withClient,
  type ConnOpts,
} from './options';
import { controlWriteText, subagentApprovals } from './follow';

export function addSessionCommands(program: Command): void {
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

  addConnectionOptions(
    program
      .command('ls')
      .description('List sessions')
      .option('--limit <n>', 'at most N', positiveInt('--limit'), 20)
      .option('--json', 'JSON lines'),
  ).action(async (o: ConnOpts & { limit: number }) =>
    withClient(o, async (client) => {
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

  addConnectionOptions(
    program.command('status').description("Show a session's status").argument('<id>').option('--json', 'JSON'),
  ).action(async (id: string, o: ConnOpts) =>
    withClient(o, async (client) => {
      const s = await sessionStatus(client, id);
      const desc = await sessionHandle(client, id)
        .describe()
        .catch(() => undefined);
      const memo = desc?.memo as
        { sandbox?: unknown; settings?: string[]; memory?: string[]; cwd?: string } | undefined;
      const sandbox = memo?.sandbox;
      // A running subagent's approval waits on its own session: show it here with the id that answers it.
      const childPending = s.currentTurnWorkflowId
        ? await subagentApprovals(client, id, s.currentTurnWorkflowId).catch(() => [])
        : [];
      const lines = [
        `session   ${s.sessionId}`,
        `status    ${s.status} (${s.phase})${s.endReason ? ` — ${s.endReason}` : ''}`,
        ...(typeof sandbox === 'string' ? [`sandbox   ${sandbox}`] : []),
        ...(Array.isArray(memo?.settings)
          ? [`settings  ${memo.settings.length ? memo.settings.join(', ') : 'none'}`]
          : []),
        ...(Array.isArray(memo?.memory) ? [`memory    ${memo.memory.length ? memo.memory.join(', ') : 'none'}`] : []),
        `turn      ${s.turn}   tool calls ${s.toolCalls}   runs ${s.runs + 1}`,
        `usage     ${s.usage.input_tokens} in / ${s.usage.output_tokens} out tokens${s.usage.cache_read_input_tokens || s.usage.cache_creation_input_tokens ? ` (prompt cache: ${s.usage.cache_read_input_tokens ?? 0} read, ${s.usage.cache_creation_input_tokens ?? 0} written)` : ''}`,
        ...(s.contextTokens !== undefined || s.compactions?.length
          ? [
              `context   ${s.contextTokens ?? '?'} tokens in the model's view${s.compactions?.length ? `; ${s.compactions.length} compaction(s), last: ${s.compactions[s.compactions.length - 1]?.trigger} in turn ${s.compactions[s.compactions.length - 1]?.turn}` : ''}`,
            ]
          : []),
        ...(s.outage ? [`waiting   ${describeOutage(s.outage, Date.now())}`] : []),
        ...s.pendingApprovals.map((a) => `pending   ${a.toolUseId}  ${a.summary} — ${a.message}`),
        ...childPending.map(
          (c) =>
            `pending   ${c.approval.toolUseId}  ${c.via} › ${c.approval.summary} — ${c.approval.message} (durable-agent approve ${c.childId} ${c.approval.toolUseId})`,
        ),
        ...(s.hookNotices ?? []).map((n) => `hook      ${n.replace(/\s+/g, ' ').slice(0, 300)}`),
        ...(s.controlWrites ?? []).map(
          (w) =>
            `control   ⚠ ${controlWriteText(w, memo?.cwd ?? s.context.cwd)} by ${w.summary || w.toolName} (turn ${w.turn}, ${w.toolUseId})`,
        ),
        ...(s.lastText ? [`last      ${s.lastText.replace(/\s+/g, ' ').slice(0, 200)}`] : []),
      ];
      const shown = {
        ...s,
        ...(childPending.length
          ? { subagentApprovals: childPending.map((c) => ({ session: c.childId, ...c.approval })) }
          : {}),
        ...(typeof sandbox === 'string' ? { sandbox } : {}),
        ...(Array.isArray(memo?.settings) ? { settings: memo.settings } : {}),
        ...(Array.isArray(memo?.memory) ? { memory: memo.memory } : {}),
      };
      print(o, s.outage ? { ...shown, waiting: describeOutage(s.outage, Date.now()) } : shown, lines.join('\n'));
    }),
  );

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
      const s = await sessionStatus(client, id);
      const { TranscriptStore } = await import('../stores/messageStore');
      const { configuredBlobStore } = await import('../stores/configured');
      const { defaultStoreDir } = await import('../worker');
      // The store the workers are configured with (DURABLE_AGENT_BLOB_STORE, else the files under the store dir).
      const store = new TranscriptStore(
        configuredBlobStore({ storeDir: o.storeDir ?? defaultStoreDir(), ...(o.store ? { store: o.store } : {}) }),
      );
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
          else if (b.type === 'tool_use')
            out.push(`${m.role}: [tool_use ${String(b.id)}] ${String(b.name)} ${JSON.stringify(b.input)}`);
          else if (b.type === 'tool_result') {
            const c = typeof b.content === 'string' ? b.content : JSON.stringify(b.content);
            out.push(
              `${m.role}: [tool_result ${String(b.tool_use_id)}${b.is_error ? ' error' : ''}] ${c.slice(0, 300)}`,
            );
          }
        }
      }
      for (const [i, lines] of marks) if (i >= messages.length) out.push(...lines);
      // One write, awaited: the program exits right after, and a long transcript must reach a pipe whole.
      await new Promise<void>((resolve) => process.stdout.write(`${out.join('\n')}\n`, () => resolve()));
    }),
  );

  addConnectionOptions(
    program
      .command('audit')
      .description("A session's audit report, rebuilt from the Temporal history")
      .argument('<id>')
      .option('--json', 'JSON lines'),
  ).action(async (id: string, o: ConnOpts) =>
    withClient(o, async (client) => {
      await sessionExists(client, id);
      const audit = await import('../audit');
      const report = await audit.buildAudit(client, id);
      process.stdout.write(o.json ? audit.auditJsonLines(report) : audit.formatAuditText(report));
    }),
  );

  addConnectionOptions(
    program
      .command('interrupt')
      .description('Interrupt the running turn (in-flight tools are cancelled)')
      .argument('<id>')
      .option('--json', 'JSON'),
  ).action(async (id: string, o: ConnOpts) =>
    withClient(o, async (client) => {
      await interruptSession(client, id, identity());
      print(o, { session: id, interrupted: true }, `interrupt sent to ${id}`);
    }),
  );

  addConnectionOptions(
    program
      .command('send')
      .description('Send a follow-up message to a session')
      .argument('<id>')
      .argument('<message...>')
      .option('--json', 'JSON'),
  ).action(async (id: string, words: string[], o: ConnOpts) =>
    withClient(o, async (client) => {
      const text = words.join(' ').trim();
      if (!text) throw new UsageError('the message is empty');
      await sendMessage(client, id, text);
      print(o, { session: id, sent: text }, `message sent to ${id}`);
    }),
  );

  addConnectionOptions(
    program
      .command('approve')
      .description('Approve a pending tool call')
      .argument('<id>')
      .argument('[tool_use_id]')
      .option('--by <identity>', 'who approves', identity())
      .option('--json', 'JSON'),
  ).action(async (id: string, toolUseId: string | undefined, o: ConnOpts & { by: string }) =>
    withClient(o, async (client) => {
      const r = await approveToolUse(client, id, toolUseId, o.by);
      print(
        o,
        { session: id, decision: 'approve', ...r },
        r.status === 'applied'
          ? `approved ${r.toolUseId}`
          : r.status === 'not_applied'
            ? notAppliedText(r)
            : pendingText('approve', id, r),
      );
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
      print(
        o,
        { session: id, decision: 'deny', ...r },
        r.status === 'applied'
          ? `denied ${r.toolUseId}`
          : r.status === 'not_applied'
            ? notAppliedText(r)
            : pendingText('deny', id, r),
      );
      if (r.status === 'not_applied') process.exitCode = 1;
    }),
  );

  addConnectionOptions(
    program
      .command('cancel')
      .description('Cancel a session (in-flight tools are cancelled)')
      .argument('<id>')
      .option('--json', 'JSON'),
  ).action(async (id: string, o: ConnOpts) =>
    withClient(o, async (client) => {
      await sessionExists(client, id);
      await sessionHandle(client, id).cancel();
      print(o, { session: id, cancelled: true }, `cancel requested for ${id}`);
    }),
  );
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

/**
 * The sessions, newest first, read from the server's list without the SDK's eager decoding: one
 * session whose memo this client cannot decode (a codec it lacks) is listed with a note, and does
 * not stop the listing.
 */
async function* listSessions(
  client: Client,
): AsyncGenerator<{ id: string; status: string; started: string; prompt: string; schedule?: string }> {
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
