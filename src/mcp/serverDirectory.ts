// Where a stdio MCP server starts (red team o, O10). A server the person configured for every
// project (`~/.claude.json`, their settings, a `--mcp-config` outside the project) is most often a
// package runner — `npx -y @scope/server`, `bunx`, `uvx`, `python -m pkg` — and a package runner
// looks the package up from its directory first: npx in the nearest `node_modules` above it, python
// in the directory itself. Started in the project, the person's server would be whatever a session
// planted in the project's `node_modules` — and it gets the server's token (its `env`). So such a
// server starts in a directory no sandboxed command can write and that has no writable ancestor:
// `/`. A server whose command line names a project path (`./server.js`, `.`: the person points it
// at the project, `server.js` when the project has one) starts in the project as before, but not when the package it runs is found inside
// a working directory (refused, said why). A project's own server (`.mcp.json`) starts in the project.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { McpStdioServer } from './servers';

/** Where the person's servers start: nothing a session writes is there or above it. */
export const NEUTRAL_SERVER_DIRECTORY = '/';

const NODE_RUNNERS = new Set(['npx', 'bunx', 'pnpx']);
const PYTHONS = /^python(?:\d+(?:\.\d+)?)?$/;

/**
 * Does the command line name a relative path (the project, as the person meant it: `./server.js`,
 * `.`, `server.js` when the project has it)? A name a session created only moves the server into the
 * project, where the planted-package check below applies.
 */
function namesRelativePath(command: string, args: readonly string[], cwd: string): boolean {
  if (!path.isAbsolute(command) && command.includes('/')) return true;
  return args.some(
    (a) =>
      a === '.' ||
      a === '..' ||
      /^\.\.?\//.test(a) ||
      /=\.\.?(?:\/|$)/.test(a) ||
      (!a.startsWith('-') && !path.isAbsolute(a) && a.length < 4096 && fs.existsSync(path.join(cwd, a))),
  );
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
  if (NODE_RUNNERS.has(base) || (base === 'npm' && args[0] === 'exec') || (base === 'pnpm' && args[0] === 'dlx')) {
    const spec = nodePackage(base === 'npm' || base === 'pnpm' ? args.slice(1) : args);
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
  if (!namesRelativePath(expanded.command, args, cwd)) return NEUTRAL_SERVER_DIRECTORY;
  const planted = plantedPackage(expanded.command, args, cwd, workingDirectories);
  if (planted)
    throw new Error(
      `MCP server ${name} was not started: it runs ${expanded.command} in the project, where ${planted} would be run instead of the package you configured (a working directory's files, which a session can write). Configure it with an absolute path, or in the project's .mcp.json if the project's copy is meant.`,
    );
  return cwd;
}
