// A Monitor's stdout as events, with the reference's limits (Claude Code 2.1.328, read from its
// bundled source): lines are trimmed and blank ones dropped; a line keeps its first 500 characters
// (then `...(truncated)`); the lines that arrive within 200 ms of the first one waiting form one
// event, at most 3000 characters (then `\n...(truncated)`); an unfinished line is buffered up to
// 1 MiB (its tail kept). Events are rate-limited by a bucket of 10 that refills one every 2 s: an
// event over the rate is suppressed and counted, the next one that passes is preceded by a notice
// of how many were suppressed, and when suppression has gone on for more than 30 s the monitor is
// stopped with a notice. Pure and clock-free: the caller passes the time and schedules the flush.

export const MONITOR_LIMITS = {
  lineChars: 500,
  eventChars: 3000,
  batchWindowMs: 200,
  partialLineChars: 1024 * 1024,
  burst: 10,
  refillMs: 2000,
  stopAfterSuppressedMs: 30_000,
} as const;

export type MonitorEmission =
  | { kind: 'event'; text: string }
  /** Housekeeping (suppressed events, too much output): sent as an event, not counted as one. */
  | { kind: 'notice'; text: string }
  /** Too much output for too long: the notice is sent and the monitor must be stopped. */
  | { kind: 'stop'; text: string };

function truncate(s: string, max: number, marker: string): string {
  return s.length <= max ? s : `${s.slice(0, max)}${marker}`;
}

export class MonitorLines {
  private partial = '';
  private waiting: string[] = [];
  private tokens: number;
  private refilledAt: number;
  private lastEventAt: number;
  private suppressed = 0;
  private suppressingSince: number | undefined;
  private delivered = 0;
  private stopped = false;

  constructor(
    now: number,
    private readonly limits: typeof MONITOR_LIMITS = MONITOR_LIMITS,
  ) {
    this.tokens = limits.burst;
    this.refilledAt = now;
    this.lastEventAt = now;
  }

  /** Events delivered so far (notices not counted). */
  events(): number {
    return this.delivered;
  }

  /** Has the rate limit stopped the monitor? */
  isStopped(): boolean {
    return this.stopped;
  }

  /**
   * A chunk of stdout. Returns true when a flush must be scheduled `batchWindowMs` from now (lines
   * are waiting and none were waiting before).
   */
  push(chunk: string): boolean {
    if (this.stopped) return false;
    const before = this.waiting.length;
    this.partial += chunk;
    if (this.partial.length > this.limits.partialLineChars)
      this.partial = this.partial.slice(-this.limits.partialLineChars);
    let nl: number;
    while ((nl = this.partial.indexOf('\n')) !== -1) {
      const line = this.partial.slice(0, nl).trim();
      this.partial = this.partial.slice(nl + 1);
      if (line) this.waiting.push(truncate(line, this.limits.lineChars, '...(truncated)'));
    }
    return before === 0 && this.waiting.length > 0;
  }

  /** The batch window ended (or the stream did: `final` takes the unfinished line too). */
  flush(now: number, final = false): MonitorEmission[] {
    if (this.stopped) return [];
    if (final) {
      const rest = this.partial.trim();
      this.partial = '';
      if (rest) this.waiting.push(truncate(rest, this.limits.lineChars, '...(truncated)'));
    }
    if (this.waiting.length === 0) return [];
    const text = truncate(this.waiting.join('\n'), this.limits.eventChars, '\n...(truncated)');
    this.waiting = [];
    return this.offer(text, now);
  }

  private refill(now: number): void {
    const n = Math.floor((now - this.refilledAt) / this.limits.refillMs);
    if (n > 0) {
      this.tokens = Math.min(this.limits.burst, this.tokens + n);
      this.refilledAt += n * this.limits.refillMs;
    }
  }

  private offer(text: string, now: number): MonitorEmission[] {
    this.refill(now);
    // A quiet spell or a full bucket ends a run of suppression.
    if (now - this.lastEventAt > this.limits.refillMs * 3 || this.tokens === this.limits.burst)
      this.suppressingSince = undefined;
    this.lastEventAt = now;
    if (this.tokens <= 0) {
      this.suppressed++;
      this.suppressingSince ??= now;
      if (now - this.suppressingSince > this.limits.stopAfterSuppressedMs) {
        this.stopped = true;
        const secs = Math.round((now - this.suppressingSince) / 1000);
        return [
          {
            kind: 'stop',
            text: `[Monitor stopped: too much output (${this.suppressed} events suppressed over ${secs}s). Start it again with a more selective command.]`,
          },
        ];
      }
      return [];
    }
    this.tokens--;
    const out: MonitorEmission[] = [];
    if (this.suppressed > 0) {
      out.push({
        kind: 'notice',
        text: `[${this.suppressed} events suppressed: output rate too high. Consider TaskStop and a new monitor with a more selective filter.]`,
      });
      this.suppressed = 0;
    }
    this.delivered++;
    out.push({ kind: 'event', text });
    return out;
  }
}
