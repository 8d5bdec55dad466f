// The CLI's sandbox probe, remembered between runs (issue 32: every `run` started a real sandbox
// — the runtime's proxies, the guardian, a ripgrep scan, bwrap and the seccomp helper, ~0.3 s of CPU
// — to print one line). A probe that found the sandbox available is remembered for an hour under a
// key of everything the probe's answer rests on: the programs it runs (bash, bwrap, socat, rg,
// which: found on the trusted PATH, with their file stamps), the runtime package and its seccomp
// helper, the user, the capabilities, the namespaces, the boot and the user-namespace sysctls. A
// change of any one of them, or an hour, and the next run probes again; "unavailable" is never
// remembered (its reason is always today's: a missing bwrap says so at once).
//
// The answer only advises: the line `run`, `status` and the audit show, and `failIfUnavailable`
// refusing the start. The worker that runs the tools probes for itself and refuses or sandboxes each
// call (src/tools/bash/containment.ts). The record lies in the program cache (programCacheRoot:
// one of the worker's private paths, which no sandboxed command reads or writes), read only when it
// is a small regular file of this user, never through a link.
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findProgram, programCacheRoot, sandboxPrograms, trustedPath } from '../hostProcess/programs';
import { readRegularFile } from './anchored';
import type { SandboxAvailability } from './runtimePool';

/** How long an "available" answer is remembered. */
export const PROBE_MEMORY_MS = 60 * 60_000;
const FILE = 'sandbox-probe.json';

function stamp(p: string | undefined): string {
  if (!p) return '-';
  try {
    const s = fs.statSync(p);
    return `${p} ${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.mode}:${s.uid}`;
  } catch {
    return `${p} absent`;
  }
}

/** A kernel file's text (/proc), or '-'. */
function kernelText(p: string): string {
  try {
    return fs.readFileSync(p, 'utf8').trim();
  } catch {
    return '-';
  }
}

function linkText(p: string): string {
  try {
    return fs.readlinkSync(p);
  } catch {
    return '-';
  }
}

/** The directory of @anthropic-ai/sandbox-runtime as this process loads it, or undefined. */
function runtimePackageDir(): string | undefined {
  try {
    return path.dirname(path.dirname(require.resolve('@anthropic-ai/sandbox-runtime')));
  } catch {
    return undefined;
  }
}

/** What the probe's answer rests on, hashed (see the header). */
export function probeKey(): string {
  const programs = sandboxPrograms();
  const pkg = runtimePackageDir();
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const status = kernelText('/proc/self/status')
    .split('\n')
    .filter((l) => /^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs|Seccomp):/.test(l));
  const facts = [
    'v1',
    process.platform,
    process.arch,
    String(process.getuid?.()),
    String(process.geteuid?.()),
    process.env.PATH ?? '',
    process.cwd(),
    kernelText('/proc/sys/kernel/random/boot_id'),
    ...['user', 'mnt', 'pid', 'net'].map((ns) => linkText(`/proc/self/ns/${ns}`)),
    ...[
      '/proc/sys/kernel/unprivileged_userns_clone',
      '/proc/sys/user/max_user_namespaces',
      '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
    ].map(kernelText),
    ...status,
    ...(['bash', 'bwrap', 'socat', 'rg'] as const).map((n) => stamp(programs[n])),
    stamp(findProgram('which', trustedPath())),
    stamp(pkg && path.join(pkg, 'package.json')),
    stamp(pkg && path.join(pkg, 'vendor', 'seccomp', arch, 'apply-seccomp')),
  ];
  return createHash('sha256').update(facts.join('\n')).digest('hex');
}

const memoryFile = (): string => path.join(programCacheRoot(), FILE);

/** How many keys the record keeps (a person's projects, a test suite's PATHs), the newest. */
const MAX_KEYS = 16;

/** The record's keys and when each was probed; empty when it is absent, not ours, or not a record. */
function remembered(): Record<string, number> {
  const file = memoryFile();
  try {
    const st = fs.lstatSync(file, { throwIfNoEntry: false });
    if (!st?.isFile() || st.uid !== process.getuid?.() || (st.mode & 0o022) !== 0) return {};
  } catch {
    return {};
  }
  const text = readRegularFile(file, 4096);
  if (typeof text !== 'string') return {};
  try {
    const r = JSON.parse(text) as { keys?: unknown };
    if (typeof r.keys !== 'object' || r.keys === null || Array.isArray(r.keys)) return {};
    return Object.fromEntries(
      Object.entries(r.keys as Record<string, unknown>).filter(
        (e): e is [string, number] => /^[0-9a-f]{64}$/.test(e[0]) && typeof e[1] === 'number',
      ),
    );
  } catch {
    return {};
  }
}

/** Whether an "available" answer under `key` is remembered and younger than PROBE_MEMORY_MS. */
export function rememberedAvailable(key: string, now = Date.now()): boolean {
  const at = remembered()[key];
  return at !== undefined && now >= at && now - at < PROBE_MEMORY_MS;
}

/** Remembers an "available" answer under `key` (best effort: an unwritable cache only costs the next probe). */
export function rememberAvailable(key: string, now = Date.now()): void {
  const file = memoryFile();
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const keys = Object.entries({ ...remembered(), [key]: now })
    .filter(([, at]) => now >= at && now - at < PROBE_MEMORY_MS)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_KEYS);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(tmp, JSON.stringify({ keys: Object.fromEntries(keys) }), { mode: 0o600, flag: 'wx' });
    fs.renameSync(tmp, file);
  } catch {
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * `probe()`'s answer, or the remembered "available" one when nothing it rests on has changed in
 * the last hour. Call it after the PATH is narrowed and the session's directories are registered
 * (the key looks the programs up as the probe would).
 */
export async function rememberedAvailability(probe: () => Promise<SandboxAvailability>): Promise<SandboxAvailability> {
  const key = probeKey();
  if (rememberedAvailable(key)) return { available: true };
  const answer = await probe();
  if (answer.available) rememberAvailable(key);
  return answer;
}
