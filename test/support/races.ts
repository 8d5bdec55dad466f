// Check-then-open races (issue 18, finding 3): a worker thread swaps a project file, or a
// directory on the way to it, between a regular one and a symlink to a bait outside the project,
// in a tight loop, while the file tools run through the real pipeline (runToolPipeline) again
// and again. The oracle is the real file system and the real results: the bait's text never in a
// result, the bait (and its directory) never changed, nothing created outside. Used by
// test/unit/races.test.ts (a few thousand attempts) and bench/races.ts (100,000, counts printed).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { applyContextModifiers, type AgentContext } from '../../src/core/context';
import { toolResultText } from '../../src/core/apiMessages';
import { runToolPipeline } from '../../src/toolCall/pipeline';
import { loadShellParser } from '../../src/permissions/bashParser';
import { BUILTIN_TOOLS } from '../../src/tools';
import { createToolPool } from '../../src/permissions/toolPool';
import type { PermissionMode, ToolPermissionContext } from '../../src/toolProtocol/permissionTypes';

export const BAIT = 'BAIT-SECRET-5f1c';
/** The bait holds the strings an Edit of the project file replaces, so that an Edit through a swap would succeed. */
const BAIT_TEXT = `${BAIT} X[A] X[B]\n`;
const SAFE_TEXT = 'safe X[A]\n';

export interface RaceFixture {
  root: string;
  proj: string;
  /** Outside the working directory: the bait file and the bait directory. */
  outside: string;
  baitFile: string;
  baitDir: string;
}

export function createRaceFixture(): RaceFixture {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'races-')));
  const proj = path.join(root, 'proj');
  const outside = path.join(root, 'outside');
  const baitDir = path.join(outside, 'dir');
  fs.mkdirSync(path.join(proj, 'd'), { recursive: true });
  fs.mkdirSync(baitDir, { recursive: true });
  const baitFile = path.join(outside, 'secret.txt');
  fs.writeFileSync(baitFile, BAIT_TEXT);
  fs.writeFileSync(path.join(baitDir, 'x'), BAIT_TEXT);
  fs.writeFileSync(path.join(baitDir, `${BAIT}.txt`), BAIT_TEXT);
  fs.writeFileSync(path.join(proj, 'x'), SAFE_TEXT);
  fs.writeFileSync(path.join(proj, 'd', 'x'), SAFE_TEXT);
  return { root, proj, outside, baitFile, baitDir };
}

/** What the outside looks like: every entry's size and mtime, and the directories' mtimes. */
function outsideSnapshot(fx: RaceFixture): string {
  const lines: string[] = [];
  const walk = (d: string): void => {
    lines.push(`${d}/ ${fs.lstatSync(d).mtimeMs}`);
    for (const name of fs.readdirSync(d).sort()) {
      const p = path.join(d, name);
      const st = fs.lstatSync(p);
      if (st.isDirectory()) walk(p);
      else lines.push(`${p} ${st.size} ${st.mtimeMs} ${fs.readFileSync(p, 'utf8')}`);
    }
  };
  walk(fx.outside);
  return lines.join('\n');
}

/**
 * The swapper, in a worker thread (a real OS thread, running while the test awaits its calls):
 * `file` swaps proj/x between the regular file and a symlink to the bait file, `dir` swaps proj/d
 * between the real directory and a symlink to the bait directory, by renames (the regular file and
 * directory keep their inode and mtime, as an attacker would keep them).
 */
const FLIPPER = `
const fs = require('node:fs');
const { workerData } = require('node:worker_threads');
const { target, stash, link, control } = workerData;
const ctl = new Int32Array(control);
const quiet = (f) => { try { f(); } catch {} };
// Each state is held for a random while (the symlink 0-50 µs, the regular entry 0-200 µs), so
// that a check and an open a few µs apart see every combination of the two states, and some
// calls go through on the project's own file.
const hold = (ms) => { const until = performance.now() + Math.random() * ms; while (performance.now() < until); };
while (Atomics.load(ctl, 0) === 0) {
  quiet(() => fs.renameSync(target, stash));
  quiet(() => fs.symlinkSync(link, target));
  hold(0.05);
  quiet(() => fs.unlinkSync(target));
  quiet(() => fs.renameSync(stash, target));
  hold(0.2);
  Atomics.add(ctl, 1, 1);
}
`;

export interface Flipper {
  /** Stops the swapper, puts the regular file or directory back, and says how many swaps it made. */
  stop(): Promise<number>;
}

/** `at`/`to`: another entry to swap, and the symlink's target (default proj/x or proj/d, and the bait). */
export function startFlipper(fx: RaceFixture, kind: 'file' | 'dir', at?: string, to?: string): Flipper {
  const target = at ?? (kind === 'file' ? path.join(fx.proj, 'x') : path.join(fx.proj, 'd'));
  const stash = `${target}.stash`;
  const link = to ?? (kind === 'file' ? fx.baitFile : fx.baitDir);
  const control = new SharedArrayBuffer(8);
  const ctl = new Int32Array(control);
  const worker = new Worker(FLIPPER, { eval: true, workerData: { target, stash, link, control } });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      Atomics.store(ctl, 0, 1);
      await exited;
      // Left mid-swap: restore the regular entry.
      try {
        if (fs.lstatSync(target).isSymbolicLink()) fs.unlinkSync(target);
      } catch {
        // absent
      }
      if (fs.existsSync(stash) && !fs.existsSync(target)) fs.renameSync(stash, target);
      return Atomics.load(ctl, 1);
    },
  };
}

export type RaceScenario =
  | 'Read file'
  | 'Read dir'
  | 'Write file'
  | 'Write dir'
  | 'Edit file'
  | 'Edit dir'
  | 'Glob dir'
  | 'Grep dir (rg)'
  | 'Grep file (rg)'
  | 'Grep dir (js)'
  | 'Grep file (js)';

export const RACE_SCENARIOS: readonly RaceScenario[] = [
  'Read file',
  'Read dir',
  'Write file',
  'Write dir',
  'Edit file',
  'Edit dir',
  'Glob dir',
  'Grep dir (rg)',
  'Grep file (rg)',
  'Grep dir (js)',
  'Grep file (js)',
];

export interface RaceCounts {
  scenario: RaceScenario;
  attempts: number;
  /** Calls that succeeded (on the project's own file). */
  ok: number;
  /** Calls that ended with an is_error result (a swap seen, a file missing mid-swap, …). */
  errors: number;
  /** Calls whose result showed the bait, or after which the outside had changed. */
  wins: number;
  /** Swaps the flipper made during the run (proof that the race was on). */
  flips: number;
  /** The first winning result, for the report. */
  example?: string;
  /** With the swapper stopped, the same call succeeded (the tool works on the project's file). */
  controlOk?: boolean;
  /** How the failed calls failed: status and the start of the message, counted. */
  failures: Record<string, number>;
}

/** Runs `attempts` calls of one scenario against a flipping swap; counts what the attacker won. */
export async function runRace(fx: RaceFixture, scenario: RaceScenario, attempts: number): Promise<RaceCounts> {
  await loadShellParser();
  const [toolName, where] = scenario.split(' ') as [string, 'file' | 'dir'];
  const engine = scenario.endsWith('(js)') ? 'js' : scenario.endsWith('(rg)') ? 'rg' : undefined;
  const savedEngine = process.env.DURABLE_AGENT_GREP_ENGINE;
  if (engine) process.env.DURABLE_AGENT_GREP_ENGINE = engine;
  const mode: PermissionMode = toolName === 'Write' || toolName === 'Edit' ? 'acceptEdits' : 'default';
  const permission: ToolPermissionContext = {
    mode,
    rules: { allow: [], ask: [], deny: [] },
    workingDirectories: [fx.proj],
  };
  const pool = createToolPool(BUILTIN_TOOLS, permission);
  let agent: AgentContext = { cwd: fx.proj, additionalDirectories: [], readFiles: {} };
  const file = where === 'file' ? path.join(fx.proj, 'x') : path.join(fx.proj, 'd', 'x');
  const before = outsideSnapshot(fx);
  const counts: RaceCounts = { scenario, attempts, ok: 0, errors: 0, wins: 0, flips: 0, failures: {} };
  const attempt = async (i: number) => {
    let input: Record<string, unknown>;
    if (toolName === 'Read') input = { file_path: file };
    else if (toolName === 'Write')
      input =
        where === 'file'
          ? { file_path: file, content: `safe X[A] ${i}\n` }
          : { file_path: path.join(fx.proj, 'd', `new-${i}`, 'f.txt'), content: `w${i}\n` };
    else if (toolName === 'Edit') {
      let current = '';
      try {
        current = fs.readFileSync(file, 'utf8');
      } catch {
        // mid-swap
      }
      const a = current.includes('X[A]') && !current.includes(BAIT);
      input = { file_path: file, old_string: a ? 'X[A]' : 'X[B]', new_string: a ? 'X[B]' : 'X[A]' };
    } else if (toolName === 'Glob') input = { pattern: '**/*', path: fx.proj };
    else
      input = {
        pattern: 'BAIT|X\\[',
        path: where === 'file' ? file : fx.proj,
        output_mode: (['content', 'files_with_matches', 'count'] as const)[i % 3],
      };
    if (toolName === 'Write' || toolName === 'Edit') {
      // The strongest attacker: whatever the name shows right now counts as read, so the
      // read-before-write rule is never what stops a write through a swap.
      try {
        agent = {
          ...agent,
          readFiles: { ...agent.readFiles, [file]: { mtimeMs: fs.statSync(file).mtimeMs, partial: false } },
        };
      } catch {
        // mid-swap
      }
    }
    const out = await runToolPipeline(
      { type: 'tool_use', id: `toolu_race_${i}`, name: toolName, input },
      { pool, sessionId: 'races', agent, permission },
    );
    agent = applyContextModifiers(agent, out.contextModifiers);
    const text = out.result ? toolResultText(out.result) : '';
    // Grep: the bait's name or lines, or a count only the bait gives (the project's files match once each).
    const won =
      text.includes(BAIT) || (toolName === 'Grep' && input.output_mode === 'count' && /:(?!1$)\d+$/m.test(text));
    return { out, text, won };
  };
  const flipper = startFlipper(fx, where);
  try {
    for (let i = 0; i < attempts; i++) {
      const { out, text, won } = await attempt(i);
      if (won) {
        counts.wins++;
        counts.example ??= text.slice(0, 300);
      } else if (out.status === 'ok') counts.ok++;
      else {
        counts.errors++;
        const kind = `${out.status}: ${(out.failure?.message ?? out.ask?.message ?? text).replace(/\/tmp\/races-\w+/g, '…').slice(0, 70)}`;
        counts.failures[kind] = (counts.failures[kind] ?? 0) + 1;
      }
      if ((toolName === 'Write' || toolName === 'Edit') && i % 50 === 49 && outsideSnapshot(fx) !== before) {
        counts.wins++;
        counts.example ??= `the outside changed after attempt ${i}`;
        break;
      }
    }
  } finally {
    counts.flips = await flipper.stop();
    if (engine) {
      if (savedEngine === undefined) delete process.env.DURABLE_AGENT_GREP_ENGINE;
      else process.env.DURABLE_AGENT_GREP_ENGINE = savedEngine;
    }
  }
  // The control: with the swapper stopped, the same call works on the project's own file.
  if (engine) process.env.DURABLE_AGENT_GREP_ENGINE = engine;
  try {
    const control = await attempt(attempts);
    counts.controlOk = control.out.status === 'ok' && !control.won;
  } finally {
    if (engine) {
      if (savedEngine === undefined) delete process.env.DURABLE_AGENT_GREP_ENGINE;
      else process.env.DURABLE_AGENT_GREP_ENGINE = savedEngine;
    }
  }
  if (outsideSnapshot(fx) !== before) {
    counts.wins++;
    counts.example ??= 'the outside changed';
  }
  return counts;
}
