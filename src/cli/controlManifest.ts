// The per-directory manifest of control files: `run` hashes the control files of the session's
// working directories when a session starts and when it ends (followed to its end), and keeps the
// hashes in the user's data directory, outside every working directory. The next `run` in that
// directory compares the files with the previous session's start and names every one that changed
// — during that session (what a session wrote for the next one to load) or after it.
import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { controlPathSet } from '../permissions/controlFiles';
import { hookControlFiles, mcpServerControlFiles } from '../permissions/protectedPaths';
import { hookCommandsOf } from '../hooks/config';
import type { HooksConfig } from '../hooks';
import { stdioCommands } from '../mcp/pins';
import type { McpServers } from '../mcp/config';
import type { HooksJson } from '../workflows/definitions';
import { hashControlFiles, type ControlSnapshot } from '../permissions/controlWrites';
import type { CheckoutControl } from '../sandbox/checkoutControl';

/** The user's data directory (env DURABLE_AGENT_HOME, default ~/.durable-agent): the same base as the store's default. */
export function dataHome(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.DURABLE_AGENT_HOME ?? join(homedir(), '.durable-agent'));
}

export interface ManifestEntry {
  session: string;
  startedAt: string;
  /** path → content hash at the start (absent paths did not exist). */
  start: Record<string, string>;
  /** The files the session's hooks and MCP servers ran (runFilesOf), watched besides the built-in control files. */
  runFiles?: string[];
  endedAt?: string;
  end?: Record<string, string>;
}

interface ManifestFile {
  version: 1;
  dir: string;
  last: ManifestEntry;
}

export interface ControlFileChange {
  path: string;
  change: 'created' | 'modified' | 'deleted';
  /** during: between the previous session's start and end; after: since it ended; unknown: it was not followed to its end. */
  when: 'during' | 'after' | 'unknown';
}

export interface SinceLastSession {
  previous?: ManifestEntry;
  changes: ControlFileChange[];
  /** The control files now: what the next manifest entry records (with the run files it watched). */
  now: ControlSnapshot & { runFiles?: string[] };
}

export function manifestPath(cwd: string, home = dataHome()): string {
  const key = createHash('sha256').update(resolve(cwd)).digest('hex').slice(0, 32);
  return join(home, 'control-manifests', `${key}.json`);
}

const record = (s: ControlSnapshot): Record<string, string> =>
  Object.fromEntries([...s.entries].sort(([a], [b]) => (a < b ? -1 : 1)));

async function readManifest(cwd: string, home: string): Promise<ManifestFile | undefined> {
  let text: string;
  try {
    text = await fs.readFile(manifestPath(cwd, home), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const m = JSON.parse(text) as ManifestFile;
    return m && m.version === 1 && m.last && typeof m.last.start === 'object' ? m : undefined;
  } catch {
    return undefined; // a damaged manifest is replaced by the next start
  }
}

async function writeManifest(cwd: string, home: string, m: ManifestFile): Promise<void> {
  const path = manifestPath(cwd, home);
  await fs.mkdir(join(home, 'control-manifests'), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${randomUUID()}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(m, null, 1)}\n`, { mode: 0o600 });
  await fs.rename(tmp, path);
}

/**
 * The files the session's hooks and stdio MCP servers run (protectedPaths hookControlFiles,
 * mcpServerControlFiles): control files of the manifest too, so that a script rewritten by one
 * session is named before the next one runs it. A package runner's local copy counts even when
 * absent: one planted by a session is named as created.
 */
export function runFilesOf(
  cwd: string,
  dirs: readonly string[],
  hooks: HooksJson | undefined,
  servers: McpServers | undefined,
): string[] {
  const all = [resolve(cwd), ...dirs.map((d) => resolve(d))];
  return [
    ...new Set([
      ...hookControlFiles(hookCommandsOf(hooks as HooksConfig | undefined), cwd, all, undefined, { pins: true }),
      ...mcpServerControlFiles(stdioCommands(servers), cwd, all, undefined, () => true),
    ]),
  ];
}

/** Which control files of `dirs` (cwd first) changed since the previous session in `cwd` started. `runFiles`: runFilesOf. */
export async function controlFilesSinceLastSession(
  cwd: string,
  dirs: readonly string[],
  home = dataHome(),
  runFiles: readonly string[] = [],
): Promise<SinceLastSession> {
  const previous = (await readManifest(cwd, home))?.last;
  // The previous session's run files are compared too (a server dropped from .mcp.json still had its script rewritten);
  // only this session's are recorded. A run file the previous session did not watch has no "before".
  const before = new Set(previous?.runFiles ?? []);
  const current = new Set(runFiles.map((f) => resolve(f)));
  const all = await hashControlFiles(controlPathSet([cwd, ...dirs], [...current, ...before]));
  const notWatchedNow = [...before].filter((f) => !current.has(f));
  const now: ControlSnapshot & { runFiles?: string[] } = {
    entries: new Map([...all.entries].filter(([p]) => !notWatchedNow.includes(p))),
    truncated: all.truncated,
    ...(current.size > 0 ? { runFiles: [...current] } : {}),
  };
  if (!previous) return { now, changes: [] };
  const paths = [...new Set([...Object.keys(previous.start), ...all.entries.keys()])].sort();
  const changes: ControlFileChange[] = [];
  for (const path of paths) {
    const was = previous.start[path];
    const is = all.entries.get(path);
    if (was === is || (was === 'dir' && is === 'dir')) continue;
    if (was === undefined && current.has(path) && !before.has(path)) continue; // newly watched, not new
    const change = was === undefined ? 'created' : is === undefined ? 'deleted' : 'modified';
    const when = !previous.end ? 'unknown' : previous.end[path] !== was ? 'during' : 'after';
    changes.push({ path, change, when });
  }
  // A directory that came or went with its entries is named by its entries.
  const named = changes.filter(
    (c) =>
      !(
        (previous.start[c.path] ?? now.entries.get(c.path)) === 'dir' &&
        changes.some((o) => o !== c && o.path.startsWith(`${c.path}/`))
      ),
  );
  return { previous, changes: named, now };
}

/** The manifest entry of a session that starts now, with the snapshot taken just before it started. */
export async function recordSessionStart(
  cwd: string,
  session: string,
  now: ControlSnapshot & { runFiles?: string[] },
  home = dataHome(),
  at = new Date(),
): Promise<void> {
  await writeManifest(cwd, home, {
    version: 1,
    dir: resolve(cwd),
    last: {
      session,
      startedAt: at.toISOString(),
      start: record(now),
      ...(now.runFiles ? { runFiles: now.runFiles } : {}),
    },
  });
}

/** The end of a session: its control files now (kept only while it is still the last session there). */
export async function recordSessionEnd(
  cwd: string,
  dirs: readonly string[],
  session: string,
  home = dataHome(),
  at = new Date(),
  runFiles: readonly string[] = [],
): Promise<void> {
  const m = await readManifest(cwd, home);
  if (!m || m.last.session !== session) return;
  const end = await hashControlFiles(controlPathSet([cwd, ...dirs], runFiles));
  await writeManifest(cwd, home, { ...m, last: { ...m.last, endedAt: at.toISOString(), end: record(end) } });
}

/** One line per change, as `run` prints them. */
export function changeLines(since: SinceLastSession, cwd: string): string[] {
  const p = since.previous;
  if (!p) return [];
  const when = p.startedAt.slice(0, 16).replace('T', ' ');
  const rel = (path: string): string => (path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path);
  const how = {
    during: 'during that session',
    after: 'after that session ended',
    unknown: 'while that session ran or after it (it was not followed to its end)',
  } as const;
  return since.changes.map(
    (c) =>
      `⚠ ${rel(c.path)} ${c.change === 'modified' ? 'changed' : c.change} since the last session here (${when} UTC, session ${p.session}): ${how[c.when]}`,
  );
}

/** One line per control file a checkout brought (src/sandbox/checkoutControl.ts), as `run` prints them. */
export function checkoutLines(from: CheckoutControl, cwd: string): string[] {
  const r = from.record;
  const rel = (path: string): string => (path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path);
  const by = r
    ? `by the checkout of branch ${r.branch} at ${r.commit.slice(0, 12)} (${r.at.slice(0, 16).replace('T', ' ')} UTC, ${r.by}${r.session ? ` in session ${r.session}` : ''})`
    : 'in this worktree, where no session has run yet';
  return from.changes.map((c) =>
    c.change === 'uncompared'
      ? `⚠ the control directories of ${c.path} hold more entries than are compared (${by}): what lies past the first ones was not compared with the main checkout ${from.mainRoot}`
      : `⚠ ${rel(c.path)} ${c.change === 'modified' ? 'changed' : c.change} ${by}: ${c.change === 'created' ? `the main checkout ${from.mainRoot} does not have it` : c.change === 'deleted' ? `the main checkout's ${c.main} and its rules are not there` : `it differs from the main checkout's ${c.main}`}`,
  );
}
