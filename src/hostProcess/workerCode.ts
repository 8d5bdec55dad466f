// The worker's own code on disk (red team, issue 30, H-1): the files the worker, its sandbox runtime
// child and the person's next `npx durable-agent` run. With durable-agent installed in a project
// (`npm i durable-agent`, then `npx durable-agent dev`) they all lie under
// `<project>/node_modules/durable-agent` and `<project>/node_modules/<its dependencies>`, which a
// session's sandboxed Bash could otherwise write. Computed once per process from this file's own
// directory and the package.json files of the durable-agent package and its dependencies (the
// transitive `dependencies` and `optionalDependencies`, resolved as Node resolves them).
import {
  existsSync,
  lstatSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import * as path from 'node:path';

/** One directory (or file) of the worker's own code and its identity when the worker started. */
export interface WorkerCodePath {
  path: string;
  /** `dev:ino` at the first look: a directory renamed away and replaced is not the one the worker runs. */
  identity: string;
}

/**
 * The real path of `p`, or `p`. The kernel's realpath on the resolved form: the same answer as
 * fs.realpathSync (which resolves `..` by text first too) for a fraction of its CPU (it asks each
 * component of the path apart; issue 32: hundreds of paths at every CLI and worker start).
 */
function realOr(p: string): string {
  try {
    return realpathSync.native(path.resolve(p));
  } catch {
    return p;
  }
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** `dev:ino` of a path, or '' when it is absent. */
export function identityOf(p: string): string {
  try {
    const s = statSync(p);
    return `${s.dev}:${s.ino}`;
  } catch {
    return '';
  }
}

/** The durable-agent package root holding `dir` (the nearest package.json named durable-agent), if any. */
export function ownPackageRoot(dir: string = __dirname): string | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    const pkg = readJson(path.join(d, 'package.json'));
    if (pkg?.name === 'durable-agent') return d;
    if (path.dirname(d) === d) return undefined;
  }
}

/** Where Node finds package `name` required from `from` (node_modules of `from` and each ancestor). */
function resolvePackage(name: string, from: string, hasModules: Map<string, boolean>): string | undefined {
  for (let d = from; ; d = path.dirname(d)) {
    // Most directories on the way have no node_modules: asked once per directory, not once per name.
    const nm = path.join(d, 'node_modules');
    let has = hasModules.get(nm);
    if (has === undefined) hasModules.set(nm, (has = existsSync(nm)));
    const candidate = path.join(nm, name);
    if (has && existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(d) === d) return undefined;
  }
}

function dependencyNames(pkg: Record<string, unknown> | undefined): string[] {
  const names = new Set<string>();
  for (const key of ['dependencies', 'optionalDependencies'])
    for (const n of Object.keys((pkg?.[key] as Record<string, string> | undefined) ?? {})) names.add(n);
  return [...names];
}

/**
 * The worker's code paths for the durable-agent package at `root`: its `package.json` and `dist`
 * (what runs; the rest of a checkout is a project like another), the `.bin` link npm makes for its
 * CLI when it lies in a `node_modules`, and the whole root of every package it depends on,
 * transitively (each with its real path too).
 */
/** The node_modules directories of Node's lookup from the worker's code (write-denied, never trusted as programs). */
const lookupDirs = new Set<string>();

export function workerCodePathsOf(root: string): string[] {
  const out = new Set<string>();
  const add = (p: string) => {
    out.add(p);
    out.add(realOr(p));
  };
  add(path.join(root, 'package.json'));
  add(path.join(root, 'dist'));
  // Node looks a bare require from the worker's code up in <root>/node_modules, then in the
  // node_modules of each ancestor. A nested `<root>/node_modules/<dep>` wins over the hoisted copy,
  // and in each of those directories a file `<dep>.js` wins over a dependency's directory without
  // `exports` (red team i, I-1): so each lookup directory is the worker's code as a whole. With
  // durable-agent installed in a project that is `<project>/node_modules` (docs/security.md).
  const lookup: string[] = [];
  for (let d = root; ; d = path.dirname(d)) {
    const nm = path.join(d, 'node_modules');
    if (path.basename(d) !== 'node_modules' && existsSync(nm)) lookup.push(nm);
    if (path.dirname(d) === d) break;
  }
  // An absent <root>/node_modules not inside one of them: denied as absent (an empty placeholder while a command runs).
  if (!lookup.some((nm) => path.join(root, 'node_modules').startsWith(`${nm}${path.sep}`)))
    lookup.push(path.join(root, 'node_modules'));
  for (const nm of lookup) {
    lookupDirs.add(nm).add(realOr(nm));
    add(nm);
  }
  const own = readJson(path.join(root, 'package.json'));
  if (path.basename(path.dirname(root)) === 'node_modules') {
    const bin = own?.bin;
    const names = typeof bin === 'string' ? ['durable-agent'] : Object.keys((bin as Record<string, string>) ?? {});
    for (const n of names) add(path.join(path.dirname(root), '.bin', n));
  }
  const seen = new Set<string>();
  const hasModules = new Map<string, boolean>();
  const queue: Array<[string, string[]]> = [[root, dependencyNames(own)]];
  while (queue.length > 0) {
    const [from, names] = queue.shift()!;
    for (const name of names) {
      const found = resolvePackage(name, from, hasModules);
      if (!found) continue;
      const real = realOr(found);
      if (seen.has(real)) continue;
      seen.add(real);
      add(found);
      queue.push([real, dependencyNames(readJson(path.join(real, 'package.json')))]);
    }
  }
  return [...out];
}

let cached: WorkerCodePath[] | undefined;
/** The `.bin` links npm made for the CLI (`node_modules/.bin/durable-agent`) and their targets then. */
let links: Array<{ path: string; target: string; dirReal: string }> = [];

function compute(root: string | undefined): WorkerCodePath[] {
  const paths = root ? workerCodePathsOf(root) : [];
  links = [];
  for (const p of paths)
    if (path.basename(path.dirname(p)) === '.bin')
      try {
        if (lstatSync(p).isSymbolicLink())
          links.push({ path: p, target: readlinkSync(p), dirReal: realOr(path.dirname(p)) });
      } catch {
        // absent: nothing to keep
      }
  return paths.map((p) => ({ path: p, identity: identityOf(p) }));
}

/** The worker's own code paths (computed once, with their identity then): see workerCodePathsOf. */
export function workerCode(): readonly WorkerCodePath[] {
  cached ??= compute(ownPackageRoot());
  return cached;
}

/**
 * After a sandboxed command: the CLI's `.bin` links put back as the worker found them. A symlink's
 * own entry cannot be write-denied (the sandbox binds its target, which is), and denying the whole
 * `.bin` directory would stop every `npm install`; so a link the command removed or repointed is
 * restored here (the person's next `npx durable-agent` runs the worker's CLI). Returns the paths restored.
 */
export function restoreWorkerLinks(): string[] {
  workerCode();
  const restored: string[] = [];
  for (const l of links) {
    // Only in the very directory the link was found in: a `.bin` (or any parent) swapped for a
    // symlink would lead the removal below anywhere (red team i, I-4).
    if (realOr(path.dirname(l.path)) !== l.dirReal || !isPlainDir(path.dirname(l.path))) continue;
    let now: string | undefined;
    try {
      now = lstatSync(l.path).isSymbolicLink() ? readlinkSync(l.path) : undefined;
    } catch {
      now = undefined;
    }
    if (now === l.target) continue;
    try {
      rmSync(l.path, { recursive: true, force: true });
      symlinkSync(l.target, l.path);
      restored.push(l.path);
    } catch {
      // its directory is gone: nothing runs through it
    }
  }
  return restored;
}

/** A directory, not a symlink to one. */
function isPlainDir(dir: string): boolean {
  try {
    return lstatSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function inside(p: string, dir: string): boolean {
  const r = path.relative(dir, p);
  return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
}

/**
 * The answers of workerCodeInside by the directories' forms (issue 33: every tool call asks twice, and
 * each answer compared every code path of the worker and its dependencies, hundreds, with each
 * directory — ≈ 5 ms of CPU a call). The code paths are fixed for the process, so an answer is a pure
 * function of the forms, which are still worked out (real paths included) on every call.
 */
const insideAnswers = new Map<string, readonly string[]>();
const INSIDE_ANSWERS_MAX = 256;

/** The worker's code paths lying inside one of `dirs` (compared as given and by real path). */
export function workerCodeInside(dirs: readonly string[]): string[] {
  const all = dirs.filter((d) => path.isAbsolute(d)).flatMap((d) => [path.resolve(d), realOr(d)]);
  const key = all.join('\0');
  let answer = insideAnswers.get(key);
  if (!answer) {
    const resolved = all.map((d) => path.resolve(d));
    answer = workerCode()
      .map((c) => c.path)
      .filter((p) => all.some((d, i) => startsWithDir(resolvedOf(p), resolved[i]!) && inside(p, d)));
    if (insideAnswers.size >= INSIDE_ANSWERS_MAX) insideAnswers.clear();
    insideAnswers.set(key, answer);
  }
  return [...answer];
}

/**
 * The worker code path holding `file` (as given or real), if any. A lookup directory as a whole
 * (`<project>/node_modules`) holds other programs too: only the packages resolved in it count.
 */
export function workerCodeHolding(file: string): WorkerCodePath | undefined {
  const forms = [path.resolve(file), path.resolve(realOr(file))];
  // The same three tests as before, the path comparison first (issue 32: every program the door
  // starts asked the real path of each of the worker's hundreds of code paths, ≈ 8 ms of CPU a
  // call); a path holds another only if it starts with it (both resolved), so the text prefix
  // only skips what path.relative would refuse, and the real path is asked of the candidates alone.
  return workerCode().find(
    (c) =>
      forms.some((f) => startsWithDir(f, resolvedOf(c.path)) && inside(f, c.path)) &&
      !lookupDirs.has(c.path) &&
      !lookupDirs.has(realOr(c.path)),
  );
}

/** `p` is `dir` or lies below it by text (both resolved): necessary for inside(p, dir). */
function startsWithDir(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
}

/** path.resolve of the worker's code paths (fixed for the process), kept. */
const resolvedPaths = new Map<string, string>();
function resolvedOf(p: string): string {
  let r = resolvedPaths.get(p);
  if (r === undefined) resolvedPaths.set(p, (r = path.resolve(p)));
  return r;
}
