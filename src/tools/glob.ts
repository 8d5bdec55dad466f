// Glob: file paths matching a glob pattern, most recently modified first.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { hiddenPathFilter } from '../permissions/resultFilter';
import { buildTool } from '../toolProtocol/Tool';
import { expandBraces, globToRegExpSource, splitStaticPrefix } from './globPattern';
import { isErrno, resolvePath, withAbsolutePath } from './paths';
import { searchRootCheck } from './fileAccess';
import { walkFileStats } from './walk';

export const GLOB_MAX_RESULTS = 100;

const inputSchema = z.strictObject({
  pattern: z
    .string()
    .describe(
      'The glob pattern to match file paths against, e.g. "**/*.ts", "src/**/*.{ts,tsx}", "*.md" (top level only).',
    ),
  path: z
    .string()
    .optional()
    .describe(
      'Directory to search in: absolute, or relative to the working directory. Omit it to search the working directory.',
    ),
});

export type GlobInput = z.infer<typeof inputSchema>;

export interface GlobOutput {
  /** Absolute paths, most recently modified first (at most GLOB_MAX_RESULTS). */
  filenames: string[];
  numFiles: number;
  /** Matches before the cap. */
  totalMatches: number;
  truncated: boolean;
  durationMs: number;
}

const PROMPT = `Fast file pattern matching for any codebase size.

Usage:
- Supports glob patterns like "**/*.js", "src/**/*.{ts,tsx}" or "test/unit/tools-*.test.ts": "*" and "?" never cross "/", "**" matches any number of directories, {a,b} gives alternatives, [abc] a character class. The pattern is matched against the whole path relative to the search directory, so "*.ts" only matches files directly in it; use "**/*.ts" to search recursively.
- Returns absolute file paths sorted by modification time, most recently modified first; at most ${GLOB_MAX_RESULTS} are listed (the result says when it is truncated).
- Files ignored by .gitignore, and version-control directories such as .git, are skipped; hidden files are included.
- Use it to find files by name. To search file contents use Grep. You can run several searches in one turn: they run concurrently.`;

/**
 * The directory a pattern really searches, and the pattern relative to it: an absolute pattern's
 * literal prefix and leading `../` steps move the root (walked paths never start with "..").
 * One function for the search and for the permission check, so that both see the same directory.
 */
function splitSearch(
  root: string,
  rawPattern: string,
  join: (dir: string, rel: string) => string,
): { root: string; pattern: string } {
  let pattern = rawPattern.replace(/^(\.\/)+/, '');
  if (path.isAbsolute(pattern)) {
    const { base, rest } = splitStaticPrefix(pattern);
    root = base === '' ? '/' : base;
    pattern = rest;
  }
  while (pattern.startsWith('../')) {
    root = join(root, '..');
    pattern = pattern.slice(3).replace(/^(\.\/)+/, '');
  }
  return { root, pattern };
}

/** Search root (absolute) and root-relative pattern. */
function planSearch(input: GlobInput, cwd: string): { root: string; pattern: string } {
  return splitSearch(resolvePath(cwd, input.path ?? '.'), input.pattern, (dir) => path.dirname(dir));
}

export const GlobTool = buildTool<GlobInput, GlobOutput>({
  name: 'Glob',
  inputSchema,
  maxResultSizeChars: 100_000,
  prompt: () => PROMPT,
  summary: (input) => `Glob "${input.pattern}"${input.path ? ` in ${input.path}` : ''}`,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  isIdempotent: () => true,
  // The directory actually searched: an absolute pattern's literal prefix, and `../` steps of
  // the pattern move it up (so `../../*` is checked as the directory it reads, not as `.`).
  getPath: (input) => splitSearch(input.path ?? '.', input.pattern, path.join).root,
  observableInput: (input, cwd) => withAbsolutePath(input, 'path', cwd),

  async validateInput(input, ctx) {
    if (input.pattern === '') return { result: false, message: 'pattern must not be empty', errorCode: 3 };
    if (input.path === undefined) return { result: true };
    const abs = resolvePath(ctx.agent.cwd, input.path);
    try {
      const stat = await fs.stat(abs);
      if (!stat.isDirectory())
        return { result: false, message: `Path is not a directory: ${input.path}`, errorCode: 2 };
    } catch (err) {
      if (isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR')) {
        return { result: false, message: `Path does not exist: ${input.path}`, errorCode: 1 };
      }
      throw err;
    }
    return { result: true };
  },

  async call(input, ctx) {
    const started = Date.now();
    const { root, pattern } = planSearch(input, ctx.agent.cwd);
    const alternatives = expandBraces(pattern);
    const regex = new RegExp(`^(?:${alternatives.map(globToRegExpSource).join('|')})$`);
    const bases = alternatives.map((alt) => splitStaticPrefix(alt).base);
    // Only walk directories that can lead to a match: on the way to, or below, a literal prefix.
    const descend = (relDir: string): boolean =>
      bases.some((b) => b === '' || b === relDir || b.startsWith(`${relDir}/`) || relDir.startsWith(`${b}/`));

    // Bound to the root the permission decision checked: its real path is judged once it is open,
    // and the walk below never follows a directory swapped for a symlink (walk.ts, safeFs.ts).
    const relOf = (abs: string) => path.relative(root, abs).split(path.sep).join('/');
    const walked = await walkFileStats({
      root,
      signal: ctx.abortSignal,
      descend,
      rootCheck: searchRootCheck(ctx, 'Glob', root),
      statFile: (rel) => regex.test(rel),
    });
    const hidden = hiddenPathFilter('Glob', ctx);
    const withTimes = walked.filter((f) => regex.test(relOf(f.abs)) && !hidden?.(f.abs));
    const matches = withTimes;
    withTimes.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.abs < b.abs ? -1 : a.abs > b.abs ? 1 : 0));
    const filenames = withTimes.slice(0, GLOB_MAX_RESULTS).map((f) => f.abs);
    return {
      data: {
        filenames,
        numFiles: filenames.length,
        totalMatches: matches.length,
        truncated: matches.length > filenames.length,
        durationMs: Date.now() - started,
      },
    };
  },

  mapToolResultToToolResultBlockParam(data, toolUseId) {
    let text = data.numFiles === 0 ? 'No files found' : data.filenames.join('\n');
    if (data.truncated) {
      text += `\n(Results are truncated: showing the ${data.numFiles} most recently modified of ${data.totalMatches} matching files. Use a more specific path or pattern.)`;
    }
    return { type: 'tool_result', tool_use_id: toolUseId, content: text };
  },
});
