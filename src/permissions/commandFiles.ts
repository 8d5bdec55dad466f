// Hook and MCP server commands → the files they run (the control files of a session's hooks and
// stdio MCP servers, protected like its settings: src/permissions/protectedPaths.ts). Pure but for
// reading a script a command names, to follow the scripts it runs in turn.
import * as path from 'node:path';
import { regularText } from '../files/regularText';
import { isInside } from './paths';

/** Task runners: the file each one reads its tasks from (relative to the hook's cwd). */
export const RUNNER_FILES: Record<string, readonly string[]> = {
  npm: ['package.json'],
  npx: ['package.json'],
  pnpm: ['package.json', '.pnpmfile.cjs'],
  yarn: ['package.json', '.yarnrc.yml', '.yarnrc'],
  bun: ['package.json', 'bunfig.toml'],
  bunx: ['package.json'],
  make: ['Makefile', 'makefile', 'GNUmakefile'],
  gmake: ['Makefile', 'makefile', 'GNUmakefile'],
  just: ['justfile', 'Justfile', '.justfile'],
  task: ['Taskfile.yml', 'Taskfile.yaml', 'taskfile.yml'],
  uv: ['pyproject.toml'],
  poetry: ['pyproject.toml'],
  tox: ['tox.ini', 'pyproject.toml'],
  nox: ['noxfile.py'],
  rake: ['Rakefile'],
  gradle: ['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts'],
  './gradlew': ['gradlew', 'build.gradle', 'build.gradle.kts'],
  mvn: ['pom.xml'],
  './mvnw': ['mvnw', 'pom.xml'],
  cargo: ['Cargo.toml', 'build.rs'],
  composer: ['composer.json'],
  deno: ['deno.json', 'deno.jsonc'],
  // Ruby code bundler evaluates before `bundle exec` runs anything; Swift code `swift package` compiles and runs (red team v, V19).
  bundle: ['Gemfile', 'gems.rb', '.bundle/config'],
  swift: ['Package.swift'],
};

const SCRIPT_EXTENSIONS = /\.(sh|bash|zsh|py|js|mjs|cjs|ts|mts|cts|rb|pl|php|lua|ps1|fish)$/i;

/**
 * The words of a command line, roughly (quotes removed, split at spaces and operators):
 * over-approximate on purpose. A quoted word holding a command line (`sh -c "sh x.sh"`) counts
 * with its own words too. `outputs`: the words after `>`/`>>`, files the command writes.
 */
export function roughWords(command: string, depth = 0): { words: string[]; outputs: string[]; programs: string[] } {
  const words: string[] = [];
  const outputs: string[] = [];
  // The first word of each simple command (after an operator; not an assignment): a program.
  const programs: string[] = [];
  let atStart = true;
  let cur = '';
  let quote: string | undefined;
  let quoted = false;
  let outputTarget = false;
  const flush = () => {
    if (cur !== '') {
      (outputTarget ? outputs : words).push(cur);
      if (atStart && !outputTarget && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(cur)) {
        programs.push(cur);
        atStart = false;
      }
      outputTarget = false;
      if (quoted && depth < 3 && /[\s;&|()<>`]/.test(cur)) {
        const inner = roughWords(cur, depth + 1);
        words.push(...inner.words);
        outputs.push(...inner.outputs);
        programs.push(...inner.programs);
      }
    }
    cur = '';
    quoted = false;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < command.length) cur += command[++i];
      else cur += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      quoted = true;
      continue;
    }
    if (c === '\\' && i + 1 < command.length) {
      cur += command[++i];
      continue;
    }
    if (/\s|[;&|()<>`]/.test(c)) {
      flush();
      if (c === '>') outputTarget = true;
      else if (c !== '&' && !/\s/.test(c)) outputTarget = false;
      if (/[;&|(`\n]/.test(c)) atStart = true;
      continue;
    }
    cur += c;
  }
  flush();
  return { words, outputs, programs };
}

export interface HookCommand {
  command: string;
  args?: readonly string[];
}

/** A name after `$CLAUDE_PROJECT_DIR`, `~` and `${VAR:-default}` expansion; undefined when a variable is left. */
function expandWord(raw: string, root: string, home?: string): string | undefined {
  // Hooks run from the project root (issue 30), so $PWD is the root there too.
  let w = raw.replace(/\$\{(CLAUDE_PROJECT_DIR|PWD)\}|\$(CLAUDE_PROJECT_DIR|PWD)\b/g, root);
  if (home) w = w.replace(/\$\{HOME\}|\$HOME\b/g, home);
  // `${VAR:-./server.js}`: the default is a file that may run (over-approximate).
  w = w.replace(/\$\{[A-Za-z_][A-Za-z0-9_]*:-([^}]*)\}/g, '$1');
  if (home && (w === '~' || w.startsWith('~/'))) w = path.join(home, w.slice(1));
  return w.includes('$') ? undefined : w;
}

/** `@scope/name[@version]`: a package to fetch, not a path. */
const SCOPED_PACKAGE = /^@[\w.-]+\/[\w.-]+(@[^/]*)?$/;

/** Programs that run a script with node's module resolution. */
const NODES = /^(node|nodejs|tsx|ts-node|ts-node-esm)$/;

const PYTHONS = /^(python|python3|python3\.\d+|py|pypy|pypy3)$/;

/**
 * The files a command line runs, from its words: every word that names a path (a `/` or a script
 * extension; existing or not) resolved against `root`, a task runner's file (`npm run x` →
 * package.json, `make` → Makefile…), for node the package.json files from a script's directory
 * up to `root`, and the module of `python -m pkg.mod` (`pkg/` and `pkg.py`
 * at `root`: python puts the cwd first on its path).
 */
function commandWordFiles(
  words: readonly string[],
  root: string,
  home: string | undefined,
  add: (p: string) => void,
  runners = true,
): void {
  let node = false;
  for (const [i, raw] of words.entries()) {
    const w = expandWord(raw, root, home);
    if (w === undefined) continue;
    if (NODES.test(path.basename(w))) node = true;
    // `--config=./x.sh`: the value after `=` too.
    const candidates = [w, ...(w.includes('=') ? [w.slice(w.indexOf('=') + 1)] : [])];
    for (const c of candidates) {
      if (c === '' || c.startsWith('-') || SCOPED_PACKAGE.test(c)) continue;
      const name = path.basename(c);
      const runner = RUNNER_FILES[c] ?? RUNNER_FILES[name];
      if (runner && runners) for (const f of runner) add(path.join(root, f));
      if (c.includes('/') || SCRIPT_EXTENSIONS.test(c)) {
        const abs = path.resolve(root, c);
        if (abs !== root) add(abs);
        // node reads the package.json nearest to the script ("type", "imports"): every one from its directory up to root.
        if (node && abs !== root && isInside(abs, root))
          for (let d = path.dirname(abs); isInside(d, root); d = path.dirname(d)) {
            add(path.join(d, 'package.json'));
            if (d === root) break;
          }
      }
    }
    // python -m pkg.mod / -mpkg.mod
    if (PYTHONS.test(path.basename(w))) {
      for (let k = i + 1; k < words.length; k++) {
        const a = words[k]!;
        const mod = a === '-m' ? words[k + 1] : a.startsWith('-m') && a.length > 2 ? a.slice(2) : undefined;
        if (mod !== undefined) {
          const top = mod.split('.')[0]!;
          if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(top)) {
            add(path.join(root, top));
            add(path.join(root, `${top}.py`));
          }
          break;
        }
        if (!a.startsWith('-')) break; // the script: python stops reading options there
      }
    }
  }
}

/**
 * The files a session's command hooks run, resolved against `cwd` (the hooks' cwd) with
 * `$CLAUDE_PROJECT_DIR` expanded: every word that names a path (has a `/` or a script extension;
 * existing or not, so that creating it is caught too) and the task file of a task runner
 * (`npm run x` → package.json, `make` → Makefile…). Paths outside the working directories are
 * left out (not writable anyway); an over-approximation otherwise: protecting one file too many
 * costs an approval, one too few a hook that runs what the agent wrote.
 */
export function hookControlFiles(
  hooks: readonly HookCommand[],
  cwd: string,
  dirs: readonly string[],
  home?: string,
  /**
   * `pins`: for pinning (a hook's outputs left out). `runners: false`: task runners are not followed
   * (`npm run x`, `npx y`, `make`: the person's git hooks, whose `npm test` runs the project's code by
   * design — following it would protect package.json and the test directory from the agent).
   */
  opts: { pins?: boolean; runners?: boolean } = {},
): string[] {
  const out = new Set<string>();
  const root = path.resolve(cwd);
  const add = (p: string) => out.add(p);
  for (const h of hooks) {
    const { words, outputs } = roughWords(h.command);
    const all = [...words, ...(h.args ?? [])];
    commandWordFiles(all, root, home, add, opts.runners !== false);
    if (opts.runners !== false) packageScriptFiles(all, root, home, add);
    // What a hook writes to (`>> log`) is no file it runs: pinning it would refuse the hook once it
    // wrote its own log; it stays protected, so the agent cannot put a link there for the worker to
    // write through (red team, issue 30).
    if (!opts.pins) commandWordFiles(outputs, root, home, add);
  }
  scriptReferences(out, root, home);
  return insideAny([...out], dirs);
}

/**
 * The files a session's command hooks only write to (`> log`, `>> out.json`), never run: protected
 * from the agent (a link planted there would be written through by a hook on the host), writable by
 * the hooks themselves inside the sandbox, where a link leads nowhere the sandbox does not allow.
 * A file a hook also runs is not among them (it stays protected, and pinned).
 */
export function hookOutputFiles(
  hooks: readonly HookCommand[],
  cwd: string,
  dirs: readonly string[],
  home?: string,
): string[] {
  const root = path.resolve(cwd);
  const outputs = new Set<string>();
  for (const h of hooks) commandWordFiles(roughWords(h.command).outputs, root, home, (p) => outputs.add(p));
  const run = new Set(hookControlFiles(hooks, cwd, dirs, home, { pins: true }));
  return insideAny(
    [...outputs].filter((p) => !run.has(p)),
    dirs,
  );
}

/** How deep scriptReferences follows a script into the files it names, and how much it reads of one. */
const SCRIPT_REFERENCE_DEPTH = 3;
const SCRIPT_REFERENCE_MAX_BYTES = 256 * 1024;

/**
 * Adds to `files` what the scripts among them name in their text, transitively: a hook script that
 * sources `scripts/lib.sh` or requires `../lib/rules.js` runs those too (red team, issue 30). The
 * words of each script (a file with a script extension or a `#!` line, up to 256 KB) are read like
 * a command line's and resolved against both the project root and the script's own directory.
 * Over-approximate on purpose: a word that only looks like a path costs an approval at most.
 */
function scriptReferences(files: Set<string>, root: string, home: string | undefined): void {
  const seen = new Set<string>();
  let frontier = [...files];
  for (let depth = 0; depth < SCRIPT_REFERENCE_DEPTH && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const f of frontier) {
      if (seen.has(f)) continue;
      seen.add(f);
      const text = scriptText(f);
      if (text === undefined) continue;
      // Comments out (a `#` that starts a word), and the syntax around a module name made spaces.
      const code = text.replace(/(^|\s)#[^\n]*/g, '$1').replace(/\b(require|import|source)\b|[{},=:+]/g, ' ');
      const { words } = roughWords(code);
      for (const base of new Set([root, path.dirname(f)]))
        commandWordFiles(words, base, home, (p) => {
          if (!files.has(p)) {
            files.add(p);
            next.push(p);
          }
        });
    }
    frontier = next;
  }
}

/** A script's text, when `p` is a regular file that looks like one; undefined otherwise. */
function scriptText(p: string): string | undefined {
  const text = regularText(p, SCRIPT_REFERENCE_MAX_BYTES);
  return text !== undefined && (SCRIPT_EXTENSIONS.test(p) || text.startsWith('#!')) ? text : undefined;
}

/** A package.json read at most (a larger one names no script we follow). */
const PACKAGE_JSON_MAX_BYTES = 64 << 20;

/** Package managers whose `run X` (or `X` for yarn/pnpm/bun) runs the `scripts.X` of package.json. */
const SCRIPT_RUNNERS = /^(npm|pnpm|yarn|bun)$/;

/**
 * The files the package.json scripts a command line runs would run: `npm run lint` → the words of
 * `scripts.lint` (and `prelint`, `postlint`), resolved like a hook's own, recursively for a script
 * that runs another script; and for each bare program name in them, `node_modules/.bin/<name>`
 * (npm puts that directory first on PATH: a program planted there later would run instead).
 */
function packageScriptFiles(
  words: readonly string[],
  root: string,
  home: string | undefined,
  add: (p: string) => void,
  depth = 0,
): void {
  if (depth > 4) return;
  let scripts: Record<string, unknown> | undefined;
  const load = () => {
    if (scripts) return scripts;
    try {
      const text = regularText(path.join(root, 'package.json'), PACKAGE_JSON_MAX_BYTES) ?? '{}';
      const pkg = JSON.parse(text) as { scripts?: unknown };
      scripts = pkg.scripts && typeof pkg.scripts === 'object' ? (pkg.scripts as Record<string, unknown>) : {};
    } catch {
      scripts = {};
    }
    return scripts;
  };
  for (let i = 0; i < words.length; i++) {
    const runner = path.basename(words[i]!);
    if (!SCRIPT_RUNNERS.test(runner) && runner !== 'npx') continue;
    let j = i + 1;
    while (j < words.length && words[j]!.startsWith('-')) j++;
    let name = words[j];
    if (runner !== 'npx' && (name === 'run' || name === 'run-script')) {
      j++;
      while (j < words.length && words[j]!.startsWith('-')) j++;
      name = words[j];
    }
    if (name === undefined) continue;
    if (runner === 'npx') {
      add(path.join(root, 'node_modules', '.bin', path.basename(name)));
      continue;
    }
    for (const key of [`pre${name}`, name, `post${name}`]) {
      const line = load()[key];
      if (typeof line !== 'string') continue;
      const { words: inner, programs } = roughWords(line);
      commandWordFiles(inner, root, home, add);
      for (const w of programs)
        if (/^[A-Za-z0-9][\w.-]*$/.test(w) && !SHELL_WORDS.has(w)) add(path.join(root, 'node_modules', '.bin', w));
      packageScriptFiles(inner, root, home, add, depth + 1);
    }
  }
}

/** Shell builtins and keywords a package script names that are no program in node_modules/.bin. */
const SHELL_WORDS = new Set([
  'cd',
  'echo',
  'exit',
  'export',
  'set',
  'test',
  'true',
  'false',
  'if',
  'then',
  'fi',
  'do',
  'done',
]);

function insideAny(paths: readonly string[], dirs: readonly string[]): string[] {
  return paths.filter((p) => dirs.some((d) => isInside(p, path.resolve(d))));
}

/** A stdio MCP server's command line, as configured (`command` is run as one word, without a shell). */
export interface McpServerCommand {
  command: string;
  args?: readonly string[];
}

/** Package runners of MCP configurations: `npx pkg`, `bunx pkg`, `pnpm dlx pkg`, `yarn dlx pkg`, `npm exec pkg`. */
function runnerPackage(words: readonly string[]): { pkg: string; bin: string } | undefined {
  const name = path.basename(words[0] ?? '');
  let i = 1;
  if (name === 'pnpm' || name === 'yarn') {
    if (words[1] !== 'dlx') return undefined;
    i = 2;
  } else if (name === 'npm') {
    if (words[1] !== 'exec' && words[1] !== 'x') return undefined;
    i = 2;
  } else if (name !== 'npx' && name !== 'bunx') return undefined;
  let pkg: string | undefined;
  for (; i < words.length; i++) {
    const a = words[i]!;
    if (a === '--') continue;
    if (a === '-p' || a === '--package') {
      pkg ??= words[++i];
      continue;
    }
    if (a.startsWith('--package=')) {
      pkg ??= a.slice('--package='.length);
      continue;
    }
    if (a.startsWith('-')) continue;
    const spec = pkg ?? a;
    const bare = spec.startsWith('@') ? spec.split('@').slice(0, 2).join('@') : spec.split('@')[0]!;
    const bin = pkg !== undefined ? a : (bare.split('/').pop() ?? bare);
    return /^(@[\w.-]+\/)?[\w.-]+$/.test(bare) ? { pkg: bare, bin } : undefined;
  }
  return undefined;
}

/**
 * The files the session's stdio MCP servers run, resolved against `cwd` (where the worker starts
 * them): like hookControlFiles, from the words of `command` and `args` (each one word, as no shell
 * runs them; an argument with spaces split into words too), and for a package runner (`npx -y @scope/server`) the copy a local install would
 * run instead (`node_modules/@scope/server`, `node_modules/.bin/server`) when `exists` says it is
 * there (an absent one is left out: denying it would make `node_modules` itself unwritable). Only
 * paths inside the working directories.
 */
export function mcpServerControlFiles(
  servers: readonly McpServerCommand[],
  cwd: string,
  dirs: readonly string[],
  home?: string,
  exists: (p: string) => boolean = () => false,
): string[] {
  const out = new Set<string>();
  const root = path.resolve(cwd);
  for (const s of servers) {
    const words = [s.command, ...(s.args ?? [])];
    // An argument with spaces may be a shell line (`sh -c "exec ./run.sh"`): its words count too.
    commandWordFiles(
      [...words, ...(s.args ?? []).filter((a) => /\s/.test(a)).flatMap((a) => roughWords(a).words)],
      root,
      home,
      (p) => out.add(p),
    );
    const r = runnerPackage(words);
    if (r) {
      for (const p of [path.join(root, 'node_modules', r.pkg), path.join(root, 'node_modules', '.bin', r.bin)])
        if (exists(p)) out.add(p);
    }
  }
  return insideAny([...out], dirs);
}
