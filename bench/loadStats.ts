// Measuring helpers of the load run (bench/load.ts): /proc sampling, percentiles, bounded parallelism.
import { readFileSync } from 'node:fs';

/** /proc sampling of a process: peak RSS and CPU seconds used between start() and stop(). */
export class ProcSampler {
  private peakRss = 0;
  private cpu0 = 0;
  private cpu1 = 0;
  private timer: NodeJS.Timeout | undefined;
  constructor(readonly pid: number) {}
  private cpuSeconds(): number {
    try {
      const f = readFileSync(`/proc/${this.pid}/stat`, 'utf8');
      const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks (100/s)
    } catch {
      return this.cpu1;
    }
  }
  private sample(): void {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
      if (m) this.peakRss = Math.max(this.peakRss, Number(m[1]) * 1024);
    } catch {
      // gone
    }
    this.cpu1 = this.cpuSeconds();
  }
  start(): void {
    this.cpu0 = this.cpuSeconds();
    this.sample();
    this.timer = setInterval(() => this.sample(), 500);
  }
  stop(): { peakRssMB: number; cpuSeconds: number } {
    clearInterval(this.timer);
    this.sample();
    return { peakRssMB: this.peakRss / 1024 / 1024, cpuSeconds: this.cpu1 - this.cpu0 };
  }
}

export function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

export async function mapLimit<T, R>(items: T[], limit: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i] as T);
      }
    }),
  );
  return out;
}
