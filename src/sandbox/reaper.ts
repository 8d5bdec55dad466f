// What a Bash call leaves behind when its worker dies, and who removes it.
//
// A sandboxed call is `bash -c` → bwrap (outer, our child, PR_SET_PDEATHSIG from
// --die-with-parent) → bwrap (pid 1 of the sandbox's pid namespace, its own session) → the
// runtime's script → two socat relays (children of `{ … || exec socat …; } &` subshells) and the
// command. bubblewrap arms the inner bwrap's PDEATHSIG late (after the mounts), and does not check
// afterwards whether its parent is still there: a worker SIGKILLed in the first milliseconds of a
// call leaves the outer bwrap dying on time and the inner one reparented to init with nothing
// left to kill it. It then waits for all its children, and the socat relays never exit (the
// script's EXIT trap `kill %1 %2` reaches the subshells, not the socats under them). Its session
// is not the call's process group, so the worker's group kill never reaches it either. The
// runtime's host-side socat bridges (spawned by initialize(), no PDEATHSIG at all) outlive every
// SIGKILLed worker. An unsandboxed call's process group has nothing tying it to the worker.
//
// Two lines of defence, both by marker (never a process of another live worker):
//  - every process of a call carries DURABLE_AGENT_CALL=<owner>/<callId> in its environment
//    (bwrap passes it into the sandbox), the runtime's bridges DURABLE_AGENT_SANDBOX_OWNER=<owner>;
//    <owner> is the worker process's pid and start time, so a reused pid is not taken for it;
//  - a guardian: one small detached bash per worker process, reading the calls in flight from a
//    pipe. The kernel closes the pipe when the worker dies, at any moment, however it dies: on EOF
//    the guardian kills the in-flight calls' process groups and every process carrying their
//    markers, and the sandbox machinery (bwrap, socat) of this owner, then exits. Race-free:
//    a call is announced before it is spawned.
//  - a sweep in every worker at start-up and every minute (for a guardian that was itself killed):
//    bwrap/socat/apply-seccomp processes whose owner is no longer alive are killed.
import type { ChildProcess } from 'node:child_process';
import { startHostProcess } from '../hostProcess/door';
import { sharedPeriodic } from './periodic';
import { promises as fs, readFileSync } from 'node:fs';

export const CALL_MARKER_ENV = 'DURABLE_AGENT_CALL';
export const OWNER_MARKER_ENV = 'DURABLE_AGENT_SANDBOX_OWNER';
/** Process names of the sandbox's machinery: never meant to outlive their call or worker. */
export const SANDBOX_MACHINERY = ['bwrap', 'socat', 'apply-seccomp'];
export const SWEEP_INTERVAL_MS = 60_000;
const periodic = sharedPeriodic(SWEEP_INTERVAL_MS);

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot), or undefined. */
function startTimeOf(pid: number | 'self'): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

let owner: string | undefined;
/** This worker process: `<pid>.<start time>`. */
export function ownerId(): string {
  owner ??= `${process.pid}.${startTimeOf('self') ?? '0'}`;
  return owner;
}

/** Is the worker process `id` (from ownerId()) still running? */
export function ownerAlive(id: string): boolean {
  const [pidText, start] = id.split('.');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return id === ownerId();
  const now = startTimeOf(pid);
  if (now !== undefined) return now === start;
  // No /proc entry to compare (no /proc, or hidden): a pid that exists is taken for the owner —
  // a leftover kept is better than a live worker's sandbox killed.
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface MarkedProcess {
  pid: number;
  comm: string;
  owner: string;
  /** Set for a call's process, unset for the runtime's bridges. */
  callId?: string;
}

/** Processes carrying a marker (those whose environment this user may read). Empty without /proc. */
export async function markedProcesses(): Promise<MarkedProcess[]> {
  let entries: string[];
  try {
    entries = await fs.readdir('/proc');
  } catch {
    return [];
  }
  const out: MarkedProcess[] = [];
  await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e) && Number(e) !== process.pid)
      .map(async (e) => {
        let env: string;
        try {
          env = await fs.readFile(`/proc/${e}/environ`, 'latin1');
        } catch {
          return;
        }
        let found: { owner: string; callId?: string } | undefined;
        for (const kv of env.split('\0')) {
          if (kv.startsWith(`${CALL_MARKER_ENV}=`)) {
            const v = kv.slice(CALL_MARKER_ENV.length + 1);
            const slash = v.indexOf('/');
            if (slash > 0) found = { owner: v.slice(0, slash), callId: v.slice(slash + 1) };
          } else if (kv.startsWith(`${OWNER_MARKER_ENV}=`) && !found) {
            found = { owner: kv.slice(OWNER_MARKER_ENV.length + 1) };
          }
        }
        if (!found) return;
        const comm = await fs.readFile(`/proc/${e}/comm`, 'utf8').then(
          (s) => s.trim(),
          () => '',
        );
        out.push({ pid: Number(e), comm, ...found });
      }),
  );
  return out.sort((a, b) => a.pid - b.pid);
}

/**
 * Kills the sandbox machinery (bwrap, socat, apply-seccomp) left by workers that are gone.
 * Killing a sandbox's bwrap kills its whole pid namespace. Returns what it killed.
 */
export async function sweepLeftovers(): Promise<MarkedProcess[]> {
  const killed: MarkedProcess[] = [];
  for (const p of await markedProcesses()) {
    if (!SANDBOX_MACHINERY.includes(p.comm) || ownerAlive(p.owner)) continue;
    try {
      process.kill(p.pid, 'SIGKILL');
      killed.push(p);
    } catch {
      // gone meanwhile
    }
  }
  return killed;
}

/** Kills every process still carrying this worker's marker for `callId` (after a call was killed). */
export async function killCallProcesses(callId: string): Promise<number> {
  let n = 0;
  for (const p of await markedProcesses()) {
    if (p.owner !== ownerId() || p.callId !== callId) continue;
    try {
      process.kill(p.pid, 'SIGKILL');
      n++;
    } catch {
      // gone meanwhile
    }
  }
  return n;
}

/**
 * Sweeps at once and then every SWEEP_INTERVAL_MS while any worker of this process runs.
 * Returns the stop function. What was killed is reported through `log`.
 */
export function startSweeping(log: (line: string) => void = (l) => console.warn(l)): () => void {
  const once = () =>
    void sweepLeftovers().then(
      (killed) => {
        if (killed.length > 0) {
          log(
            `durable-agent: killed ${killed.length} sandbox process(es) left by worker(s) that died: ${killed.map((p) => `${p.comm} ${p.pid} (worker ${p.owner.split('.')[0]})`).join(', ')}`,
          );
        }
      },
      () => undefined,
    );
  return periodic.start(once);
}

// --- the guardian -------------------------------------------------------------------------------

// $1: the owner. Lines on stdin: `+ <id>` (a call is about to start), `= <id> <pgid>` (its process
// group), `- <id> [<pgid>]` (it ended). EOF: the worker is gone. Plain strings, no associative
// arrays: bash 3 (macOS) runs it too; the sets hold the calls in flight only.
const GUARDIAN_SCRIPT = `
trap '' HUP INT
owner=$1
calls=' '
groups=' '
while IFS=' ' read -r op id pg; do
  case $op in
    +) calls="$calls$id " ;;
    =) groups="$groups$id=$pg " ;;
    -) calls=\${calls/ $id / }; [ -n "$pg" ] && groups=\${groups/ $id=$pg / } ;;
  esac
done
for pass in 1 2 3; do
  for g in $groups; do
    case $calls in *" \${g%%=*} "*) kill -KILL -- "-\${g#*=}" 2>/dev/null ;; esac
  done
  for d in /proc/[0-9]*; do
    pid=\${d#/proc/}
    [ "$pid" = "$$" ] && continue
    hit=
    while IFS= read -r -d '' kv; do
      case $kv in
        ${CALL_MARKER_ENV}="$owner"/*) case $calls in *" \${kv#*/} "*) hit=1 ;; *) hit=machinery ;; esac ;;
        ${OWNER_MARKER_ENV}="$owner") [ "$hit" = 1 ] || hit=machinery ;;
      esac
    done < "$d/environ" 2>/dev/null
    if [ "$hit" = machinery ]; then
      read -r comm < "$d/comm" 2>/dev/null || continue
      case $comm in ${SANDBOX_MACHINERY.join('|')}) hit=1 ;; esac
    fi
    [ "$hit" = 1 ] && kill -KILL "$pid" 2>/dev/null
  done
  [ $pass = 3 ] || sleep 0.3
done
`;

let guardian: ChildProcess | undefined;

function write(line: string): void {
  const g = ensureGuardian();
  try {
    g?.stdin?.write(`${line}\n`);
  } catch {
    // the guardian is gone: the sweep remains
  }
}

function ensureGuardian(): ChildProcess | undefined {
  if (guardian && guardian.exitCode === null && guardian.signalCode === null) return guardian;
  try {
    // The sandbox machinery's allowlist: never the call or owner markers (the guardian is not a call).
    const g = startHostProcess({
      purpose: 'sandbox-machinery',
      command: 'bash',
      args: ['-c', GUARDIAN_SCRIPT, 'durable-agent-guardian', ownerId()],
      cwd: '/',
      detached: true, // its own session: a Ctrl-C or group kill aimed at the worker does not stop it
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    g.once('error', () => undefined);
    g.once('exit', () => {
      if (guardian === g) guardian = undefined;
    });
    g.stdin?.on('error', () => undefined);
    g.unref();
    (g.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    guardian = g;
    return g;
  } catch {
    guardian = undefined;
    return undefined;
  }
}

/** The guardian's pid, when one runs (tests). */
export function guardianPid(): number | undefined {
  return guardian?.pid;
}

/** Announces a call before its process is spawned; returns the marker env var to give the process. */
export function callStarting(callId: string): Record<string, string> {
  write(`+ ${callId}`);
  return { [CALL_MARKER_ENV]: `${ownerId()}/${callId}` };
}

export function callSpawned(callId: string, pgid: number | undefined): void {
  if (pgid !== undefined) write(`= ${callId} ${pgid}`);
}

/** The call ended: what it left running on purpose (`cmd &`) is no longer the guardian's. */
export function callEnded(callId: string, pgid?: number): void {
  write(`- ${callId}${pgid !== undefined ? ` ${pgid}` : ''}`);
}

/** Runs `fn` with the owner marker in process.env (for the runtime's bridges, which inherit it). */
export async function withOwnerMarker<T>(fn: () => Promise<T>): Promise<T> {
  const had = process.env[OWNER_MARKER_ENV];
  process.env[OWNER_MARKER_ENV] = ownerId();
  ensureGuardian();
  try {
    return await fn();
  } finally {
    if (had === undefined) delete process.env[OWNER_MARKER_ENV];
    else process.env[OWNER_MARKER_ENV] = had;
  }
}
