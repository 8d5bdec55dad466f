// Where a stdio MCP server starts (red team o, O10). A server the person configured for every
// project (`~/.claude.json`, their settings, a `--mcp-config` outside the project) is most often a
// package runner — `npx -y @scope/server`, `bunx`, `uvx`, `python -m pkg` — and a package runner
// looks the package up from its directory first: npx in the nearest `node_modules` above it, python
// in the directory itself. Started in the project, the person's server would be whatever a session
// planted in the project's `node_modules` — and it gets the server's token (its `env`). So such a
// server starts in a directory no sandboxed command can write and that has no writable ancestor:
// `/`. A server whose command line names a project path by its SHAPE (`./server.js`, `.`,
// `dist/index.js`, `server.js`: never by what exists in the project, which a session can create —
// red team q, Q13) starts in the project as before, but not when the package it runs is found
// inside a working directory, or its runner reads a configuration there that names where packages
// come from (refused, said why). A project's own server (`.mcp.json`) starts in the project.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { McpStdioServer } from './servers';

/** Where the person's servers start: nothing a session writes is there or above it. */
export const NEUTRAL_SERVER_DIRECTORY = '/';

const NODE_RUNNERS = new Set(['npx', 'bunx', 'pnpx']);
/** `<runner> <word>` spellings that run a package's bin like npx: `npm x`, `bun x`, `pnpm dlx`… */
const NODE_RUNNER_WORDS: Record<string, ReadonlySet<string>> = {
  npm: new Set(['exec', 'x']),
  bun: new Set(['x']),
  pnpm: new Set(['dlx', 'exec']),
  yarn: new Set(['dlx', 'exec']),
};
/** Python package runners: they read a `uv.toml` (or `[tool.uv]`) at or above their directory. */
const UV_RUNNERS = new Set(['uvx', 'uv']);
const PYTHONS = /^python(?:\d+(?:\.\d+)?)?$/;

/** `@scope/name[@version]` or `name@version`: a package to fetch, not a path. */
const PACKAGE_SPEC = /^(@[\w.-]+\/)?[\w.-]+@[^/]*$|^@[\w.-]+\/[\w.-]+$/;
/** A bare word that is a script by its extension (`server.js`, `main.py`). */
const SCRIPT_FILE = /^[^/]+\.(?:[cm]?[jt]s|py|sh|rb|pl|php|lua|jar)$/i;

/**
 * Does the command line name a relative path by its shape (the project, as the person meant it:
 * `./server.js`, `.`, `dist/index.js`, `--root=.`, `server.js`)? Never decided by what exists in the
 * project: a session that makes a directory named like the person's package (`@acme/mcp-server`)
 * would move their server into the project (red team q, Q13).
 */
function namesRelativePath(command: string, args: readonly string[]): boolean {
  if (!path.isAbsolute(command) && command.includes('/')) return true;
  return args.some((arg) => {
    const a = /^--?[\w-]+=/.test(arg) ? arg.slice(arg.indexOf('=') + 1) : arg;
    if (a === '.' || a === '..' || /^\.\.?\//.test(a)) return true;
    if (a.startsWith('-') || path.isAbsolute(a) || a.startsWith('~') || /^[a-z][\w+.-]*:/i.test(a)) return false;
    // `dist/index.js`, `build/`: a path; `owner/repo` (npx's GitHub shorthand), `@scope/pkg`: packages.
    if (a.includes('/')) return !PACKAGE_SPEC.test(a) && !a.includes('#') && (/\.\w+$/.test(a) || a.endsWith('/'));
    return SCRIPT_FILE.test(a);
  });
}

/** The npm package (or bin) a node package runner's arguments run: `-p/--package <spec>` or the first word. */
function nodePackage(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-p' || a === '--package') return args[i + 1];
    if (a.startsWith('--package=')) return a.slice('--package='.length);
    if (a === '--') return args[i + 1];
    if (!a.startsWith('-')) return a;
  }
  return undefined;
}

const within = (p: string, dirs: readonly string[]) =>
  dirs.some((d) => p === d || p.startsWith(d.endsWith('/') ? d : `${d}/`));

/** Does this pyproject.toml configure uv (`[tool.uv]`, `[[tool.uv.index]]`)? Unreadable: no. */
function uvSection(file: string): boolean {
  try {
    const st = fs.lstatSync(file);
    return st.isFile() && st.size <= 4 << 20 && /^\s*\[\[?\s*tool\.uv\b/m.test(fs.readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * The file a package runner started in `cwd` would take from a working directory instead of where
 * the person meant (a package in a `node_modules` at or above `cwd`, a python module in `cwd`).
 */
export function plantedPackage(
  command: string,
  args: readonly string[],
  cwd: string,
  workingDirectories: readonly string[],
): string | undefined {
  const base = path.basename(command);
  const candidates: string[] = [];
  const runnerWord = NODE_RUNNER_WORDS[base]?.has(args[0] ?? '') === true;
  if (NODE_RUNNERS.has(base) || runnerWord) {
    const spec = nodePackage(runnerWord ? args.slice(1) : args);
    const name = spec?.replace(/(?!^)@[^/]*$/, '');
    if (name) {
      const bin = name.split('/').pop()!;
      for (let dir = cwd; ; dir = path.dirname(dir)) {
        candidates.push(path.join(dir, 'node_modules', name), path.join(dir, 'node_modules', '.bin', bin));
        if (path.dirname(dir) === dir) break;
      }
    }
  } else if (PYTHONS.test(base)) {
    const m = args.indexOf('-m');
    const mod = m >= 0 ? args[m + 1]?.split('.')[0] : undefined;
    if (mod) candidates.push(path.join(cwd, mod), path.join(cwd, `${mod}.py`));
  } else if (UV_RUNNERS.has(base)) {
    // `uvx pkg` (`uv run`, `uv tool run`): the index and find-links a `uv.toml` or a
    // pyproject's `[tool.uv]` at or above the directory names decide which `pkg` is installed.
    for (let dir = cwd; within(dir, workingDirectories); dir = path.dirname(dir)) {
      candidates.push(path.join(dir, 'uv.toml'));
      const pyproject = path.join(dir, 'pyproject.toml');
      if (uvSection(pyproject)) candidates.push(pyproject);
      if (path.dirname(dir) === dir) break;
    }
  }
  return candidates.find(
    (c) => within(c, workingDirectories) && fs.lstatSync(c, { throwIfNoEntry: false }) !== undefined,
  );
}

/**
 * Where `server` (expanded: `command`, `args`) starts: the project root `cwd` for a project's own
 * server or one whose command line names a project path, else NEUTRAL_SERVER_DIRECTORY. Throws
 * (a message for the person) when it would start in the project and run a package found there.
 */
export function serverDirectory(
  name: string,
  config: Pick<McpStdioServer, 'projectScope'>,
  expanded: Pick<McpStdioServer, 'command' | 'args'>,
  cwd: string,
  workingDirectories: readonly string[],
): string {
  if (config.projectScope) return cwd;
  const args = expanded.args ?? [];
  if (!namesRelativePath(expanded.command, args)) return NEUTRAL_SERVER_DIRECTORY;
  const planted = plantedPackage(expanded.command, args, cwd, workingDirectories);
  if (planted)
    throw new Error(
      `MCP server ${name} was not started: it runs ${expanded.command} in the project, where ${planted} would be run${/(uv|pyproject)\.toml$/.test(planted) ? ' (it decides where the package comes from)' : ''} instead of the package you configured (a working directory's files, which a session can write). Configure it with an absolute path, or in the project's .mcp.json if the project's copy is meant.`,
    );
  return cwd;
}
