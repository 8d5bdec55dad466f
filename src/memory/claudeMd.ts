// Memory (`CLAUDE.md`) the way the reference loads it: managed, user, then every directory from the
// filesystem root down to the working directory (`CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md`),
// each file followed by the files it imports with `@path` (relative to the importing file, `~/…`
// or absolute; at most 5 hops; never inside code spans or fenced blocks). Files closer to the
// working directory come later: the model weighs later instructions more.
//
// Loud configuration (invariant 12): an import that is missing, a cycle, or an import beyond the
// depth limit is reported (a warning naming the file and the import), never silently dropped.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, parse, resolve } from 'node:path';

export type MemoryType = 'managed' | 'user' | 'project' | 'local' | 'import';

export interface MemoryFile {
  path: string;
  type: MemoryType;
  content: string;
  /** For imports: the file that imported it. */
  importedBy?: string;
}

export interface LoadedMemory {
  files: MemoryFile[];
  warnings: string[];
}

/** The reference's limit on nested imports. */
export const MAX_IMPORT_DEPTH = 5;
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

/** The `@path` imports of a memory file's text, in order (not inside code). */
export function importsOf(text: string): string[] {
  const found: string[] = [];
  const re = /(?:^|[\s(])@((?:~\/|\.{1,2}\/|\/)?[A-Za-z0-9_.~\-/]+(?:\\ [A-Za-z0-9_.~\-/]+)*)/g;
  const scan = withoutCode(text);
  for (let m = re.exec(scan); m; m = re.exec(scan)) {
    let p = (m[1] as string).replace(/\\ /g, ' ');
    p = p.replace(/[.,;:!?)]+$/, '');
    // A bare word (`@alice`, `@types`) is not a path: a path has a slash or a file extension.
    if (!p.includes('/') && !/\.[A-Za-z0-9]+$/.test(p)) continue;
    found.push(p);
  }
  return found;
}

function readIfFile(path: string): string | undefined {
  try {
    if (!existsSync(path) || !statSync(path).isFile()) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function resolveImport(spec: string, from: string, home: string): string {
  if (spec === '~' || spec.startsWith('~/')) return join(home, spec.slice(1));
  return isAbsolute(spec) ? spec : resolve(dirname(from), spec);
}

/** The candidate files in discovery order (lowest priority first). */
export function memoryCandidates(cwd: string, opts: { home?: string; configDir?: string; managed?: string } = {}): Array<{ path: string; type: MemoryType }> {
  const configDir = opts.configDir ?? claudeConfigDir();
  const out: Array<{ path: string; type: MemoryType }> = [
    { path: opts.managed ?? managedMemoryPath(), type: 'managed' },
    { path: join(configDir, 'CLAUDE.md'), type: 'user' },
  ];
  const dirs: string[] = [];
  const root = parse(resolve(cwd)).root;
  // From the working directory up to, not including, the filesystem root (as the reference).
  for (let d = resolve(cwd); d !== root; d = dirname(d)) dirs.unshift(d);
  for (const d of dirs) {
    out.push({ path: join(d, 'CLAUDE.md'), type: 'project' }, { path: join(d, '.claude', 'CLAUDE.md'), type: 'project' }, { path: join(d, 'CLAUDE.local.md'), type: 'local' });
  }
  return out;
}

export function loadMemory(cwd: string, opts: { home?: string; configDir?: string; managed?: string } = {}): LoadedMemory {
  const home = opts.home ?? homedir();
  const files: MemoryFile[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  const visit = (path: string, type: MemoryType, depth: number, chain: string[], importedBy?: string): void => {
    const content = readIfFile(path);
    if (content === undefined) {
      if (importedBy) warnings.push(`${importedBy}: @import ${path} was not found; it is not loaded`);
      return;
    }
    if (seen.has(path)) {
      if (chain.includes(path)) warnings.push(`${importedBy ?? path}: @import ${path} is a cycle (${[...chain, path].join(' -> ')}); it is loaded once`);
      return;
    }
    seen.add(path);
    files.push({ path, type, content, ...(importedBy ? { importedBy } : {}) });
    for (const spec of importsOf(content)) {
      const target = resolveImport(spec, path, home);
      if (depth + 1 > MAX_IMPORT_DEPTH) {
        warnings.push(`${path}: @import ${spec} is nested more than ${MAX_IMPORT_DEPTH} imports deep; it is not loaded`);
        continue;
      }
      visit(target, 'import', depth + 1, [...chain, path], path);
    }
  };
  for (const c of memoryCandidates(cwd, opts)) visit(c.path, c.type, 0, []);
  const chars = files.reduce((n, f) => n + f.content.length, 0);
  if (chars > LARGE_MEMORY_CHARS) warnings.push(`memory: ${chars} characters of CLAUDE.md files (${files.map((f) => f.path).join(', ')}); above ${LARGE_MEMORY_CHARS} the reference warns that large memory costs context`);
  return { files, warnings };
}

const DESCRIPTIONS: Record<MemoryType, string> = {
  managed: 'managed policy instructions for all users',
  user: "user's private global instructions for all projects",
  project: 'project instructions, checked into the codebase',
  local: "user's private project instructions, not checked in",
  import: 'imported instructions',
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
