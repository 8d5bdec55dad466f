// The ripgrep Grep engine: `rg --json` with the reference's flags, parsed into structured hits.
//
// Bound to what the permission decision checked (src/files/safeFs.ts): the target is opened here
// and its real path judged, and rg is pointed at that descriptor (its cwd is
// `/proc/<pid>/fd/<dir>`, or its file argument `/proc/<pid>/fd/<file>`), so it searches the very
// directory or file that was checked. Below the root rg opens files by name and could be raced
// (a directory swapped for a symlink between its readdir and its open), so nothing it reports is
// believed: every hit's lines are compared, byte for byte at their offsets, with the file read
// again through a bound descriptor whose real path must lie under the root. A hit that does not
// match what is really there is dropped silently, never shown nor counted: what rg read through a
// swap may come from outside the root (a credential), so whether such a hit existed is itself
// content from outside the wall. For the same reason rg's own failures are judged after the
// check, on the verified hits, never on what rg printed. rg is never told to follow symlinks
// (no --follow).
import { startHostProcess } from '../hostProcess/door';
import * as path from 'node:path';
import {
  hasProcFd,
  isAccessRefused,
  openDirBound,
  openFileBound,
  readFileBound,
  type BoundDir,
  type BoundFile,
} from '../files/safeFs';
import { VCS_DIRECTORIES } from './gitignore';
import { throwIfAborted } from './paths';
import {
  GrepPatternError,
  OPEN_ACCESS,
  type GrepEngineResult,
  type GrepFileHit,
  type GrepLine,
  type GrepQuery,
} from './grepTypes';

export function ripgrepCommand(): string {
  return process.env.DURABLE_AGENT_RG_PATH || 'rg';
}

// ---------------------------------------------------------------------------------------------
// ripgrep

const RG_MAX_STDOUT_BYTES = 64 * 1024 * 1024;

function rgArgs(q: GrepQuery, target: string): string[] {
  const args = [
    '--no-config',
    // Respect .gitignore even outside a git repository, and nothing else (no global gitignore,
    // no .git/info/exclude, no .ignore/.rgignore): exactly what the JavaScript engine does.
    '--no-require-git',
    '--no-ignore-global',
    '--no-ignore-exclude',
    '--no-ignore-dot',
    '--hidden',
    '--no-messages',
    '--color',
    'never',
    q.caseInsensitive ? '--ignore-case' : '--case-sensitive',
  ];
  if (q.multiline) args.push('--multiline', '--multiline-dotall');
  if (q.typeGlobs && q.typeGlobs.length > 0) {
    for (const g of q.typeGlobs) args.push('--type-add', `agentsel:${g}`);
    args.push('--type', 'agentsel');
  }
  for (const g of q.globs) args.push('--glob', g);
  for (const d of VCS_DIRECTORIES) args.push('--glob', `!${d}`);
  // JSON in every mode: each hit carries its lines and their byte offsets, which are checked
  // against the file itself before anything is shown. A file list needs only the first match.
  args.push('--json');
  if (q.mode === 'files_with_matches') args.push('--max-count', '1');
  if (q.mode === 'content') {
    if (q.before > 0) args.push('--before-context', String(q.before));
    if (q.after > 0) args.push('--after-context', String(q.after));
  }
  args.push('--regexp', q.pattern, '--', target);
  return args;
}

type RgText = { text?: string; bytes?: string };

function rgBytes(v: RgText | undefined): Buffer {
  if (!v) return Buffer.alloc(0);
  return typeof v.text === 'string' ? Buffer.from(v.text, 'utf8') : Buffer.from(v.bytes ?? '', 'base64');
}

function stripTerminator(s: string): string {
  return s.endsWith('\n') ? s.slice(0, -1) : s;
}

/** One file's report from rg: its match/context blocks and its match count. */
interface RgFileReport {
  blocks: Array<{
    offset: number;
    bytes: Buffer;
    first: number;
    match: boolean;
    /** The block's submatches: byte start within the block, and the matched text. */
    subs: Array<{ start: number; text: string }>;
  }>;
  matches: number;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Does every block rg reported stand at its offset in `content` (rg drops a UTF-8 byte-order mark)? */
function reportMatches(report: RgFileReport, content: Buffer): boolean {
  const text = content.subarray(0, 3).equals(UTF8_BOM) ? content.subarray(3) : content;
  return report.blocks.every(
    (b) => b.offset >= 0 && text.subarray(b.offset, b.offset + b.bytes.length).equals(b.bytes),
  );
}

export async function runRipgrep(q: GrepQuery): Promise<GrepEngineResult> {
  throwIfAborted(q.signal);
  const access = q.access ?? OPEN_ACCESS;
  const viaProc = await hasProcFd();
  // The target, opened and judged once; rg searches the descriptor.
  let file: BoundFile | undefined;
  let dir: BoundDir | undefined;
  let cwd: string;
  let target: string;
  if (q.targetIsFile) {
    file = await openFileBound(q.target, access.root);
    cwd = path.dirname(q.target);
    target = viaProc ? `/proc/${process.pid}/fd/${file.fh.fd}` : file.real;
  } else {
    dir = await openDirBound(q.target, access.root);
    // Override globs are relative to rg's working directory: run it in the searched directory.
    cwd = viaProc ? `/proc/${process.pid}/fd/${dir.fh.fd}` : dir.real;
    target = '.';
  }
  try {
    const reports = await spawnRipgrep(q, cwd, target);
    const warnings: string[] = [];
    const under = access.under(file ? file.real : (dir as BoundDir).real);
    const hits: GrepFileHit[] = [];
    // Dropped without a trace: what rg saw through a swap may be a name or content from outside the root.
    for (const [rel, report] of reports.files) {
      const abs = file ? q.target : path.resolve(q.target, rel);
      let content: Buffer;
      try {
        content = file ? await file.fh.readFile() : (await readFileBound(abs, under)).buf;
      } catch (err) {
        if (
          !isAccessRefused(err) &&
          !['ENOENT', 'ENOTDIR', 'EISDIR', 'ENOTREG', 'EACCES'].includes((err as NodeJS.ErrnoException).code ?? '')
        )
          throw err;
        continue;
      }
      if (!reportMatches(report, content)) continue;
      const hit: GrepFileHit = { path: abs, count: q.mode === 'count' ? report.matches : 0, lines: [] };
      if (q.mode === 'content') {
        const lines = new Map<number, GrepLine>();
        for (const b of report.blocks) {
          stripTerminator(b.bytes.toString('utf8'))
            .split('\n')
            .forEach((text, i) => {
              const n = b.first + i;
              const prev = lines.get(n);
              lines.set(n, {
                n,
                text,
                match: b.match || (prev?.match ?? false),
                ...(q.onlyMatching ? { parts: prev?.parts ?? [] } : {}),
              });
            });
          if (q.onlyMatching) {
            for (const s of b.subs) {
              if (s.text === '') continue;
              let n = b.first;
              for (let k = b.bytes.indexOf(10); k !== -1 && k < s.start; k = b.bytes.indexOf(10, k + 1)) n++;
              lines.get(n)?.parts?.push(s.text);
            }
          }
        }
        hit.lines = [...lines.values()].sort((a, b) => a.n - b.n);
      }
      hits.push(hit);
    }
    if (reports.code === 2) {
      // Judged on the verified hits only: whether rg printed anything may depend on a file it
      // reached through a swap.
      if (reports.fatal && hits.length === 0) throw new Error(`ripgrep failed: ${reports.fatal}`);
      warnings.push('some files could not be searched');
    }
    return { engine: 'ripgrep', hits, warnings };
  } finally {
    await file?.fh.close().catch(() => undefined);
    await dir?.close();
  }
}

/** Runs rg; its JSON messages grouped by the path it printed. */
async function spawnRipgrep(
  q: GrepQuery,
  cwd: string,
  target: string,
): Promise<{ files: Map<string, RgFileReport>; code: number | null; fatal: string }> {
  const child = startHostProcess({
    purpose: 'ripgrep',
    command: ripgrepCommand(),
    args: rgArgs(q, target),
    cwd: path.resolve(cwd),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(q.projectDirs ? { projectDirs: q.projectDirs } : {}),
  });
  const out: Buffer[] = [];
  let outBytes = 0;
  let err = '';
  let tooBig = false;
  const onAbort = () => child.kill('SIGKILL');
  q.signal.addEventListener('abort', onAbort, { once: true });
  child.stdout!.on('data', (b: Buffer) => {
    outBytes += b.length;
    if (outBytes > RG_MAX_STDOUT_BYTES) {
      tooBig = true;
      child.kill('SIGKILL');
      return;
    }
    out.push(b);
  });
  child.stderr!.on('data', (b: Buffer) => {
    if (err.length < 64 * 1024) err += b.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c) => resolve(c));
  }).finally(() => q.signal.removeEventListener('abort', onAbort));
  throwIfAborted(q.signal);
  if (tooBig) {
    throw new Error(
      `The search produced more than ${RG_MAX_STDOUT_BYTES / 1024 / 1024} MB of output; narrow it with path, glob, type or a more specific pattern.`,
    );
  }
  const stdout = Buffer.concat(out).toString('utf8');
  // With --no-messages rg prints only fatal errors (a bad pattern, a bad flag): those are decided
  // before any file is read. Errors reading a file set the exit code and print nothing.
  const fatal = code === 2 ? err.trim() : '';
  if (fatal && /regex parse error|error parsing|literal .* is not allowed|unclosed|unrecognized/i.test(fatal)) {
    throw new GrepPatternError(`Invalid regular expression: ${fatal}`);
  }
  if (code !== 0 && code !== 1 && code !== 2) {
    throw new Error(`ripgrep exited with code ${code}: ${err.trim()}`);
  }

  const files = new Map<string, RgFileReport>();
  for (const line of stdout.split('\n')) {
    if (line === '') continue;
    const msg = JSON.parse(line) as {
      type: string;
      data: {
        path?: RgText;
        lines?: RgText;
        line_number?: number;
        absolute_offset?: number;
        submatches?: Array<{ match?: RgText; start?: number }>;
        stats?: { matches?: number };
      };
    };
    if (msg.type !== 'match' && msg.type !== 'context' && msg.type !== 'end') continue;
    const p = rgBytes(msg.data.path).toString('utf8');
    let report = files.get(p);
    if (msg.type === 'end') {
      if (report) report.matches = msg.data.stats?.matches ?? report.matches;
      continue;
    }
    if (!report) files.set(p, (report = { blocks: [], matches: 0 }));
    report.blocks.push({
      offset: msg.data.absolute_offset ?? -1,
      bytes: rgBytes(msg.data.lines),
      first: msg.data.line_number ?? 0,
      match: msg.type === 'match',
      subs: (msg.data.submatches ?? []).map((s) => ({
        start: s.start ?? 0,
        text: rgBytes(s.match).toString('utf8'),
      })),
    });
  }
  // A file with only context lines has no match (rg prints none such, but be exact).
  for (const [p, r] of files) if (!r.blocks.some((b) => b.match)) files.delete(p);
  return { files, code, fatal };
}
