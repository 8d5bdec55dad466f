// Memory (`CLAUDE.md`) the way the reference (Claude Code 2.1.197) loads it: managed, user
// (`~/.claude/CLAUDE.md`, then `~/.claude/rules/**/*.md`), then every directory from the filesystem
// root down to the working directory (`CLAUDE.md`, `.claude/CLAUDE.md`, `.claude/rules/**/*.md`,
// `CLAUDE.local.md`), each file followed by the files it imports with `@path` (relative to the
// importing file, `~/…` or absolute; at most 4 hops; never inside code spans or fenced blocks; a
// project file's import outside the working directory is not followed). YAML frontmatter and
// block-level HTML comments are dropped from the text; a rule whose frontmatter has `paths:` is
// loaded by the reference only when matching files are read, and is not loaded here. Files closer
// to the working directory come later: the model weighs later instructions more.
//
// Loud configuration (invariant 12): an import that is missing, outside the project, a cycle, or
// beyond the depth limit, and a path-conditional rule, are reported (a warning naming the file),
// never silently dropped.
//
// The loader runs in the worker, outside the sandbox, and what it reads goes to the model: so every
// file is read through a descriptor bound to its real path (src/files/safeFs.ts), and a file whose
// real path is a credential file (the sandbox's list) or is covered by a Read deny rule is never
// read, whatever symlink led there; a project import or rule must really lie inside the working
// directories (a symlink out is not followed, as the reference does not). A file refused is a
// warning naming it, never an error.
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';
import { globToRegex, insideWorkingDirs } from '../permissions/paths';
import { sessionReadClosed } from '../permissions/sessionClosed';
import { isAccessRefused, readFileBoundSync } from '../files/safeFs';

export type MemoryType = 'managed' | 'user' | 'project' | 'local';

export interface MemoryFile {
  path: string;
  /** The kind of the file that brought it in (an import has its importer's kind, as the reference). */
  type: MemoryType;
  content: string;
  /** For imports: the file that imported it. */
  importedBy?: string;
}

export interface LoadedMemory {
  files: MemoryFile[];
  warnings: string[];
}

/**
 * The reference's MAX_INCLUDE_DEPTH: a root file is depth 0 and a file at depth 5 is not read, so
 * an import chain is at most 4 hops long (checked against Claude Code 2.1.197).
 */
export const MAX_IMPORT_DEPTH = 5;
/** The longest import chain that is loaded (root → 4 imports). */
export const MAX_IMPORT_HOPS = MAX_IMPORT_DEPTH - 1;
/** The reference warns above this many characters of memory ("may impact performance"). */
export const LARGE_MEMORY_CHARS = 40_000;

export function claudeConfigDir(): string {
  return process.env.CLAUDE_CONFIG_DIR ? resolve(process.env.CLAUDE_CONFIG_DIR) : join(homedir(), '.claude');
}

export function managedMemoryPath(): string {
  if (process.env.DURABLE_AGENT_MANAGED_MEMORY) return resolve(process.env.DURABLE_AGENT_MANAGED_MEMORY);
  if (process.platform === 'darwin') return '/Library/Application Support/ClaudeCode/CLAUDE.md';
  if (process.platform === 'win32') return 'C:\\ProgramData\\ClaudeCode\\CLAUDE.md';
  return '/etc/claude-code/CLAUDE.md';
}

/** Text with fenced code blocks and inline code spans blanked out (same length, newlines kept). */
export function withoutCode(text: string): string {
  const blank = (s: string): string => s.replace(/[^\n]/g, ' ');
  let out = text.replace(/^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:\n {0,3}\2[^\n]*(?=\n|$)|$)/gm, blank);
  out = out.replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, blank);
  return out;
}

/** Leading YAML frontmatter (`---` … `---`), split off: the reference never shows it to the model. */
export function splitFrontmatter(text: string): { frontmatter?: string; body: string } {
  const m = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return m ? { frontmatter: m[1] as string, body: text.slice(m[0].length) } : { body: text };
}

/** Whether a rule's frontmatter has a non-empty `paths:` (the reference loads such a rule only when matching files are read). */
export function hasPathsCondition(frontmatter: string | undefined): boolean {
  if (frontmatter === undefined) return false;
  const m = /^paths[ \t]*:[ \t]*(.*)$/m.exec(frontmatter);
  if (!m) return false;
  const inline = (m[1] as string).trim();
  if (inline !== '') return !/^(\[\s*\]|""|''|~|null)$/.test(inline);
  // A block list: `paths:` followed by `  - item` lines.
  const after = frontmatter.slice((m.index ?? 0) + m[0].length);
  return /^\n[ \t]*-[ \t]*\S/.test(after);
}

/** Block-level HTML comments (`<!-- … -->` starting a line, outside code) removed, as the reference does. */
export function withoutHtmlComments(text: string): string {
  const code = withoutCode(text);
  let out = '';
  let last = 0;
  const re = /^[ \t]{0,3}<!--[\s\S]*?-->[ \t]*(?:\r?\n|$)/gm;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    // Inside code the blanked text has no `<!--`, so every match is outside code.
    out += text.slice(last, m.index);
    last = m.index + m[0].length;
  }
  return out + text.slice(last);
}

/** What the model sees of a memory file: without frontmatter and block-level HTML comments. */
export function memoryText(raw: string): string {
  return withoutHtmlComments(splitFrontmatter(raw).body);
}

/**
 * The `@path` imports of a memory file's text, in order (not inside code). As the reference: `@`
 * at the start of a line or after whitespace, the path runs to the next whitespace (`\ ` escapes
 * a space), a `#fragment` is dropped; nothing else is trimmed, so `@a.md,` names `a.md,`.
 */
export function importsOf(text: string): string[] {
  const found: string[] = [];
  const re = /(?:^|\s)@((?:[^\s\\]|\\ )+)/g;
  const scan = withoutCode(text);
  for (let m = re.exec(scan); m; m = re.exec(scan)) {
    let p = (m[1] as string).replace(/\\ /g, ' ');
    const hash = p.indexOf('#');
    if (hash !== -1) p = p.slice(0, hash);
    if (!p || p === '/') continue;
    if (!(p.startsWith('./') || p.startsWith('~/') || p.startsWith('/') || /^[A-Za-z0-9._-]/.test(p))) continue;
    found.push(p);
  }
  return found;
}

/** File types the reference never imports into memory (its binary-extension list, Claude Code 2.1.197). */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    'png jpg jpeg gif bmp ico webp tiff tif mp4 mov avi mkv webm wmv flv m4v mpeg mpg mp3 wav ogg flac aac m4a wma aiff opus ' +
    'zip tar gz bz2 7z rar xz z tgz iso exe dll so dylib bin o a obj lib app msi deb rpm pdf doc docx xls xlsx ppt pptx odt ods odp ' +
    'ttf otf woff woff2 eot pyc pyo class jar war ear node wasm rlib sqlite sqlite3 db mdb idx psd ai eps sketch fig xd blend 3ds max ' +
    'swf fla lockb dat data'
  )
    .split(' ')
    .map((e) => `.${e}`),
);

function binaryExtension(path: string): boolean {
  const m = /\.[^./]+$/.exec(path);
  return m !== null && BINARY_EXTENSIONS.has(m[0].toLowerCase());
}

/** A spec that looks like a path (a slash or a file extension), not a mention like `@alice`. */
function looksLikePath(spec: string): boolean {
  return spec.includes('/') || /\.[A-Za-z0-9]+$/.test(spec);
}

/** What reading one memory file came to: its text, nothing there, or a refusal (why). */
type MemoryRead = { text: string } | { missing: true } | { refused: string };

interface ReadPolicy {
  home: string;
  /** The working directories (a project import's real path must lie in them). */
  workingDirectories: readonly string[];
  readDenied?: (abs: string) => boolean;
}

/**
 * Reads a memory file through a bound descriptor (safeFs.ts). `within`: directories its real path
 * must lie in (the working directories for a project import, its own directory for a project rule).
 */
function readMemoryFile(
  path: string,
  policy: ReadPolicy,
  within?: readonly string[],
  projectImport = false,
): MemoryRead {
  let refusal: string | undefined;
  try {
    const closed = sessionReadClosed({ home: policy.home, workingDirectories: policy.workingDirectories });
    const { buf } = readFileBoundSync(path, (real) => {
      const why = closed(real);
      if (why === 'credential') refusal = `it is a credential file (${real})`;
      // What a project file imports from a closed part of HOME (a dot-entry of a working directory
      // that is HOME; HOME under one that is its ancestor) is what the session's sandbox cannot read:
      // not loaded (issue 30, round o, O8: src/permissions/sessionClosed.ts, the file tools' predicate).
      else if (projectImport && why === 'home')
        refusal = `it is in a closed part of the home directory (${real}): the session's own commands cannot read it`;
      else if (policy.readDenied?.(real) || policy.readDenied?.(path)) refusal = `a Read deny rule covers it (${real})`;
      else if (within && !insideWorkingDirs([real], within))
        refusal = `it resolves to ${real}, outside ${within.join(', ')} (as Claude Code, a symlink out of the project is not followed)`;
      return refusal;
    });
    // A byte-order mark (an editor on Windows) is not text (the reference drops it too).
    const text = buf.toString('utf8');
    return { text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  } catch (err) {
    if (isAccessRefused(err)) return { refused: refusal ?? err.message };
    return { missing: true };
  }
}

/** Only whether a regular file is there (followed), nothing read. */
function isFileThere(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function resolveImport(spec: string, from: string, home: string): string {
  if (spec === '~' || spec.startsWith('~/')) return join(home, spec.slice(1));
  return isAbsolute(spec) ? spec : resolve(dirname(from), spec);
}

function inside(path: string, dir: string): boolean {
  const r = relative(dir, path);
  return r === '' || (!r.startsWith(`..${sep}`) && r !== '..' && !isAbsolute(r));
}

/** `.md` files under a rules directory, depth first in directory order (as the reference lists them). */
function ruleFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...ruleFiles(p));
    else if (e.name.endsWith('.md') && (e.isFile() || (e.isSymbolicLink() && isFileThere(p)))) out.push(p);
  }
  return out;
}

/** `base`: for a project rule, the directory whose `.claude/rules` holds it (its real path must stay inside). */
type Candidate = { path: string; type: MemoryType; rule?: boolean; base?: string };

/** The candidate files in discovery order (lowest priority first). */
export function memoryCandidates(cwd: string, opts: MemoryOptions = {}): Candidate[] {
  const configDir = opts.configDir ?? claudeConfigDir();
  const out: Candidate[] = [
    { path: opts.managed ?? managedMemoryPath(), type: 'managed' },
    { path: join(configDir, 'CLAUDE.md'), type: 'user' },
    ...ruleFiles(join(configDir, 'rules')).map((path) => ({ path, type: 'user' as const, rule: true })),
  ];
  const dirs: string[] = [];
  const root = parse(resolve(cwd)).root;
  // From the working directory up to, not including, the filesystem root (as the reference).
  for (let d = resolve(cwd); d !== root; d = dirname(d)) dirs.unshift(d);
  for (const d of dirs) {
    out.push(
      { path: join(d, 'CLAUDE.md'), type: 'project' },
      { path: join(d, '.claude', 'CLAUDE.md'), type: 'project' },
    );
    out.push(
      ...ruleFiles(join(d, '.claude', 'rules')).map((path) => ({
        path,
        type: 'project' as const,
        rule: true,
        base: d,
      })),
    );
    out.push({ path: join(d, 'CLAUDE.local.md'), type: 'local' });
  }
  return out;
}

/** Options of loadMemory: where home, ~/.claude and the managed file are; `excludes` is settings' `claudeMdExcludes`. */
export interface MemoryOptions {
  home?: string;
  configDir?: string;
  managed?: string;
  excludes?: readonly string[];
  /** The session's working directories (default: cwd): project imports and rules must really lie inside them. */
  workingDirectories?: readonly string[];
  /** A Read deny rule covers this path (its real path is asked too): the file is not read. */
  readDenied?: (abs: string) => boolean;
}

/**
 * `claudeMdExcludes`: globs (or absolute paths) matched against a file's absolute path, as the
 * reference (`**` spans directories, dot directories included).
 */
export function excludedBy(patterns: readonly string[]): (path: string) => boolean {
  const res = patterns.map((p) => new RegExp(`^${globToRegex(p)}$`, 's'));
  return (path) => res.some((re) => re.test(path));
}

/** What the reference does with memory that durable-agent does not: its auto memory, a warning on large memory. */
function memoryNotes(project: string, files: readonly MemoryFile[], opts: MemoryOptions): string[] {
  const warnings: string[] = [];
  // Claude Code's auto memory index for this directory: the reference loads it; durable-agent does not (docs/settings.md).
  const auto = join(
    opts.configDir ?? claudeConfigDir(),
    'projects',
    project.replace(/[^A-Za-z0-9]/g, '-'),
    'memory',
    'MEMORY.md',
  );
  if (isFileThere(auto))
    warnings.push(
      `${auto}: Claude Code's auto memory is not loaded by durable-agent (its sessions neither read nor write it)`,
    );
  const chars = files.reduce((n, f) => n + f.content.length, 0);
  if (chars > LARGE_MEMORY_CHARS)
    warnings.push(
      `memory: ${chars} characters of CLAUDE.md files (${files.map((f) => f.path).join(', ')}); above ${LARGE_MEMORY_CHARS} the reference warns that large memory costs context`,
    );
  return warnings;
}

export function loadMemory(cwd: string, opts: MemoryOptions = {}): LoadedMemory {
  const home = opts.home ?? homedir();
  const excluded = excludedBy(opts.excludes ?? []);
  const project = resolve(cwd);
  const files: MemoryFile[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  const policy: ReadPolicy = {
    home,
    workingDirectories: opts.workingDirectories ?? [project],
    ...(opts.readDenied ? { readDenied: opts.readDenied } : {}),
  };
  const refusedWarning = (path: string, why: string, importedBy?: string, spec?: string): string =>
    importedBy ? `${importedBy}: @import ${spec ?? path} is not loaded: ${why}` : `${path}: not loaded: ${why}`;
  /** `within`: directories the file's real path must lie in (a project import or rule). */
  const visit = (
    path: string,
    type: MemoryType,
    depth: number,
    chain: string[],
    importedBy?: string,
    spec?: string,
    within?: readonly string[],
  ): void => {
    // The managed memory (and what it imports) cannot be excluded (as the reference).
    if (type !== 'managed' && excluded(path)) return;
    if (seen.has(path)) {
      if (chain.includes(path))
        warnings.push(
          `${importedBy ?? path}: @import ${path} is a cycle (${[...chain, path].join(' -> ')}); it is loaded once`,
        );
      return;
    }
    const read = readMemoryFile(
      path,
      policy,
      within,
      importedBy !== undefined && type !== 'user' && type !== 'managed',
    );
    if ('missing' in read) {
      if (importedBy && spec !== undefined && looksLikePath(spec))
        warnings.push(`${importedBy}: @import ${path} was not found; it is not loaded`);
      return;
    }
    if ('refused' in read) {
      warnings.push(refusedWarning(path, read.refused, importedBy, spec));
      return;
    }
    const raw = read.text;
    seen.add(path);
    files.push({ path, type, content: memoryText(raw), ...(importedBy ? { importedBy } : {}) });
    // User and managed memory may import any file; a project file only files inside the working
    // directory (the reference asks before following such an import; an unattended run cannot).
    const external = type === 'user' || type === 'managed';
    for (const s of importsOf(withoutHtmlComments(splitFrontmatter(raw).body))) {
      const target = resolveImport(s, path, home);
      if (depth + 1 >= MAX_IMPORT_DEPTH) {
        warnings.push(`${path}: @import ${s} is nested more than ${MAX_IMPORT_HOPS} imports deep; it is not loaded`);
        continue;
      }
      if (binaryExtension(target) && isFileThere(target)) {
        warnings.push(`${path}: @import ${s} is a binary file type; it is not loaded (as Claude Code)`);
        continue;
      }
      if (!external && !inside(target, project) && isFileThere(target)) {
        warnings.push(
          `${path}: @import ${s} is outside the working directory ${project}; it is not loaded (as Claude Code without approval of external imports)`,
        );
        continue;
      }
      // A project import that looks inside but resolves outside (a symlink, or a symlinked
      // directory on the way) is refused on its real path when it is read.
      visit(target, type, depth + 1, [...chain, path], path, s, external ? undefined : policy.workingDirectories);
    }
  };
  for (const c of memoryCandidates(cwd, opts)) {
    if (c.type !== 'managed' && excluded(c.path)) continue;
    // A project rule must really lie in the project: the reference does not read a rule that is a
    // symlink out of it (nor a rules directory that is one). CLAUDE.md and CLAUDE.local.md
    // themselves are followed wherever they lead, as the reference, but never to a credential file.
    const within = c.base === undefined ? undefined : [c.base];
    if (c.rule) {
      const read = readMemoryFile(c.path, policy, within);
      if ('text' in read && !seen.has(c.path) && hasPathsCondition(splitFrontmatter(read.text).frontmatter)) {
        warnings.push(
          `${c.path}: a rule with paths: in its frontmatter is loaded by Claude Code only when matching files are read; durable-agent does not load it`,
        );
        continue;
      }
    }
    visit(c.path, c.type, 0, [], undefined, undefined, within);
  }
  warnings.push(...memoryNotes(project, files, opts));
  return { files, warnings };
}

const DESCRIPTIONS: Record<MemoryType, string> = {
  managed: 'managed policy instructions for all users',
  user: "user's private global instructions for all projects",
  project: 'project instructions, checked into the codebase',
  local: "user's private project instructions, not checked in",
};

/**
 * The memory as the reference hands it to the model: a `<system-reminder>` at the start of the
 * first user message ("claudeMd" user context), one section per file.
 */
export function memoryReminder(files: readonly MemoryFile[]): string {
  if (files.length === 0) return '';
  const sections = files.map((f) => `Contents of ${f.path} (${DESCRIPTIONS[f.type]}):\n\n${f.content.trim()}`);
  return [
    '<system-reminder>',
    "As you answer the user's questions, you can use the following context:",
    '# claudeMd',
    'Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.',
    '',
    sections.join('\n\n'),
    '',
    'IMPORTANT: this context may or may not be relevant to your tasks. You should not respond to this context unless it is highly relevant to your task.',
    '</system-reminder>',
  ].join('\n');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
