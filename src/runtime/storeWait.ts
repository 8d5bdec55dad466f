// A tool call's store operations (its execution-ledger entries, its stored result) wait out a store
// outage — a full disk, a read-only remount, an unreachable shared store — inside the activity,
// heartbeating, instead of failing it (invariant 10). Failing would lose what only this attempt
// knows: a call that ran and could not record its result would be retried, find itself 'started'
// in the ledger and be reported as an unknown outcome — or, once the attempts ran out, as an error —
// although it completed. Found by `npm run test:faults` (disk faults).

export interface StoreWaitRuntime {
  signal: AbortSignal;
  heartbeat(details?: unknown): void;
  warn(message: string, meta?: Record<string, unknown>): void;
}

export interface StoreWaitOptions {
  /** Give up (throw the last error) after waiting this long. Default: env DURABLE_AGENT_STORE_WAIT_MS, else 10 min. */
  maxWaitMs?: number;
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Extra heartbeat details (e.g. the tool_use id) next to `waitingForStore`. */
  details?: Record<string, unknown>;
}

/**
 * I/O failures a store recovers from: Node's system errors (`ENOSPC`, `EROFS`, `EIO`, `ENOTDIR`,
 * `ECONNREFUSED`, …) and errors a BlobStore marks `transient: true`. A parse error of a stored
 * record or an invalid key is permanent: retrying would not change it.
 */
export function isStoreOutage(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; transient?: unknown };
  return e.transient === true || (typeof e.code === 'string' && /^E[A-Z0-9]+$/.test(e.code));
}

function defaultMaxWaitMs(): number {
  const n = Number(process.env.DURABLE_AGENT_STORE_WAIT_MS);
  return Number.isFinite(n) && n > 0 ? n : 10 * 60_000;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason ?? new Error('cancelled'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason ?? new Error('cancelled'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Runs `op`, retrying while the store is out (see isStoreOutage), heartbeating what it waits for. */
export async function waitForStore<T>(
  what: string,
  op: () => Promise<T>,
  ctx: StoreWaitRuntime,
  opts: StoreWaitOptions = {},
): Promise<T> {
  const maxWaitMs = opts.maxWaitMs ?? defaultMaxWaitMs();
  let delay = opts.firstDelayMs ?? 250;
  const since = Date.now();
  let warned = false;
  for (;;) {
    try {
      return await op();
    } catch (err) {
      if (!isStoreOutage(err) || ctx.signal.aborted || Date.now() - since >= maxWaitMs) throw err;
      const message = `${what}: ${(err as Error).message ?? String(err)}`;
      if (!warned) {
        warned = true;
        ctx.warn(`waiting for the store (${message})`);
      }
      ctx.heartbeat({ ...opts.details, waitingForStore: message.slice(0, 300), since });
      await sleep(delay, ctx.signal);
      // At most 1 s between tries: each try heartbeats, and a heartbeat timeout may be as short as a few seconds.
      delay = Math.min(delay * 2, opts.maxDelayMs ?? 1_000);
    }
  }
}
