// When a tool activity heartbeats. A heartbeat is an RPC and a write of the activity's state on
// the server, and the only way a cancellation (an interrupt) reaches a running activity: its
// answer says "cancel requested". So: a heartbeat right away when the tool reports progress (the
// worker's throttle coalesces bursts), and otherwise a keepalive only once the call has run for
// `firstMs` and then every `idleMs` — a Read that takes 20 ms sends none, a 30 s Bash one a second
// (core/heartbeats.ts: the timeouts these keep up with). Measured effect: BENCHMARKS.md
// ("Heartbeats", "Resume").
import { KEEPALIVE_MS } from '../core/heartbeats';

export interface HeartbeatPolicy {
  /** The first keepalive, after the call has run this long (ms). */
  firstMs: number;
  /** Then a keepalive whenever nothing was sent for this long (ms): bounds how late a cancellation arrives. */
  idleMs: number;
}

export const TOOL_HEARTBEATS: HeartbeatPolicy = { firstMs: 300, idleMs: KEEPALIVE_MS };

/** An activity's own keepalive (temporal/activities/runtime.ts): from its start, whatever its core is doing. */
export const ACTIVITY_KEEPALIVE: HeartbeatPolicy = { firstMs: KEEPALIVE_MS, idleMs: KEEPALIVE_MS };

export interface Heartbeats {
  /** The tool reported progress: heartbeat now (its details are the caller's). */
  progress(): void;
  /** Something else just heartbeated: the next keepalive is due `idleMs` from now. */
  sent(): void;
  stop(): void;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** Starts the keepalive schedule; `send` heartbeats with the caller's current details. */
export function startHeartbeats(
  send: () => void,
  policy: HeartbeatPolicy = TOOL_HEARTBEATS,
  timers: Timers = realTimers,
): Heartbeats {
  let stopped = false;
  let timer: unknown;
  const arm = (ms: number): void => {
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = timers.setTimeout(beat, ms);
  };
  function beat(): void {
    if (stopped) return;
    send();
    arm(policy.idleMs);
  }
  arm(policy.firstMs);
  return {
    progress: beat,
    sent() {
      if (!stopped) arm(policy.idleMs);
    },
    stop() {
      stopped = true;
      if (timer !== undefined) timers.clearTimeout(timer);
    },
  };
}
