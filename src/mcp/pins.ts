// The files a stdio MCP server runs from the session's working directories, pinned at the start.
// The worker starts a server outside the sandbox, as its user, when a session first needs it and
// again after the server crashed: a server whose command line names a file the agent could write
// (`node ./server.js`, `./bin/mcp`, `python -m pkg`, `npx tsx ./x.ts`, a local `node_modules`
// copy of an `npx` package) would otherwise run whatever the session wrote there. Those files are
// protected paths of the session (src/permissions/protectedPaths.ts mcpServerControlFiles: the
// file tools ask, the sandbox denies, writes are named); here, their content is recorded when the
// session starts (`pinnedFiles`, in the session input) and checked by the manager before every
// start, so a file changed since then (an approved Write, bypassPermissions, the user) stops the
// server from starting in that session with an error naming the file, instead of running it.
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  lstatSync,
  openSync,
  readSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  type Stats,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { mcpServerControlFiles, type McpServerCommand } from '../permissions/protectedPaths';
import { isRemoteMcpServer, type McpServers, type McpStdioServer } from './config';

/** The stdio servers' command lines (remote servers run nothing here). */
export function stdioCommands(servers: McpServers | undefined): McpServerCommand[] {
  return Object.values(servers ?? {}).flatMap((s) =>
    isRemoteMcpServer(s) ? [] : [{ command: s.command, ...(s.args ? { args: s.args } : {}) }],
  );
}

/** Entries a directory's fingerprint reads at most (a local package, a python package). */
const MAX_TREE_ENTRIES = 2_000;
/** Bytes a fingerprint hashes at most; past it a file counts by size and mtime. */
const MAX_HASHED_BYTES = 64 * 1024 * 1024;

function hashFile(path: string, st: Stats, budget: { bytes: number }): string {
  if (st.size > budget.bytes) return `large:${st.size}:${st.mtimeMs}`;
  budget.bytes -= st.size;
  const h = createHash('sha256');
  // O_NOFOLLOW: the path was a regular file at lstat; a link put there since is not followed.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const buf = Buffer.alloc(1 << 20);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      h.update(buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return `sha256:${h.digest('hex')}`;
}

function treeHash(dir: string, budget: { bytes: number }): string {
  const h = createHash('sha256');
  let left = MAX_TREE_ENTRIES;
  // Deeper than the walk goes: not hashed, so the tree is not vouched for (red team, issue 30).
  let deep = false;
  const walk = (d: string, rel: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(d).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (--left < 0) return;
      const p = join(d, name);
      const r = rel ? `${rel}/${name}` : name;
      let st: Stats;
      try {
        st = lstatSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        h.update(`d ${r}\n`);
        if (depth < 12) walk(p, r, depth + 1);
        else deep = true;
      } else if (st.isSymbolicLink()) {
        // What the link leads to counts, not only its text: a link to a file outside the tree would
        // otherwise let that file change unseen (red team, issue 30). Bounded by the same budget.
        let to: string;
        try {
          const real = realpathSync(p);
          const rst = lstatSync(real);
          to = rst.isFile() ? safe(() => hashFile(real, rst, budget)) : rst.isDirectory() ? 'dir' : 'other';
        } catch {
          to = 'absent';
        }
        h.update(`l ${r} ${safe(() => readlinkSync(p))} ${to}\n`);
      } else if (st.isFile())
        h.update(`f ${r} ${st.mode & 0o111 ? 'x' : '-'} ${safe(() => hashFile(p, st, budget))}\n`);
      else h.update(`o ${r}\n`);
    }
  };
  walk(dir, '', 0);
  return `tree:${h.digest('hex')}${left < 0 || deep ? ':truncated' : ''}`;
}

function safe(f: () => string): string {
  try {
    return f();
  } catch {
    return 'unreadable';
  }
}

/**
 * What a path is now, to compare with a pin: `absent`, a file's sha256 (and whether it is
 * executable), a directory's tree (names, kinds, file hashes; bounded), a link's target and what
 * it leads to.
 */
export function fileFingerprint(path: string, budget = { bytes: MAX_HASHED_BYTES }): string {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch {
    return 'absent';
  }
  if (st.isSymbolicLink()) {
    const target = safe(() => readlinkSync(path));
    let real: string | undefined;
    try {
      real = realpathSync(path);
    } catch {
      real = undefined;
    }
    return `link:${target}:${real === undefined ? 'absent' : fileFingerprint(real, budget)}`;
  }
  if (st.isDirectory()) return treeHash(path, budget);
  if (st.isFile()) return `${st.mode & 0o111 ? 'x' : '-'}${safe(() => hashFile(path, st, budget))}`;
  return 'other';
}

/**
 * The files one stdio server runs from the working directories (cwd: where it is started). The
 * local copy of a package runner's package is included even when absent (a copy planted later is
 * what `npx` would run), unlike in the protected paths, where an absent one would mask `node_modules`.
 */
export function mcpServerFiles(server: McpStdioServer, cwd: string, dirs: readonly string[]): string[] {
  return mcpServerControlFiles(
    [{ command: server.command, ...(server.args ? { args: server.args } : {}) }],
    cwd,
    dirs,
    undefined,
    () => true,
  );
}

/**
 * The servers with the files each one runs from the working directories pinned (`pinnedFiles`:
 * path → fingerprint, absent ones included, so that a file created later is seen too). A server
 * already pinned (a subagent's, a continued session's) keeps its pins. `cwd`: where the worker
 * starts the servers (the session's first working directory).
 */
export function pinMcpServers(servers: McpServers, cwd: string, dirs: readonly string[]): McpServers {
  const out: McpServers = {};
  const roots = [...new Set([cwd, ...dirs].map((d) => resolve(d)))];
  for (const [name, s] of Object.entries(servers)) {
    if (isRemoteMcpServer(s) || s.pinnedFiles) {
      out[name] = s;
      continue;
    }
    const files = mcpServerFiles(s, cwd, roots);
    out[name] =
      files.length > 0 ? { ...s, pinnedFiles: Object.fromEntries(files.map((f) => [f, fileFingerprint(f)])) } : s;
  }
  return out;
}

/** The pinned files that are not what they were when the session started, and how. */
export function changedPins(
  pinned: Record<string, string> | undefined,
): Array<{ path: string; change: 'created' | 'deleted' | 'modified' }> {
  const out: Array<{ path: string; change: 'created' | 'deleted' | 'modified' }> = [];
  for (const [path, was] of Object.entries(pinned ?? {})) {
    const now = fileFingerprint(path);
    // A directory too large to fingerprint whole cannot be vouched for: it counts as changed.
    if (now !== was || now.endsWith(':truncated')) out.push({ path, change: pinChange(was, now) });
  }
  return out;
}

/** How a pinned file changed, for messages (never its content). */
export function pinChange(was: string | undefined, now: string): 'created' | 'deleted' | 'modified' {
  return was === 'absent' ? 'created' : now === 'absent' ? 'deleted' : 'modified';
}
