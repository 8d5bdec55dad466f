// Grep: regex search over file contents (ripgrep when installed, a JavaScript fallback otherwise).
import { promises as fs, realpathSync } from 'node:fs';
import { z } from 'zod';
import { permissionEnvOf } from '../permissions/matcher';
import { hiddenPathFilter } from '../permissions/resultFilter';
import { repositoryConfigWithSecret } from '../hostProcess/gitConfigSecrets';
import { buildTool } from '../toolProtocol/Tool';
import {
  GREP_FILE_TYPES,
  runGrep,
  splitGlobs,
  type GrepEngineName,
  type GrepFileHit,
  type GrepMode,
} from './grepEngine';
import { searchRootCheck, underRootCheck } from './fileAccess';
import { isErrno, resolvePath, toDisplayPath, withAbsolutePath } from './paths';

export const GREP_DEFAULT_HEAD_LIMIT = 250;
/** Lines longer than this are cut in content output (the reference uses rg --max-columns 500). */
export const GREP_MAX_LINE_CHARS = 500;

// Plain numbers in the schema, as the reference's; validateInput wants whole numbers >= 0.
const count = (what: string) => z.number().optional().describe(what);
const COUNT_FIELDS = ['-A', '-B', '-C', 'context', 'head_limit', 'offset'] as const;

const inputSchema = z.strictObject({
  pattern: z
    .string()
    .describe(
      'The regular expression to search for in file contents (ripgrep syntax, e.g. "log.*Error", "function\\s+\\w+"). Literal braces need escaping: "interface\\{\\}".',
    ),
  path: z
    .string()
    .optional()
    .describe(
      'File or directory to search in: absolute, or relative to the working directory. Defaults to the working directory.',
    ),
  glob: z
    .string()
    .optional()
    .describe(
      'Glob filter on file paths, e.g. "*.js", "*.{ts,tsx}", "src/**/*.ts", "!*.test.ts" (rg --glob). Several may be separated by spaces.',
    ),
  type: z
    .string()
    .optional()
    .describe(
      'File type to search (rg --type), e.g. js, ts, py, go, rust, java, md, json. More efficient than glob for standard file types.',
    ),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe(
      '"files_with_matches" (default) lists matching files; "content" shows matching lines (supports -A/-B/-C context and -n line numbers); "count" shows the number of matches per file and in total.',
    ),
  '-i': z.boolean().optional().describe('Case-insensitive search (rg -i).'),
  '-n': z.boolean().optional().describe('Show line numbers (rg -n). Content mode only; defaults to true.'),
  '-o': z
    .boolean()
    .optional()
    .describe('Show only the matched parts, one per output line (rg -o). Content mode only; no context lines.'),
  '-A': count('Lines of context to show after each match (rg -A). Content mode only.'),
  '-B': count('Lines of context to show before each match (rg -B). Content mode only.'),
  '-C': count('Lines of context to show before and after each match (rg -C); overrides -A and -B. Content mode only.'),
  context: count('Same as -C (wins over it when both are given).'),
  head_limit: count(
    `Show only the first N entries (lines in content mode, files otherwise), like "| head -N". Defaults to ${GREP_DEFAULT_HEAD_LIMIT}; 0 means no limit (use sparingly).`,
  ),
  offset: count(
    'Skip the first N entries before applying head_limit, like "| tail -n +N+1". Use it to page through long results. Defaults to 0.',
  ),
  multiline: z
    .boolean()
    .optional()
    .describe(
      'Multiline mode: "." matches newlines and a match may span lines (rg -U --multiline-dotall). Default false.',
    ),
});

export type GrepInput = z.infer<typeof inputSchema>;

export interface GrepOutput {
  mode: GrepMode;
  engine: GrepEngineName;
  /** Files with at least one match (every file, not only the shown page). */
  numFiles: number;
  /** files_with_matches: the shown page of paths (relative to cwd when inside it, else absolute). */
  filenames?: string[];
  /** content: the shown page of output lines. count: the shown page of "path:N" lines. */
  lines?: string[];
  /** count: matches in every file, even those cut by head_limit/offset. */
  totalMatches?: number;
  /** Entries before pagination (files, lines or count lines). */
  totalEntries: number;
  appliedOffset: number;
  /** The head_limit in force (0 = none), present when the page is not the whole list. */
  appliedLimit?: number;
  /** Entries exist after the page. */
  hasMore: boolean;
  warnings?: string[];
}

const PROMPT = `A powerful search tool built on ripgrep: searches file contents with a regular expression.

Usage:
- ALWAYS use Grep for content search; do not run grep or rg through Bash.
- Full regex syntax (ripgrep / Rust regex): "log.*Error", "function\\s+\\w+". Literal braces need escaping ("interface\\{\\}" to find "interface{}"). Matches stay within one line unless multiline is true.
- Filter files with glob ("*.js", "**/*.{ts,tsx}") or type ("js", "py", "rust", …).
- output_mode: "files_with_matches" (default) lists matching files, most recently modified first; "content" shows matching lines as path:line:text (context lines as path-line-text, groups separated by "--"); "count" lists path:matches and the total number of matches.
- Results are paginated: head_limit (default ${GREP_DEFAULT_HEAD_LIMIT} entries) and offset; the result says when entries were left out and how to see more. In count mode the total still counts every match.
- Paths are shown relative to the working directory. Files ignored by .gitignore and version-control directories are skipped; hidden files are searched. A glob that names a file explicitly selects it even if .gitignore ignores it (ripgrep's rule).
- Run several searches in one turn when useful: they run concurrently.`;

function entriesWord(mode: GrepMode): string {
  return mode === 'content' ? 'lines' : 'files';
}

export const GrepTool = buildTool<GrepInput, GrepOutput>({
  name: 'Grep',
  inputSchema,
  maxResultSizeChars: 20_000,
  prompt: () => PROMPT,
  summary: (input) =>
    `Grep "${input.pattern}"${input.path ? ` in ${input.path}` : ''}${input.glob ? ` (${input.glob})` : input.type ? ` (type ${input.type})` : ''}`,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  isIdempotent: () => true,
  getPath: (input) => input.path ?? '.',
  observableInput: (input, cwd) => withAbsolutePath(input, 'path', cwd),

  async validateInput(input, ctx) {
    for (const f of COUNT_FIELDS) {
      const v = input[f];
      if (v !== undefined && !(Number.isSafeInteger(v) && v >= 0)) {
        return { result: false, message: `${f} must be a whole number >= 0 (got ${v})`, errorCode: 3 };
      }
    }
    if (input.path !== undefined) {
      try {
        await fs.stat(resolvePath(ctx.agent.cwd, input.path));
      } catch (err) {
        if (isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR')) {
          return { result: false, message: `Path does not exist: ${input.path}`, errorCode: 1 };
        }
        throw err;
      }
    }
    if (input.type !== undefined && !(input.type in GREP_FILE_TYPES)) {
      return {
        result: false,
        message: `Unknown file type "${input.type}". Known types: ${Object.keys(GREP_FILE_TYPES).join(', ')}. Use glob for anything else.`,
        errorCode: 2,
      };
    }
    return { result: true };
  },

  async call(input, ctx) {
    const cwd = ctx.agent.cwd;
    const target = resolvePath(cwd, input.path ?? '.');
    const targetIsFile = (await fs.stat(target)).isFile();
    const mode = input.output_mode ?? 'files_with_matches';
    const around = input.context ?? input['-C'];
    const onlyMatching = mode === 'content' && input['-o'] === true;
    // Only the matches: context lines are not shown with -o.
    const before = onlyMatching ? 0 : (around ?? input['-B'] ?? 0);
    const after = onlyMatching ? 0 : (around ?? input['-A'] ?? 0);
    const result = await runGrep({
      pattern: input.pattern,
      projectDirs: permissionEnvOf(ctx).workingDirectories,
      target,
      targetIsFile,
      mode,
      globs: splitGlobs(input.glob),
      ...(input.type !== undefined ? { typeGlobs: GREP_FILE_TYPES[input.type] ?? [] } : {}),
      caseInsensitive: input['-i'] === true,
      multiline: input.multiline === true,
      ...(onlyMatching ? { onlyMatching } : {}),
      before: mode === 'content' ? before : 0,
      after: mode === 'content' ? after : 0,
      signal: ctx.abortSignal,
      // Bound to the path the permission decision checked (grepRipgrep.ts, grepJs.ts, safeFs.ts).
      access: {
        root: searchRootCheck(ctx, 'Grep', target),
        under: (rootReal) => underRootCheck(ctx, 'Grep', rootReal),
      },
    });

    // Files a Read deny/ask rule covers are never shown (their lines, names or counts).
    const hidden = hiddenPathFilter('Grep', ctx);
    // Nor a repository configuration holding a credential (O12: Read shows it masked).
    const visible = result.hits.filter((h) => !hidden?.(h.path) && !repositoryConfigWithSecret(realOrSelf(h.path)));
    // Most recently modified first (the seed), then by path: the same order for both engines.
    const hits = await sortByMtime(visible);
    const display = (h: GrepFileHit) => toDisplayPath(cwd, h.path);

    let entries: string[];
    let totalMatches: number | undefined;
    if (mode === 'files_with_matches') {
      entries = hits.map(display);
    } else if (mode === 'count') {
      entries = hits.map((h) => `${display(h)}:${h.count}`);
      totalMatches = hits.reduce((sum, h) => sum + h.count, 0);
    } else {
      entries = formatContent(hits, display, input['-n'] !== false, before > 0 || after > 0);
    }

    const offset = input.offset ?? 0;
    const limit = input.head_limit ?? GREP_DEFAULT_HEAD_LIMIT;
    const page = limit === 0 ? entries.slice(offset) : entries.slice(offset, offset + limit);
    const cut = offset + page.length < entries.length;
    const data: GrepOutput = {
      mode,
      engine: result.engine,
      numFiles: hits.length,
      totalEntries: entries.length,
      appliedOffset: offset,
      hasMore: cut,
      ...(cut || offset > 0 ? { appliedLimit: limit } : {}),
      ...(mode === 'files_with_matches' ? { filenames: page } : { lines: page }),
      ...(totalMatches !== undefined ? { totalMatches } : {}),
      ...(result.warnings.length > 0 ? { warnings: result.warnings } : {}),
    };
    return { data };
  },

  mapToolResultToToolResultBlockParam(data, toolUseId) {
    const shown = (data.filenames ?? data.lines ?? []).length;
    let text: string;
    if (data.mode === 'files_with_matches') {
      text =
        data.numFiles === 0
          ? 'No files found'
          : `Found ${data.numFiles} file${data.numFiles === 1 ? '' : 's'}\n${(data.filenames ?? []).join('\n')}`;
    } else if (data.mode === 'count') {
      text =
        data.numFiles === 0
          ? 'No matches found'
          : `${(data.lines ?? []).join('\n')}\n\nFound ${data.totalMatches ?? 0} total occurrence${data.totalMatches === 1 ? '' : 's'} across ${data.numFiles} file${data.numFiles === 1 ? '' : 's'}.`;
    } else {
      text = data.numFiles === 0 ? 'No matches found' : (data.lines ?? []).join('\n');
    }
    if (data.numFiles > 0 && (data.appliedOffset > 0 || data.hasMore)) {
      const word = entriesWord(data.mode);
      const from = data.appliedOffset + 1;
      const to = data.appliedOffset + shown;
      const range = shown === 0 ? `no ${word} (offset ${data.appliedOffset} is past the end)` : `${word} ${from}-${to}`;
      const more = data.hasMore ? ` Use offset: ${to} to see more.` : '';
      const limit = data.appliedLimit ? String(data.appliedLimit) : 'none';
      text += `\n\n[Showing ${range} of ${data.totalEntries} (head_limit: ${limit}, offset: ${data.appliedOffset}).${more}]`;
    }
    if (data.warnings && data.warnings.length > 0)
      text += `\n\n(Some files could not be searched: ${data.warnings.join('; ').slice(0, 500)})`;
    return { type: 'tool_result', tool_use_id: toolUseId, content: text };
  },
});

async function sortByMtime(hits: GrepFileHit[]): Promise<GrepFileHit[]> {
  const times = await Promise.all(
    hits.map(async (h) => {
      try {
        return (await fs.stat(h.path)).mtimeMs;
      } catch {
        return 0;
      }
    }),
  );
  return hits
    .map((h, i) => ({ h, t: times[i] as number }))
    .sort((a, b) => b.t - a.t || (a.h.path < b.h.path ? -1 : a.h.path > b.h.path ? 1 : 0))
    .map((x) => x.h);
}

/** ripgrep's text format: `path:N:line` for matches, `path-N-line` for context, `--` between groups. */
function formatContent(
  hits: GrepFileHit[],
  display: (h: GrepFileHit) => string,
  numbers: boolean,
  withContext: boolean,
): string[] {
  const out: string[] = [];
  let lastFile: string | undefined;
  for (const h of hits) {
    const p = display(h);
    let prevN = -1;
    for (const l of h.lines) {
      if (l.parts) {
        // -o: one entry per match on a matching line.
        for (const part of l.parts) {
          const text =
            part.length > GREP_MAX_LINE_CHARS ? `${part.slice(0, GREP_MAX_LINE_CHARS)} [… line truncated]` : part;
          out.push(numbers ? `${p}:${l.n}:${text}` : `${p}:${text}`);
        }
        continue;
      }
      if (withContext && out.length > 0 && (lastFile !== p || l.n !== prevN + 1)) out.push('--');
      let text = l.text.endsWith('\r') ? l.text.slice(0, -1) : l.text;
      if (text.length > GREP_MAX_LINE_CHARS) text = `${text.slice(0, GREP_MAX_LINE_CHARS)} [… line truncated]`;
      const sep = l.match ? ':' : '-';
      out.push(numbers ? `${p}${sep}${l.n}${sep}${text}` : `${p}${sep}${text}`);
      prevN = l.n;
      lastFile = p;
    }
  }
  return out;
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
