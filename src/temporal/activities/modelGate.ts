// The model queue's shared backoff, on the workers' side (issue 34): a model call waits while the
// queue's limiter workflow (temporal/workflows/modelGate.ts) says the API asked everyone to back
// off, and a call the API refuses with a 429 or an overload pushes that time out for every worker.
// The limiter is asked at most once a second per worker (a query); a worker's own refusals count
// at once. Waiting heartbeats, and an interrupt (cancellation) ends the wait.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { BACKOFF_KINDS, MODEL_GATE, SharedBackoff, backoffUntil } from '../../core/modelLimit';

/** How often a worker asks the limiter workflow (ms). */
const REFRESH_MS = 1_000;

export class ModelGate {
  private readonly backoff = new SharedBackoff();
  private checkedAt = -Infinity;
  /** Calls that waited, and 429s/overloads this worker pushed out (the bench and tests read them). */
  readonly stats = { waits: 0, pushes: 0 };

  constructor(
    private readonly modelTaskQueue: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Wraps a model activity: wait for the shared backoff, call, push the backoff out on a 429 or overload. */
  wrap<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return async (...args: A): Promise<R> => {
      await this.wait();
      try {
        return await fn(...args);
      } catch (err) {
        await this.onFailure(err);
        throw err;
      }
    };
  }

  private async wait(): Promise<void> {
    await this.refresh();
    let ms = this.backoff.waitMs(this.now());
    if (ms > 0) this.stats.waits++;
    const ctx = Context.current();
    while (ms > 0) {
      ctx.heartbeat();
      await ctx.sleep(Math.min(ms, REFRESH_MS));
      await this.refresh();
      ms = this.backoff.waitMs(this.now());
    }
  }

  private async refresh(): Promise<void> {
    if (this.now() - this.checkedAt < REFRESH_MS) return;
    this.checkedAt = this.now();
    try {
      const handle = Context.current().client.workflow.getHandle(MODEL_GATE.workflowId(this.modelTaskQueue));
      this.backoff.push(await handle.query<number>(MODEL_GATE.query));
    } catch {
      // No limiter yet (nothing was refused), or it ended: no shared backoff.
    }
  }

  private async onFailure(err: unknown): Promise<void> {
    if (!(err instanceof ApplicationFailure)) return;
    const transient = err.details?.[0] as { kind?: string; retryAfterMs?: number } | undefined;
    if (!transient?.kind || !BACKOFF_KINDS.has(transient.kind)) return;
    const until = backoffUntil(this.now(), transient.retryAfterMs);
    if (!this.backoff.push(until)) return;
    this.stats.pushes++;
    try {
      await Context.current().client.workflow.signalWithStart(MODEL_GATE.workflowType, {
        workflowId: MODEL_GATE.workflowId(this.modelTaskQueue),
        taskQueue: this.modelTaskQueue,
        args: [{ until }],
        signal: MODEL_GATE.signal,
        signalArgs: [until],
      });
    } catch (e) {
      // The call's own failure matters more: the turn waits it out either way.
      console.warn(`durable-agent: the model queue's backoff was not shared: ${String(e)}`);
    }
  }
}
