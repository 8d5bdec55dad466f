// Following a session in print mode (`run -p`, `run --output-format …`): nothing but the reference's
// output on stdout. stream-json prints the init line at once and each message as its turn lands in
// the transcript (read from the store the workers write, as `transcript` does); json and text print
// once, at the end. Approvals a call waits for are named on stderr (answer them with `approve`).
import type { Client } from '@temporalio/client';
import { runningSession, sessionHandle, sessionStatus } from '../temporal/client';
import { watchForWorker } from './workerCheck';
import type { Message } from '../core/apiMessages';
import type { AuditReport } from '../audit';
import type { SessionResult } from '../temporal/workflows/definitions';
import {
  apiErrorEvent,
  initEvent,
  messageEvents,
  resultEvent,
  numTurns,
  textOutput,
  type InitInfo,
  type ModelCallMeta,
  type OutputFormat,
} from './printFormat';
import { waitForSignal } from './options';
import { terminalLine, terminalSafe } from './terminalText';

export interface PrintOptions {
  /** Raw output (text format: the reference's bytes, no newline added). */
  write?: (text: string) => void;
  format: OutputFormat;
  init: InitInfo;
  startedAt: number;
  maxTurns?: number;
  /** Where the workers keep transcripts (else the default store). */
  storeDir?: string;
  intervalMs?: number;
  out?: (line: string) => void;
}

type Finished = { result: SessionResult } | { error: string };

/** Follows the session to its end and prints it in the format; returns the exit code (130: detached with Ctrl-C). */
export async function followPrinted(client: Client, sessionId: string, o: PrintOptions): Promise<number> {
  const out = o.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const p = new Printer(client, sessionId, o, out);
  if (o.format === 'stream-json') out(JSON.stringify(initEvent(o.init)));
  // Without a worker on the session's task queue it would wait silently: one line on stderr, as run.
  const watch = watchForWorker(client, () =>
    runningSession(client, sessionId).then(
      (s) => s.taskQueue,
      () => undefined,
    ),
  );
  try {
    return await printUntilEnd(client, sessionId, p);
  } finally {
    watch.stop();
  }
}

async function printUntilEnd(client: Client, sessionId: string, p: Printer): Promise<number> {
  const o = p.o;
  let detached = false;
  const detach = waitForSignal().then(() => (detached = true));
  let finished: Finished | undefined;
  const done = sessionHandle(client, sessionId)
    .result()
    .then(
      (result): Finished => ({ result }),
      (err: Error): Finished => ({ error: (err as { cause?: Error }).cause?.message ?? err.message }),
    )
    .then((f) => (finished = f));
  for (;;) {
    await Promise.race([p.poll(), detach]);
    if (detached) {
      process.stderr.write(
        `\ndetached; the session keeps running.\n  re-attach:  durable-agent attach ${sessionId}\n  cancel:     durable-agent cancel ${sessionId}\n`,
      );
      return 130;
    }
    if (finished) break;
    await Promise.race([new Promise((r) => setTimeout(r, o.intervalMs ?? 500)), done, detach]);
  }
  await p.poll(true);
  return p.finish(finished);
}

class Printer {
  private head: string | null | undefined;
  private printed = 0;
  private messages: Message[] = [];
  private audit: AuditReport | undefined;
  private readonly pending = new Set<string>();
  private warned = false;

  private readonly write: (text: string) => void;

  constructor(
    private readonly client: Client,
    private readonly sessionId: string,
    readonly o: PrintOptions,
    private readonly out: (line: string) => void,
  ) {
    this.write = o.write ?? ((t: string) => process.stdout.write(t));
  }

  /** A poll: approvals to name on stderr, and (stream-json) the messages of turns that landed. */
  async poll(final = false): Promise<void> {
    const status = await sessionStatus(this.client, this.sessionId).catch(() => undefined);
    for (const a of status?.pendingApprovals ?? []) {
      if (this.pending.has(a.toolUseId)) continue;
      this.pending.add(a.toolUseId);
      process.stderr.write(
        `durable-agent: approval needed: ${terminalLine(a.summary)} — ${terminalLine(a.message)} (durable-agent approve ${this.sessionId} ${a.toolUseId})\n`,
      );
    }
    if (this.o.format !== 'stream-json') return;
    const head = status ? status.head : final ? await this.resultHead() : undefined;
    if (head === undefined || head === this.head) return;
    await this.load(head);
    await this.readAudit();
    const calls = this.modelCalls();
    const lines = messageEvents(this.messages, this.printed, this.sessionId, (n) => calls[n], this.o.init.model);
    for (const l of lines) this.out(JSON.stringify(l));
    this.printed = this.messages.length;
  }

  private async resultHead(): Promise<string | null | undefined> {
    return sessionHandle(this.client, this.sessionId)
      .result()
      .then(
        (r) => r.head,
        () => undefined,
      );
  }

  /** The transcript up to the head, from the store the workers write. */
  private async load(head: string | null, quiet = false): Promise<void> {
    try {
      const { TranscriptStore } = await import('../stores/messageStore');
      const { configuredBlobStore } = await import('../stores/configured');
      const { defaultStoreDir } = await import('../stores/dataHome');
      const store = new TranscriptStore(configuredBlobStore({ storeDir: this.o.storeDir ?? defaultStoreDir() }));
      this.messages = await store.load(head);
      this.head = head;
    } catch (err) {
      if (!this.warned && !quiet)
        process.stderr.write(
          `durable-agent: warning: the session's messages cannot be read from this host's store (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); only the result is printed\n`,
        );
      this.warned = true;
      this.head = head;
    }
  }

  private async readAudit(): Promise<void> {
    try {
      const { buildAudit } = await import('../audit');
      this.audit = await buildAudit(this.client, this.sessionId);
    } catch {
      // The history could not be read: the lines go out without the model calls' ids and usage.
    }
  }

  /** The model calls that answered, in order: one per assistant message. */
  private modelCalls(): Array<ModelCallMeta & { startedAt?: string }> {
    return (this.audit?.modelCalls ?? [])
      .filter((c) => c.status === 'ok')
      .map((c) => ({
        model: c.model,
        ...(c.messageId ? { messageId: c.messageId } : {}),
        ...(c.requestId ? { requestId: c.requestId } : {}),
        ...(c.usage ? { usage: c.usage } : {}),
        ...(c.stopReason ? { stopReason: c.stopReason } : {}),
        ...(c.startedAt ? { startedAt: c.startedAt } : {}),
        ...(c.endedAt ? { endedAt: c.endedAt } : {}),
      }));
  }

  /** The result line (json, stream-json) or the final text (text); returns the exit code. */
  async finish(f: Finished | undefined): Promise<number> {
    await this.readAudit();
    if (this.head === undefined && f && 'result' in f) await this.load(f.result.head, true);
    const r = f && 'result' in f ? f.result : undefined;
    const status =
      r?.status ??
      (await sessionHandle(this.client, this.sessionId)
        .describe()
        .then(
          (d) => d.status.name.toLowerCase(),
          () => 'failed',
        ));
    const tools = this.audit?.toolCalls ?? [];
    const result = resultEvent({
      sessionId: this.sessionId,
      status,
      reason: r?.endReason ?? (f && 'error' in f ? f.error : 'unknown'),
      lastText: r?.lastText ?? '',
      turns: this.head !== undefined && this.messages.length > 0 ? numTurns(this.messages) : (r?.turns ?? 1),
      usage: r?.usage ?? { input_tokens: 0, output_tokens: 0 },
      durationMs: Date.now() - this.o.startedAt,
      calls: this.modelCalls(),
      denials: tools
        .filter((t) => t.decision?.behavior === 'deny')
        .map((t) => ({ tool_name: t.tool, tool_use_id: t.toolUseId, tool_input: t.input })),
      ...(r?.modelUsage ? { modelUsage: r.modelUsage } : {}),
      ...(this.o.maxTurns ? { maxTurns: this.o.maxTurns } : {}),
    });
    if (this.o.format === 'text') {
      const t = textOutput(result);
      // The reference's bytes into a pipe; on a terminal the agent's text is shown, not obeyed.
      this.write(this.o.write || !process.stdout.isTTY ? t.text : terminalSafe(t.text));
      return t.exitCode;
    }
    const synthetic = this.o.format === 'stream-json' ? apiErrorEvent(result) : undefined;
    if (synthetic) this.out(JSON.stringify(synthetic));
    this.out(JSON.stringify(result));
    return result['is_error'] === true ? 1 : 0;
  }
}
