// The protected (sensitive) paths: what configures the agent or runs code outside the sandbox later
// (settings, hooks and the scripts they run, MCP and agent definitions, git config and hooks, shell
// and editor start-up files, durable-agent's own files). ONE definition, used by the file tools'
// permission decision (src/permissions/decide.ts), unsandboxed Bash's acceptEdits rule
// (shellPaths.ts), the sandbox's per-call write-deny list (src/sandbox/protect.ts) and the
// control-file reports. Pure: node:path only. Callers pass every form of a path (logical, real,
// physical: paths.ts pathForms) and of the working directories (workingDirForms), so symlinks are
// their business; names are compared case-insensitively (a case-insensitive filesystem holds
// `.Claude/Settings.json` as `.claude/settings.json`).
//
// The list is the reference's (Claude Code 2.1.328, read from its binary: its file tools ask before
// writing a path with one of these directory names anywhere in it, `.config/git`, or one of these
// file names), plus `.durable-agent`, the hook scripts of the session's settings, and the control
// files found by the red team (issue 30, round g) that make a developer tool run a program of the
// file's choosing when the person merely runs the tool there: a toolchain pin naming a path
// (`rust-toolchain.toml`, `.tool-versions`, mise's configs), Mercurial's `.hg/hgrc`, a linter's or
// REPL's start-up file. Project code the person knowingly runs (`build.rs`, `conftest.py`,
// `package.json` scripts, `eslint.config.js`) is not a control file: docs/security.md says why.
// The files a hook or MCP server command runs are found in commandFiles.ts.

import * as path from 'node:path';
import { isInside } from './paths';

export {
  hookControlFiles,
  hookOutputFiles,
  mcpServerControlFiles,
  type HookCommand,
  type McpServerCommand,
} from './commandFiles';

/** A path with a component of one of these names is protected (the whole directory). */
export const PROTECTED_DIRECTORY_NAMES = [
  '.git',
  '.claude',
  '.durable-agent',
  '.vscode',
  '.idea',
  '.husky',
  '.cargo',
  '.devcontainer',
  '.yarn',
  '.mvn',
  '.hg',
  '.mise',
] as const;

/**
 * Component sequences protected wherever they appear: git's XDG configuration directory, mise's
 * project configuration directories (`.config/mise/config.toml`, `.config/mise/conf.d/*.toml`,
 * `mise/config.toml`).
 */
export const PROTECTED_SEQUENCES: readonly (readonly string[])[] = [
  ['.config', 'git'],
  ['.config', 'mise'],
  ['mise', 'config.toml'],
  ['mise', 'config.local.toml'],
];

/**
 * In `.hg` (a Mercurial repository), what runs code: the repository's config (`[hooks]`,
 * `[extensions]` with a path: run by every `hg` command there, `hg status` included), a share's
 * own config, and the pointer to the shared store (whose config runs). The store, the dirstate and
 * the rest stay writable for hg itself.
 */
export const HG_CONTROL_ENTRIES = ['hgrc', 'hgrc-not-shared', 'sharedpath'] as const;

/**
 * lint-staged's configuration files, in its search order (lilconfig, from the directory it runs in up).
 * lint-staged 12+ also reads every one of them anywhere in the work tree (`git ls-files` of
 * `**\/<name>`, searchConfigs.js) and gives each staged file to the deepest one around it (red team u,
 * U2: a `src/app/.lintstagedrc.json` a call made ran at the person's next commit): protected wherever
 * they are, like pre-commit's and lefthook's configurations. `package.json`'s `lint-staged` key is a
 * control key of every manifest (src/sandbox/manifestBins.ts), `package.yaml` a protected name already.
 */
export const LINT_STAGED_CONFIGS = [
  '.lintstagedrc',
  '.lintstagedrc.json',
  '.lintstagedrc.yaml',
  '.lintstagedrc.yml',
  '.lintstagedrc.mjs',
  '.lintstagedrc.js',
  '.lintstagedrc.cjs',
  '.lintstagedrc.ts',
  '.lintstagedrc.mts',
  '.lintstagedrc.cts',
  'lint-staged.config.mjs',
  'lint-staged.config.js',
  'lint-staged.config.cjs',
  'lint-staged.config.ts',
  'lint-staged.config.mts',
  'lint-staged.config.cts',
] as const;

/** A file (or directory) with one of these names is protected wherever it is. */
export const PROTECTED_FILE_NAMES = [
  '.gitconfig',
  '.gitmodules',
  '.bashrc',
  '.bash_profile',
  '.zshrc',
  '.zprofile',
  '.profile',
  '.zshenv',
  '.zlogin',
  '.zlogout',
  '.bash_login',
  '.bash_aliases',
  '.bash_logout',
  '.envrc',
  '.ripgreprc',
  '.mcp.json',
  '.claude.json',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnp.cjs',
  '.pnp.loader.mjs',
  '.pnpmfile.cjs',
  'bunfig.toml',
  '.bunfig.toml',
  '.bazelrc',
  '.bazelversion',
  '.bazeliskrc',
  '.pre-commit-config.yaml',
  'lefthook.yml',
  '.lefthook.yml',
  'lefthook.yaml',
  '.lefthook.yaml',
  'gradle-wrapper.properties',
  'maven-wrapper.properties',
  '.devcontainer.json',
  'pyrightconfig.json',
  // Toolchain pins that can name a program (issue 30, round g): rustup runs `[toolchain] path`'s
  // cargo and rustc; asdf and mise run a `path:` version's programs; mise's configs run hooks,
  // tasks and `_.source` scripts (its own trust prompt aside: a trusted parent directory covers them).
  'rust-toolchain',
  'rust-toolchain.toml',
  '.tool-versions',
  'mise.toml',
  '.mise.toml',
  'mise.local.toml',
  '.mise.local.toml',
  // Start-up files that run code when the tool merely starts there: pylint's `init-hook` and
  // `load-plugins`, mypy's `plugins` (a path to a Python file), pdb's commands (`!` runs Python),
  // irb's and pry's Ruby, R's profile (and its environment, which can name another profile), GHCi's
  // commands, sbt's JVM options (`-javaagent`), Mercurial's user config.
  '.pylintrc',
  'pylintrc',
  '.pylintrc.toml',
  'pylintrc.toml',
  'mypy.ini',
  '.mypy.ini',
  '.pdbrc',
  '.irbrc',
  '.pryrc',
  '.Rprofile',
  '.Renviron',
  '.ghci',
  '.sbtopts',
  '.jvmopts',
  '.hgrc',
  // Declarative configs that make a checker or formatter import a file they name (red team m, M10):
  // prettier's `plugins` (every editor's format-on-save runs it), stylelint's `plugins`, ESLint's
  // legacy configs (`parser`, `plugins`, `rulePaths`), markdownlint-cli2's `customRules`, flake8's
  // `local-plugins` `paths`.
  '.prettierrc',
  '.prettierrc.json',
  '.prettierrc.json5',
  '.prettierrc.yaml',
  '.prettierrc.yml',
  '.prettierrc.toml',
  '.stylelintrc',
  '.stylelintrc.json',
  '.stylelintrc.yaml',
  '.stylelintrc.yml',
  '.eslintrc',
  '.eslintrc.json',
  '.eslintrc.yaml',
  '.eslintrc.yml',
  '.markdownlint-cli2.jsonc',
  '.markdownlint-cli2.yaml',
  '.flake8',
  // pnpm's YAML manifest: prettier reads its `prettier.plugins` (M10b).
  'package.yaml',
  ...LINT_STAGED_CONFIGS,
] as const;

/**
 * The places `npx durable-agent` (the README's usage) looks the program up in before its own cache
 * (red team, issue 30, L11): a package or a bin link of that name in any `node_modules` the person's
 * cwd sees. Protected wherever they appear, whether or not the project depends on durable-agent:
 * the person's next `npx durable-agent …` would run what a session planted there, with the person's
 * environment. Component sequences matched at the END of a path (folded).
 */
export const PROTECTED_TAILS: readonly (readonly string[])[] = [
  ['node_modules', 'durable-agent'],
  ['node_modules', '.bin', 'durable-agent'],
  // What npm exec itself finds by name on the PATH it gives what it starts, `<dir>/node_modules/.bin`
  // first for the cwd and each ancestor (red team m, M7): the shell it runs the bin with (`sh -c`)
  // and the interpreter of a `#!/usr/bin/env node` bin — durable-agent's own. A project that pins
  // Node with the `node` package keeps its `.bin/node`; a session cannot install or change one.
  ...['node', 'nodejs', 'sh', 'bash', 'dash', 'zsh'].map((n) => ['node_modules', '.bin', n]),
  // What the person's hooks run by name with `node_modules/.bin` first on PATH (husky 9's `h`; npm,
  // pnpm, yarn and bun for every script they run): their package managers, git and env (issue 30,
  // known limit L-a: a planted `.bin/npm` ran at the person's `git commit`, past the protected
  // `scripts.<name>` keys its `npm test` names). A project's own packages (lint-staged, eslint) stay
  // its code: what they run lies in node_modules, which the session writes anyway.
  ...['npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'yarnpkg', 'bun', 'bunx', 'corepack', 'git', 'env'].map((n) => [
    'node_modules',
    '.bin',
    n,
  ]),
];

/** The last components of the tails (folded): a cheap first test. */
const TAIL_NAMES = new Set(PROTECTED_TAILS.map((t) => t[t.length - 1]!));

/** Do the components `folded` (folded names) end with a protected tail at index `end` (inclusive)? */
function tailEndsAt(folded: readonly string[], end: number): boolean {
  return PROTECTED_TAILS.some((t) => t.length <= end + 1 && t.every((c, k) => folded[end + 1 - t.length + k] === c));
}

/**
 * Is the entry `name` (folded) of `dir` a `node_modules`, or the `.bin` of one, that as a symlink
 * would lead npx's lookups to a directory no tail names (`node_modules -> nm`, red team m, M14b)?
 * Such a symlink, new, is undone like a protected entry (npm makes neither).
 */
export function isLinkableNpmDir(dir: string, name: string): boolean {
  return name === 'node_modules' || (name === '.bin' && fold(path.basename(dir)) === 'node_modules');
}

/**
 * Is the entry `name` (folded) of directory `dir` the end of a protected tail (`node_modules/durable-agent`,
 * `node_modules/.bin/durable-agent`)? For walks and watches that see one directory entry at a time.
 */
export function isProtectedTailEntry(dir: string, name: string): boolean {
  if (!TAIL_NAMES.has(name)) return false;
  const up = components(dir).slice(-2).map(fold);
  return tailEndsAt([...up, name], up.length);
}

/** File names protected by shape (folded): mise's per-environment configs, `mise.<env>.toml`, `.mise.<env>.local.toml`. */
export const PROTECTED_FILE_PATTERNS: readonly RegExp[] = [/^\.?mise\.[^\\/]+\.toml$/];

/** `.claude/<name>` directories that are ordinary files (the reference's own worktrees). */
const ORDINARY_CLAUDE_SUBDIRS = new Set(['worktrees']);

/** Why each directory name is protected, for the messages. */
const WHY_DIRECTORY: Record<string, string> = {
  '.git': 'git runs its config and hooks',
  '.claude': 'it holds settings, hooks, agent definitions and commands',
  '.durable-agent': "it holds durable-agent's settings",
  '.vscode': 'the editor runs its tasks and settings',
  '.idea': 'the IDE runs its run configurations',
  '.husky': 'it holds git hooks',
  '.cargo': 'cargo runs what its config names',
  '.devcontainer': 'it defines the development container',
  '.yarn': 'yarn runs its releases and plugins',
  '.mvn': 'Maven runs its wrapper and extensions',
  '.hg': "Mercurial runs its config's hooks and extensions",
  '.mise': 'mise runs what its config names',
};

/** The name a case-insensitive filesystem would see (and trailing dots or spaces, which Windows drops). */
function fold(name: string): string {
  return name
    .normalize('NFC')
    .toLowerCase()
    .replace(/[. ]+$/, (m) => (m === name ? m : ''));
}

const DIR_NAMES = new Set<string>(PROTECTED_DIRECTORY_NAMES.map(fold));
const FILE_NAMES = new Set<string>(PROTECTED_FILE_NAMES.map(fold));

/** Is this file name (folded: lower case, NFC) protected wherever it is: a listed name or a listed shape? */
export function isProtectedFileName(folded: string): boolean {
  return FILE_NAMES.has(folded) || PROTECTED_FILE_PATTERNS.some((r) => r.test(folded));
}

/** Is this name (folded) the first component of a protected sequence (`.config`, `mise`)? */
export function isSequenceHead(folded: string): boolean {
  return PROTECTED_SEQUENCES.some((seq) => seq[0] === folded);
}

function components(p: string): string[] {
  return p.split(/[\\/]+/).filter((c) => c !== '' && c !== '.');
}

/** The protected entry a relative list of components leads through: how many components make it, and why. */
function protectedEntry(segs: readonly string[]): { depth: number; why: string } | undefined {
  const folded = segs.map(fold);
  for (let i = 0; i < folded.length; i++) {
    const c = folded[i]!;
    if (DIR_NAMES.has(c)) {
      if (c === '.claude' && i + 1 < folded.length && ORDINARY_CLAUDE_SUBDIRS.has(folded[i + 1]!)) {
        i++; // `.claude/worktrees/…`: checked on from the worktree
        continue;
      }
      return { depth: i + 1, why: WHY_DIRECTORY[c] ?? 'it configures tools that run later' };
    }
    for (const seq of PROTECTED_SEQUENCES) {
      if (seq.every((s, k) => folded[i + k] === s))
        return { depth: i + seq.length, why: `${seq[1] === 'git' ? 'git' : 'mise'} reads its configuration there` };
    }
  }
  for (let i = 0; i < folded.length; i++)
    if (tailEndsAt(folded, i)) return { depth: i + 1, why: "the person's `npx durable-agent` runs it" };
  const last = folded[folded.length - 1];
  if (last !== undefined && isProtectedFileName(last))
    return { depth: -1, why: 'it configures a shell, git or a tool that runs later' };
  return undefined;
}

/** Why a relative list of components is protected by name, or undefined. */
function reasonOfComponents(segs: readonly string[]): string | undefined {
  const e = protectedEntry(segs);
  if (!e) return undefined;
  return `${e.depth < 0 ? segs[segs.length - 1] : segs.slice(0, e.depth).join('/')} is protected: ${e.why}`;
}

/**
 * The protected entry a path inside a repository (`/`-separated, from its top) lies in or is — the
 * directory for a path inside a protected directory (`.claude/settings.json` → `.claude`), the path
 * itself for a protected file name — or undefined when it is not protected by name.
 */
export function protectedRepositoryEntry(rel: string): string | undefined {
  const segs = components(rel);
  const e = protectedEntry(segs);
  if (!e) return undefined;
  return e.depth < 0 ? segs.join('/') : segs.slice(0, e.depth).join('/');
}

export interface ProtectionOptions {
  /**
   * Absolute paths protected besides the built-in names: the scripts and build files the loaded
   * hooks run (hookControlFiles). A path equal to one, or inside one, is protected.
   */
  extra?: readonly string[];
}

/**
 * Why an absolute path is protected, or undefined. `dirs` are the session's working directories
 * (pass every form: workingDirForms). Inside a working directory, the components below it are
 * checked (a working directory that is itself under, say, `~/.cargo` is the user's choice); a path
 * outside every working directory is checked whole. Pass each form of the path (pathForms) and
 * treat it as protected when any form is.
 */
export function protectedReason(p: string, dirs: readonly string[], opts: ProtectionOptions = {}): string | undefined {
  const abs = path.resolve(p);
  for (const e of opts.extra ?? []) {
    const x = path.resolve(e);
    if (isInside(abs, x) || isInside(fold(abs), fold(x)))
      return `${abs} is protected: a hook or an MCP server of this session runs it`;
  }
  const roots = dirs.map((d) => path.resolve(d)).filter((d) => isInside(abs, d));
  if (roots.length === 0) return reasonOfComponents(components(abs));
  // Every working directory that holds it: `/repo/.git/config` is protected even when `/repo/.git` is one too.
  for (const r of roots) {
    const why = reasonOfComponents(components(path.relative(r, abs)));
    if (why) return why;
  }
  return undefined;
}

/** Is the path protected (see protectedReason)? */
export function isProtectedPath(p: string, dirs: readonly string[], opts: ProtectionOptions = {}): boolean {
  return protectedReason(p, dirs, opts) !== undefined;
}

/** Is any of the forms of one path protected? The first reason found. */
export function protectedReasonOfForms(
  forms: readonly string[],
  dirs: readonly string[],
  opts: ProtectionOptions = {},
): string | undefined {
  for (const f of forms) {
    const why = protectedReason(f, dirs, opts);
    if (why) return why;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Concrete control files of a session: what the sandbox denies and what the reports watch.

/**
 * Files durable-agent and the reference read as configuration, relative to a project root (all
 * protected). CLAUDE.md is not: the reference's file tools write it unasked, and it configures
 * nothing that runs.
 */
export const PROJECT_CONTROL_FILES = [
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.durable-agent/settings.json',
  '.mcp.json',
] as const;

/** Directories whose files configure the agent or run code, relative to a project root. */
export const PROJECT_CONTROL_DIRECTORIES = ['.claude', '.durable-agent'] as const;

/**
 * In `.git`, what runs code: the config (core.fsmonitor, core.pager, aliases, filters…), the
 * per-worktree config, the hooks, and the pointer to the common directory (whose config runs).
 * The rest of `.git` (objects, refs, index) stays writable for git itself.
 */
export const GIT_CONTROL_ENTRIES = ['config', 'config.worktree', 'commondir', 'hooks'] as const;

export interface ControlFiles {
  /** Files, existing or not. */
  files: string[];
  /** Directories whose whole content is protected, existing or not. */
  directories: string[];
}

/**
 * The concrete protected paths at each working directory (and the extra paths, e.g. the hook
 * scripts), whether they exist or not: the settings and memory files, `.claude/`,
 * `.durable-agent/`, the other protected directories, `.git`'s config, hooks and pointers, every
 * protected file name. Nested occurrences (a sub-repository's `.git/config`) are found by a scan
 * (src/sandbox/protect.ts), not here.
 */
export function controlFiles(dirs: readonly string[], opts: ProtectionOptions = {}): ControlFiles {
  const files = new Set<string>();
  const directories = new Set<string>();
  for (const d of dirs) {
    const root = path.resolve(d);
    for (const f of PROJECT_CONTROL_FILES) files.add(path.join(root, f));
    for (const f of PROTECTED_FILE_NAMES) files.add(path.join(root, f));
    for (const n of PROTECTED_DIRECTORY_NAMES) if (n !== '.git' && n !== '.hg') directories.add(path.join(root, n));
    for (const seq of PROTECTED_SEQUENCES) directories.add(path.join(root, ...seq));
    for (const g of GIT_CONTROL_ENTRIES) (g === 'hooks' ? directories : files).add(path.join(root, '.git', g));
    for (const h of HG_CONTROL_ENTRIES) files.add(path.join(root, '.hg', h));
  }
  for (const e of opts.extra ?? []) files.add(path.resolve(e));
  return { files: [...files], directories: [...directories] };
}
