// What the person's git hooks run through a package.json (red team o, O6 husky): husky's
// `.husky/pre-commit` is `npm run -s precommit`, so whoever changes `scripts.precommit` runs code at
// the person's next `git commit`. package.json is project code a session edits all the time, and a
// hook that runs the test suite runs project code by design: what is protected is only the
// `scripts.<name>` keys a hook line runs (and the scripts those run in turn, `pre`/`post` too), the
// bins its `npx <name>` runs (the project's own bin of that name comes first), and the files the
// words of those scripts name (`"precommit": "sh scripts/check.sh"`), as for a hook's own words.
// A script runs in the directory the line names (`npm --prefix web run lint`, `yarn --cwd web`,
// `pnpm -C web`) or in every workspace (`--workspaces`, `pnpm -r`, `lerna run`, `turbo run`): those
// keys are watched there, in a workspace a command adds too (red team q, Q5). The task file a line's
// `make` (`just`, `task`) reads — the directory's, or the one `-C`/`-f` names — is protected whole.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { regularText } from '../files/regularText';
import { hookControlFiles, roughWords, RUNNER_FILES } from '../permissions/commandFiles';
import { jsonKey, jsonStrings } from './configText';
import { segmentTest } from './globSegment';
import { NAME_RUNNER_VALUES, NAME_RUNNERS, SHORTHAND, TASK_FILES, TASK_RUNNERS } from './taskRunners';
import { EVERY_MANIFEST, type HookedKeys } from './manifestBins';

/** Package managers whose `run <name>` (yarn, pnpm, bun, @antfu/ni's `nr`: `<name>` too) runs `scripts.<name>`. */
const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'nr']);
/**
 * Programs that run `scripts.<name>` after a word of their own (red team v, V17): Node 22's
 * `node --run <name>` (`--run=<name>` too), Deno 2's `deno task <name>` (a package.json script when
 * deno.json, protected with the line, has no such task).
 */
const SCRIPT_WORDS: Record<string, string> = { node: '--run', nodejs: '--run', deno: 'task' };
/** npm's spellings of `run`. */
const RUN_ALIASES = new Set(['run', 'run-script', 'rum', 'urn']);
/** npm's shortcuts to scripts (`npm test`, `npm t`, `npm restart` runs stop and start too). */
const SHORTCUTS: Record<string, readonly string[]> = {
  t: ['test'],
  tst: ['test'],
  test: ['test'],
  start: ['start'],
  stop: ['stop'],
  restart: ['restart', 'stop', 'start'],
};
/** Runners of a package's bin: `npx x`, `bunx x`, `npm exec x`, `pnpm dlx x`, `yarn dlx x`. */
const BIN_RUNNERS = new Set(['npx', 'bunx', 'nlx']);
const EXEC_WORDS = new Set(['exec', 'x', 'dlx']);
/** How many words after a runner may name a script: `npm run -s y` over-approximated. */
const NAME_WORDS = 3;
/** How many words after a runner are read for its options (`npm --prefix web run -s lint --workspaces`). */
const WINDOW = 8;
const MAX_DEPTH = 4;
/** Options of npm, pnpm, yarn and bun that name the directory the script runs in (npm's `-C` is `--prefix`). */
const DIR_OPTIONS = ['--prefix', '-C', '--cwd', '--dir'];
/** Options that run the script in other workspaces: with a value (a workspace, a filter)… */
const WIDE_VALUE_OPTIONS = ['--workspace', '-w', '--filter', '-F'];
/** …and without one. */
const WIDE_FLAGS = new Set(['--workspaces', '-ws', '--ws', '-r', '--recursive', '--include-workspace-root']);
/** yarn's `workspaces foreach … run <name>` and `workspace <name> <script>`. */
const WIDE_WORDS = new Set(['workspaces', 'workspace']);
/** Monorepo runners that run each workspace's `scripts.<name>`: `lerna run x`, `turbo run x`, `nx run-many -t x`. */
const MONO_RUNNERS = new Set(['lerna', 'turbo', 'nx']);
const MONO_SUBCOMMANDS = new Set(['run', 'run-many', 'affected', 'exec']);
const TARGET_OPTIONS = ['--targets', '--target', '-t'];
/** What one command line runs through package managers and task runners, roughly. */
interface Runs {
  scripts: string[];
  bins: string[];
  /** The directories `--prefix`/`--cwd`/`-C`/`--dir` name (relative to the line's directory). */
  dirs: string[];
  /** A script run in every workspace. */
  wide: boolean;
  /** The task files (Makefile…) the line's task runners read (relative to the line's directory). */
  taskFiles: string[];
  /** Every script may run (a glob of script names: `run-s lint:*`): the whole `scripts` key is watched. */
  allScripts?: boolean;
  /** deno.json's tasks (W5): its `tasks.<name>` run before package.json's `scripts.<name>`. */
  denoTasks?: boolean;
}

/** The value of one of the options `names` at `words[j]` (`--opt v`, `--opt=v`, `-Ov`) and how many words it takes. */
function optionValue(
  words: readonly string[],
  j: number,
  names: readonly string[],
): { value: string; took: number } | undefined {
  const w = words[j]!;
  for (const n of names) {
    if (w === n) return words[j + 1] !== undefined ? { value: words[j + 1]!, took: 2 } : undefined;
    if (w.startsWith(`${n}=`)) return { value: w.slice(n.length + 1), took: 1 };
    if (/^-[A-Za-z]$/.test(n) && w.startsWith(n) && w.length > 2) return { value: w.slice(2), took: 1 };
  }
  return undefined;
}

const withPrePost = (out: string[], name: string) => {
  for (const n of SHORTCUTS[name] ?? [name]) out.push(`pre${n}`, n, `post${n}`);
};

/** `make [-C dir] [-f file] target` (just, task): the file it reads. */
function taskRun(
  words: readonly string[],
  i: number,
  runner: string,
  opts: { dir: string[]; file: string[] },
  out: Runs,
): void {
  let dir = '.';
  let file: string | undefined;
  for (let j = i + 1; j < words.length && j <= i + WINDOW; j++) {
    const d = optionValue(words, j, opts.dir);
    const f = d ? undefined : optionValue(words, j, opts.file);
    if (d) dir = path.join(dir, d.value);
    if (f) file = f.value;
    j += (d ?? f)?.took ? (d ?? f)!.took - 1 : 0;
  }
  for (const name of file !== undefined ? [file] : (TASK_FILES[runner] ?? RUNNER_FILES[runner] ?? []))
    out.taskFiles.push(path.join(dir, name));
}

/** `run-s lint test`, `rushx lint`, `wsrun -c lint`: each word a script (a glob: every script). */
function namesRun(words: readonly string[], i: number, wide: boolean, out: Runs): void {
  if (wide) out.wide = true;
  for (let j = i + 1; j < words.length && j <= i + WINDOW; j++) {
    const w = words[j]!;
    if (w === '--') break;
    const v = optionValue(words, j, NAME_RUNNER_VALUES);
    if (v) j += v.took - 1;
    else if (w.startsWith('-')) continue;
    else if (/[*?[{]/.test(w)) out.allScripts = true;
    else if (w !== '__proto__') withPrePost(out.scripts, w);
  }
}

/** `node --run x`, `node --run=x`, `deno task [--cwd d] x`: the script named after the program's word. */
function wordRun(words: readonly string[], i: number, word: string, out: Runs): void {
  for (let j = i + 1; j < words.length && j <= i + WINDOW; j++) {
    const w = words[j]!;
    let name: string | undefined;
    if (w.startsWith(`${word}=`)) name = w.slice(word.length + 1);
    else if (w === word)
      for (let k = j + 1; k < words.length && k <= j + WINDOW && name === undefined; k++) {
        const d = optionValue(words, k, ['--cwd']);
        if (d) out.dirs.push(d.value);
        if (d) k += d.took - 1;
        else if (!words[k]!.startsWith('-')) name = words[k]!;
      }
    else continue;
    if (name && !name.includes('/') && name !== '__proto__') withPrePost(out.scripts, name);
    return;
  }
}

/** `lerna run x`, `turbo run x` (`turbo x`), `nx run-many -t x,y`, `nx run app:x`: scripts of every workspace. */
function monoRun(words: readonly string[], i: number, out: Runs): void {
  out.wide = true;
  let named = 0;
  for (let j = i + 1; j < words.length && j <= i + WINDOW; j++) {
    const t = optionValue(words, j, TARGET_OPTIONS);
    if (t) {
      for (const name of t.value.split(',')) if (name) withPrePost(out.scripts, name);
      j += t.took - 1;
      continue;
    }
    const w = words[j]!;
    if (w.startsWith('-') || MONO_SUBCOMMANDS.has(w) || named >= NAME_WORDS) continue;
    named++;
    const name = w.slice(w.lastIndexOf(':') + 1);
    if (name && name !== '__proto__') withPrePost(out.scripts, name);
  }
}

/** A package manager's words after it: its positional words, with the directory and workspace options read. */
function packageRun(words: readonly string[], i: number, out: Runs): string[] {
  const next: string[] = [];
  for (let j = i + 1; j < words.length && j <= i + WINDOW; j++) {
    const w = words[j]!;
    if (WIDE_FLAGS.has(w)) {
      out.wide = true;
      continue;
    }
    const dir = optionValue(words, j, DIR_OPTIONS);
    const wide = dir ? undefined : optionValue(words, j, WIDE_VALUE_OPTIONS);
    if (dir) out.dirs.push(dir.value);
    if (wide) out.wide = true;
    // pnpm's `-w` takes no value (the workspace root): what follows may be the script's name.
    if (wide?.took === 2) next.push(wide.value);
    if (dir || wide) {
      j += (dir ?? wide)!.took - 1;
      continue;
    }
    if (!w.startsWith('-')) next.push(w);
  }
  if (WIDE_WORDS.has(next[0] ?? '') && path.basename(words[i]!) === 'yarn') {
    out.wide = true;
    next.shift();
  }
  return next;
}

/** The script names, bins, directories and task files one command line runs, roughly. */
function runsOf(command: string): Runs {
  const { words } = roughWords(command);
  const out: Runs = { scripts: [], bins: [], dirs: [], wide: false, taskFiles: [] };
  for (let i = 0; i < words.length; i++) {
    // `cargo make lint`: cargo-make's own name for its subcommand.
    const runner =
      words[i] === 'make' && path.basename(words[i - 1] ?? '') === 'cargo' ? 'cargo-make' : path.basename(words[i]!);
    const shorthand = SHORTHAND.exec(words[i]!)?.[1];
    if (shorthand !== undefined) namesRun(['', shorthand], 0, false, out);
    if (Object.hasOwn(NAME_RUNNERS, runner)) namesRun(words, i, NAME_RUNNERS[runner]!.wide, out);
    if (runner === 'deno') out.denoTasks = true;
    const task = Object.hasOwn(TASK_RUNNERS, runner) ? TASK_RUNNERS[runner] : undefined;
    if (task) taskRun(words, i, runner, task, out);
    if (MONO_RUNNERS.has(runner)) monoRun(words, i, out);
    if (Object.hasOwn(SCRIPT_WORDS, runner)) wordRun(words, i, SCRIPT_WORDS[runner]!, out);
    if (!SCRIPT_RUNNERS.has(runner) && !BIN_RUNNERS.has(runner)) continue;
    const next = packageRun(words, i, out);
    if (BIN_RUNNERS.has(runner) || EXEC_WORDS.has(next[0] ?? '')) {
      const spec = BIN_RUNNERS.has(runner) ? next[0] : next[1];
      // `@scope/pkg@1.2` → `pkg`: the bin npx runs for a package of that name.
      if (spec)
        out.bins.push(
          spec
            .replace(/^(@[^/]+\/)?([^@]+).*$/, '$2')
            .split('/')
            .pop()!,
        );
      continue;
    }
    for (const w of next.slice(0, NAME_WORDS))
      if (!RUN_ALIASES.has(w) && !w.includes('/') && w !== '__proto__') withPrePost(out.scripts, w);
  }
  return out;
}

/** A package.json as JSON (undefined when it cannot be read). */
function manifestOf(manifest: string): Record<string, unknown> | undefined {
  try {
    // Followed, as npm follows a linked package.json; never a FIFO (files/regularText.ts).
    const j = JSON.parse((regularText(manifest, 4 << 20, { follow: true }) ?? '').replace(/^\uFEFF/, '')) as unknown;
    return j && typeof j === 'object' && !Array.isArray(j) ? (j as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** `dir`'s package.json scripts (none when it cannot be read). */
function scriptsOf(manifest: string): Record<string, unknown> {
  const s = manifestOf(manifest)?.scripts;
  return s && typeof s === 'object' ? (s as Record<string, unknown>) : {};
}

/**
 * `deno task` (red team w, W5): deno runs the `tasks` of the first deno.json / deno.jsonc from the line's
 * directory up (package.json's `scripts` only when it has no such task). Each of those files up to the
 * working directory is protected (absent too: a new one would come first) and every task's command read
 * (`"lint": "sh x.sh"`, `"lint": {"command": "…"}`) as a line run from its directory.
 */
function denoTasks(
  cwd: string,
  within: (d: string) => boolean,
  files: Set<string>,
): { command: string; cwd: string }[] {
  const out: { command: string; cwd: string }[] = [];
  for (let dir = cwd; within(dir); dir = path.dirname(dir)) {
    for (const name of ['deno.json', 'deno.jsonc']) {
      const file = path.join(dir, name);
      files.add(file);
      const body = regularText(file, 4 << 20, { follow: true });
      const tasks = body === undefined ? undefined : jsonKey(body, 'tasks');
      for (const command of jsonStrings(JSON.stringify(tasks ?? null))) out.push({ command, cwd: dir });
    }
    if (dir === path.dirname(dir)) break;
  }
  return out;
}

/** How many workspace directories a hook's `--workspaces` run is followed into (the rest: keys only). */
const MAX_WORKSPACES = 500;

/** The `packages:` globs of a pnpm-workspace.yaml (a list of strings; unreadable: none). */
function pnpmGlobs(file: string): string[] {
  const text = regularText(file, 1 << 20, { follow: true });
  if (text === undefined) return [];
  const out: string[] = [];
  let inPackages = false;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) inPackages = /^packages\s*:/.test(line);
    const m = inPackages ? /^\s+-\s*(['"]?)([^'"#\s]+)\1/.exec(line) : null;
    if (m) out.push(m[2]!);
  }
  return out;
}

/** The globs of a package.json's `workspaces` (an array, or `{packages: [...]}`). */
function workspaceGlobs(manifest: string): string[] {
  const w = manifestOf(manifest)?.workspaces;
  const list = Array.isArray(w) ? w : w && typeof w === 'object' ? (w as { packages?: unknown }).packages : undefined;
  return Array.isArray(list) ? list.filter((g): g is string => typeof g === 'string') : [];
}

/** The existing directories a workspace glob (`packages/*`, `apps/**`, `tools/cli`) matches below `base`. */
function expandGlob(base: string, glob: string, out: Set<string>): void {
  if (glob.startsWith('!')) return;
  const segs = glob.split('/').filter((x) => x !== '' && x !== '.');
  let reads = MAX_WORKSPACES * 10;
  const walk = (dir: string, k: number) => {
    if (out.size >= MAX_WORKSPACES || reads <= 0) return;
    if (k === segs.length) {
      out.add(dir);
      return;
    }
    const seg = segs[k]!;
    if (!/[*?[{]/.test(seg)) return walk(path.join(dir, seg), k + 1);
    let names: fs.Dirent[];
    try {
      reads--;
      names = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (seg === '**') walk(dir, k + 1);
    // Never throws on what the agent wrote (`packages: ['[']`: red team v, V11).
    const matches = segmentTest(seg, '.*', '.');
    for (const d of names)
      if (d.isDirectory() && d.name !== 'node_modules' && !d.name.startsWith('.') && (seg === '**' || matches(d.name)))
        walk(path.join(dir, d.name), seg === '**' ? k : k + 1);
  };
  walk(base, 0);
}

/**
 * For the person's hook lines (`readings`: each command and the directory it runs from), the keys
 * of each package.json a package manager would read there (the directory and those above it, up to
 * a working directory: npm looks upwards; the directory a `--prefix`/`--cwd`/`-C` names; for a run in
 * every workspace, each workspace's and — under EVERY_MANIFEST — any other's, a new one too) and the
 * files the scripts they run name, and the task files a `make`/`just`/`task` there reads; and those
 * scripts' lines with their package's directory (a hook framework they run: hookFrameworks.ts).
 *
 * `absent`: the task files among `files` that are not there now (`GNUmakefile` beside a `Makefile`, a
 * second Rakefile spelling): an empty placeholder would be the file the tool reads first and break the
 * agent's own `make`/`rake`, so they are left creatable and undone when a command makes one.
 */
export function hookPackageRuns(
  readings: readonly { command: string; cwd: string }[],
  roots: readonly string[],
): { keys: Map<string, HookedKeys>; files: string[]; lines: { command: string; cwd: string }[]; absent: string[] } {
  const lines: { command: string; cwd: string }[] = [];
  const keys = new Map<string, { scripts: Set<string>; bins: Set<string>; keys: Set<string> }>();
  const files = new Set<string>();
  const taskFiles = new Set<string>();
  const within = (d: string) => roots.some((r) => d === r || d.startsWith(r + path.sep));
  const entry = (manifest: string) => {
    const k = keys.get(manifest) ?? { scripts: new Set<string>(), bins: new Set<string>(), keys: new Set<string>() };
    keys.set(manifest, k);
    return k;
  };
  // The keys `runs` names in the package.json of `dir`, and what the scripts there run in turn.
  const protectIn = (dir: string, runs: Runs, depth: number) => {
    const manifest = path.join(dir, 'package.json');
    const k = entry(manifest);
    for (const b of runs.bins) k.bins.add(b);
    const scripts = scriptsOf(manifest);
    // A glob of script names (`run-s lint:*`): whichever script a command adds may match it.
    if (runs.allScripts) k.keys.add('scripts');
    for (const s of runs.allScripts ? [...runs.scripts, ...Object.keys(scripts)] : runs.scripts) {
      if (k.scripts.has(s)) continue;
      k.scripts.add(s);
      const line = Object.hasOwn(scripts, s) ? scripts[s] : undefined;
      if (typeof line !== 'string') continue;
      lines.push({ command: line, cwd: dir });
      // npm runs a script from the package's directory. The package.json files node reads for a
      // script (its "type") are left out: their keys that run something are watched here, and the
      // rest of a package.json stays the agent's.
      for (const f of hookControlFiles([{ command: line }], dir, roots, os.homedir(), { runners: false }))
        if (path.basename(f) !== 'package.json') files.add(f);
      if (depth < MAX_DEPTH) visit(line, dir, depth + 1);
    }
  };
  const visit = (command: string, cwd: string, depth: number): void => {
    const runs = runsOf(command);
    for (const f of runs.taskFiles) if (within(path.resolve(cwd, f))) taskFiles.add(path.resolve(cwd, f));
    if (runs.denoTasks)
      for (const line of denoTasks(cwd, within, taskFiles)) {
        lines.push(line);
        for (const f of hookControlFiles([line], line.cwd, roots, os.homedir(), { runners: false })) files.add(f);
        if (depth < MAX_DEPTH) visit(line.command, line.cwd, depth + 1);
      }
    if (runs.scripts.length === 0 && runs.bins.length === 0 && !runs.allScripts) return;
    const workspaces = new Set<string>();
    for (const start of new Set([cwd, ...runs.dirs.map((d) => path.resolve(cwd, d))]))
      for (let dir = start; within(dir); dir = path.dirname(dir)) {
        protectIn(dir, runs, depth);
        if (runs.wide) {
          // Which directories are workspaces is the root's to say: its `workspaces` key, and the
          // workspace files of pnpm and lerna, are the person's too.
          entry(path.join(dir, 'package.json')).keys.add('workspaces');
          for (const f of ['pnpm-workspace.yaml', 'lerna.json']) files.add(path.join(dir, f));
          for (const g of workspaceGlobs(path.join(dir, 'package.json'))) expandGlob(dir, g, workspaces);
          for (const g of pnpmGlobs(path.join(dir, 'pnpm-workspace.yaml'))) expandGlob(dir, g, workspaces);
        }
        if (dir === path.dirname(dir)) break;
      }
    if (!runs.wide) return;
    const every = entry(EVERY_MANIFEST);
    for (const s of runs.scripts) every.scripts.add(s);
    for (const b of runs.bins) every.bins.add(b);
    for (const w of workspaces) if (within(w)) protectIn(w, runs, depth);
  };
  for (const r of readings) visit(r.command, path.resolve(r.cwd), 0);
  const out = new Map<string, HookedKeys>();
  for (const [m, k] of keys)
    out.set(m, {
      scripts: [...k.scripts].sort(),
      bins: [...k.bins].sort(),
      ...(k.keys.size > 0 ? { keys: [...k.keys].sort() } : {}),
    });
  const absent = [...taskFiles].filter((f) => !fs.existsSync(f));
  return { keys: out, files: [...files, ...taskFiles], lines, absent };
}
