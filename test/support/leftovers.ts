// Processes a test left behind, found by a tag in their environment: the test starts its worker
// (or child) with `<TAG_ENV>=<unique value>`, every process below it inherits the variable —
// bwrap passes it into the sandbox too — whatever marker the product itself sets or forgets.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

export const TAG_ENV = 'DURABLE_AGENT_TEST_TAG';

export interface TaggedProcess {
  pid: number;
  ppid: number;
  comm: string;
  args: string;
}

export function newTag(): string {
  return randomUUID();
}

/** Live processes (not zombies) whose environment holds `TAG_ENV=tag`. Empty where /proc is missing. */
export function taggedProcesses(tag: string): TaggedProcess[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e) && Number(e) !== process.pid);
  } catch {
    return [];
  }
  const needle = `\0${TAG_ENV}=${tag}\0`;
  const out: TaggedProcess[] = [];
  for (const e of entries) {
    try {
      const env = `\0${readFileSync(`/proc/${e}/environ`, 'latin1')}`;
      if (!env.includes(needle)) continue;
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (rest[0] === 'Z') continue; // a zombie waits for its parent's wait(), it holds nothing
      const comm = readFileSync(`/proc/${e}/comm`, 'utf8').trim();
      const args = readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0').join(' ').trim();
      out.push({ pid: Number(e), ppid: Number(rest[1]), comm, args });
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/** Polls until no tagged process is left, or `timeoutMs` passed; returns what is left. */
export async function waitUntilNoneTagged(
  tag: string,
  timeoutMs: number,
  filter: (p: TaggedProcess) => boolean = () => true,
): Promise<TaggedProcess[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = taggedProcesses(tag).filter(filter);
    if (left.length === 0 || Date.now() >= deadline) return left;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** `bwrap 2, socat 3` */
export function countByName(ps: TaggedProcess[]): string {
  const counts = new Map<string, number>();
  for (const p of ps) counts.set(p.comm, (counts.get(p.comm) ?? 0) + 1);
  return [...counts].map(([c, n]) => `${c} ${n}`).join(', ');
}

export function describe(ps: TaggedProcess[]): string {
  return ps.map((p) => `${p.pid} (ppid ${p.ppid}) ${p.args.slice(0, 160)}`).join('\n');
}

/** SIGKILLs them (a test's own leftovers, after it reported them). */
export function killAll(ps: TaggedProcess[]): void {
  for (const p of ps) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

/**
 * The reaper's guardian of the worker process `workerPid`, found by its command line (it names its
 * worker's owner id, `<pid>.<start time>`): the door starts it with the sandbox machinery's
 * allowlist, so it does not carry the test's tag (invariant 15).
 */
export function guardianOf(workerPid: number): TaggedProcess | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return undefined;
  }
  for (const e of entries) {
    try {
      const argv = readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0');
      if (!argv.includes('durable-agent-guardian') || !argv.some((a) => a.startsWith(`${workerPid}.`))) continue;
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (rest[0] === 'Z') continue;
      const comm = readFileSync(`/proc/${e}/comm`, 'utf8').trim();
      return { pid: Number(e), ppid: Number(rest[1]), comm, args: argv.join(' ').trim() };
    } catch {
      // gone, or not ours to read
    }
  }
  return undefined;
}
