// The ripgrep Grep engine: `rg --json` with the reference's flags, parsed into structured hits.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { VCS_DIRECTORIES } from './gitignore';
import { throwIfAborted } from './paths';
import { GrepPatternError, type GrepEngineResult, type GrepFileHit, type GrepLine, type GrepQuery } from './grepTypes';

export function ripgrepCommand(): string {
  return process.env.DURABLE_AGENT_RG_PATH || 'rg';
}


// ---------------------------------------------------------------------------------------------
// ripgrep

const RG_MAX_STDOUT_BYTES = 64 * 1024 * 1024;

function rgArgs(q: GrepQuery): string[] {
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
  if (q.mode === 'files_with_matches') args.push('--files-with-matches', '--null');
  else if (q.mode === 'count') args.push('--count-matches', '--with-filename', '--null');
  else {
    args.push('--json');
    if (q.before > 0) args.push('--before-context', String(q.before));
    if (q.after > 0) args.push('--after-context', String(q.after));
  }
  args.push('--regexp', q.pattern, '--', q.target);
  return args;
}

function decodeRgText(v: { text?: string; bytes?: string } | undefined): string {
  if (!v) return '';
  if (typeof v.text === 'string') return v.text;
  return Buffer.from(v.bytes ?? '', 'base64').toString('utf8');
}

function stripTerminator(s: string): string {
  return s.endsWith('\n') ? s.slice(0, -1) : s;
}

export async function runRipgrep(q: GrepQuery): Promise<GrepEngineResult> {
  throwIfAborted(q.signal);
  // Override globs are relative to rg's working directory: run it in the searched directory.
  const cwd = q.targetIsFile ? path.dirname(q.target) : q.target;
  const child = spawn(ripgrepCommand(), rgArgs(q), { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  let outBytes = 0;
  let err = '';
  let tooBig = false;
  const onAbort = () => child.kill('SIGKILL');
  q.signal.addEventListener('abort', onAbort, { once: true });
  child.stdout.on('data', (b: Buffer) => {
    outBytes += b.length;
    if (outBytes > RG_MAX_STDOUT_BYTES) {
      tooBig = true;
      child.kill('SIGKILL');
      return;
    }
    out.push(b);
  });
  child.stderr.on('data', (b: Buffer) => {
    if (err.length < 64 * 1024) err += b.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c) => resolve(c));
  }).finally(() => q.signal.removeEventListener('abort', onAbort));
  throwIfAborted(q.signal);
  if (tooBig) {
    throw new Error(`The search produced more than ${RG_MAX_STDOUT_BYTES / 1024 / 1024} MB of output; narrow it with path, glob, type or a more specific pattern.`);
  }
  const stdout = Buffer.concat(out).toString('utf8');
  const warnings: string[] = [];
  if (code === 2) {
    if (stdout === '') {
      const msg = err.trim() || 'ripgrep failed';
      if (/regex parse error|error parsing|literal .* is not allowed|unclosed|unrecognized/i.test(msg)) {
        throw new GrepPatternError(`Invalid regular expression: ${msg}`);
      }
      throw new Error(`ripgrep failed: ${msg}`);
    }
    if (err.trim()) warnings.push(err.trim());
  } else if (code !== 0 && code !== 1) {
    throw new Error(`ripgrep exited with code ${code}: ${err.trim()}`);
  }

  const hits: GrepFileHit[] = [];
  if (q.mode === 'files_with_matches') {
    for (const p of stdout.split('\0')) if (p !== '') hits.push({ path: path.resolve(cwd, p), count: 0, lines: [] });
  } else if (q.mode === 'count') {
    for (const line of stdout.split('\n')) {
      const nul = line.lastIndexOf('\0');
      if (nul === -1) continue;
      hits.push({ path: path.resolve(cwd, line.slice(0, nul)), count: Number(line.slice(nul + 1)), lines: [] });
    }
  } else {
    const byPath = new Map<string, Map<number, GrepLine>>();
    for (const line of stdout.split('\n')) {
      if (line === '') continue;
      const msg = JSON.parse(line) as {
        type: string;
        data: { path?: { text?: string; bytes?: string }; lines?: { text?: string; bytes?: string }; line_number?: number };
      };
      if (msg.type !== 'match' && msg.type !== 'context') continue;
      const p = path.resolve(cwd, decodeRgText(msg.data.path));
      let lines = byPath.get(p);
      if (!lines) byPath.set(p, (lines = new Map()));
      const first = msg.data.line_number ?? 0;
      stripTerminator(decodeRgText(msg.data.lines))
        .split('\n')
        .forEach((text, i) => {
          const n = first + i;
          const prev = lines.get(n);
          lines.set(n, { n, text, match: msg.type === 'match' || (prev?.match ?? false) });
        });
    }
    for (const [p, lines] of byPath) {
      hits.push({ path: p, count: 0, lines: [...lines.values()].sort((a, b) => a.n - b.n) });
    }
  }
  return { engine: 'ripgrep', hits, warnings };
}
