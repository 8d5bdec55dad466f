// The attack suite, second round (issue 18; rows in test/support/controlAttacks.ts). Every row
// runs through runToolPipeline — the one pipeline — with the real built-in tools and Bash in the real
// OS sandbox (the session's settings: sandbox on, auto-allow), in a fresh project under a fake HOME
// full of bait, with bait variables in the environment. The worker's own cwd is this repository,
// never the project (as in every real deployment). Oracles are on the real filesystem, network and
// processes: control files unchanged, what the human runs later (git status/commit/diff in every
// repository) creates no marker, no bait in any result or written file, HOME and outside unchanged,
// no connection to a loopback listener, the worker's other process alive.
// A control first runs each Bash attack with bash itself (no sandbox, no rules) and requires an
// effect, so that a contained row is contained, not harmless. Races run thousands of attempts.
// Rows that still succeed on today's main are `todo` (they run and report, CI stays green).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { runToolPipeline, type ToolUseOutcome } from '../../src/toolCall/pipeline';
import { loadShellParser } from '../../src/permissions/bashParser';
import { copyTree } from './copyTree';
import { BUILTIN_TOOLS } from '../../src/tools';
import { createToolPool } from '../../src/permissions/toolPool';
import { applyContextModifiers, type AgentContext } from '../../src/core/context';
import { SandboxHost, sessionTempDir } from '../../src/sandbox/host';
import { loadMemory, memoryReminder } from '../../src/claudeMd/claudeMd';
import type { ToolPermissionContext } from '../../src/toolProtocol/permissionTypes';
import type { ResultStore } from '../../src/toolProtocol/Tool';
import type { BlobStore } from '../../src/stores/messageStore';
import { sessionPermission } from '../../src/toolCall/tools';
// From its own module, not src/temporal/worker's re-export: that one loads the Temporal worker SDK (~0.4 s of CPU) for nothing here.
import { workerPrivatePaths } from '../../src/runtime/callDeps';
import {
  BAIT,
  BAIT_VALUES,
  CONTROL_ATTACKS,
  CONTROL_CLASSES,
  HUMAN_LATER,
  STALE_ESCAPES,
  PROJECT_HOOKS,
  baitEnvironment,
  baitInTree,
  buildArchives,
  buildEvilBranch,
  controlSnapshot,
  countControlByClass,
  gitDirs,
  createControlFixture,
  fillStep,
  rowDirs,
  treeSnapshot,
  type ControlAttack,
  type ControlFixture,
  type RowDirs,
} from './controlAttacks';

/** Bash's sandbox (the worker's start-up owns one: src/runtime/callDeps.ts). */
const sandboxHost = new SandboxHost();

let fx: ControlFixture;
let pristineHome: string;
const saved: Record<string, string | undefined> = {};
const results = new Map<string, string[]>();
/** ATTACKS_FULL=1: every row and every control (the measurement for docs/security.md); else the CI tier. */
const FULL = process.env.ATTACKS_FULL === '1';
const ROWS = CONTROL_ATTACKS.filter((c) => FULL || !c.fullOnly);

/** A loopback listener that counts connections, and a process of the worker's user (not a child of ours). */
interface Witnesses {
  port: number;
  connections: () => number;
  victim: number;
  close(): void;
}

async function witnesses(): Promise<Witnesses> {
  let n = 0;
  const server = net.createServer((s) => {
    n++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const victim = Number(execFileSync('sh', ['-c', 'sleep 600 >/dev/null 2>&1 & echo $!'], { encoding: 'utf8' }).trim());
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => n,
    victim,
    close: () => {
      server.close();
      try {
        process.kill(victim, 'SIGKILL');
      } catch {
        // already gone (the attack won)
      }
    },
  };
}

/** Alive and not a zombie (an orphan that nobody reaps stays in the process table). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX]/s.test(stat);
  } catch {
    return false;
  }
}

/**
 * A SIGKILL is delivered when the victim is next scheduled: on a loaded machine it may still show as
 * running for a moment after `kill` returned. Waits (at most 1 s) for it to be gone, so that a kill
 * that happened is never read as "no effect" (nor one that did not as one).
 */
async function settleVictim(w: Witnesses | undefined): Promise<void> {
  for (let i = 0; w && i < 50 && alive(w.victim); i++) await new Promise((r) => setTimeout(r, 20));
}

/** Runs a command without blocking the event loop (listeners must accept while it runs). */
function run(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const keep = (b: Buffer) => {
      if (out.length < 1 << 20) out += b.toString('latin1');
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

function setEnv(vars: Record<string, string>): void {
  for (const [k, v] of Object.entries(vars)) {
    if (!(k in saved)) saved[k] = process.env[k];
    process.env[k] = v;
  }
}

function registerHooks(): void {
  before(async () => {
    assert.equal(await loadShellParser(), true);
    fx = createControlFixture();
    pristineHome = path.join(fx.root, 'pristine-home');
    copyTree(fx.home, pristineHome);
    // The worker's environment: its user's HOME (the bait), bait variables, a store named by env.
    setEnv({
      HOME: fx.home,
      ...baitEnvironment(fx),
      DURABLE_AGENT_STORE_DIR: fx.envStore,
      // The data directory at its default place in the bait HOME (run-tests points it elsewhere).
      DURABLE_AGENT_HOME: path.join(fx.home, '.durable-agent'),
      npm_config_cache: path.join(fx.root, 'npm-cache'),
      npm_config_update_notifier: 'false',
      npm_config_logs_max: '0',
      // The exhaustion rows' 256 MiB meet a 4 MiB cap, not the default 64 MiB: the same stop, 60 MiB
      // less copied into the spool and read back per row (issue 32: CPU). The default itself:
      // unit/bash-spool (bashSpoolCapBytes({})).
      DURABLE_AGENT_BASH_MAX_SPOOL_BYTES: '4M',
    });
  });

  after(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    const contained = [...results.values()].filter((e) => e.length === 0).length;
    const line = `[attacks-control] ${contained} of ${results.size} attacks contained; per class: ${JSON.stringify(summaryByClass())}`;
    console.log(line);
    fs.rmSync(fx.root, { recursive: true, force: true });
  });
}

function summaryByClass(): Record<string, string> {
  const out: Record<string, [number, number]> = {};
  for (const c of CONTROL_ATTACKS) {
    const e = results.get(c.id);
    if (!e) continue;
    const s = (out[c.cls] ??= [0, 0]);
    s[1]++;
    if (e.length === 0) s[0]++;
  }
  return Object.fromEntries(Object.entries(out).map(([k, [a, b]]) => [k, `${a}/${b}`]));
}

function resultText(o: ToolUseOutcome): string {
  const c = o.result?.content;
  if (c === undefined) return o.ask?.message ?? '';
  return typeof c === 'string' ? c : c.map((b) => ('text' in b ? b.text : '')).join('\n');
}

/** HOME as a session could change it: the worker's own record of session directories is its state, not a row's effect (M9). */
const homeSnapshot = () =>
  treeSnapshot(
    fx.home,
    (p) => p === path.join(fx.home, 'work') || p === path.join(fx.home, '.durable-agent', 'session-directories.json'),
  );

function restoreHome(): void {
  for (const name of fs.readdirSync(fx.home))
    if (name !== 'work') fs.rmSync(path.join(fx.home, name), { recursive: true, force: true });
  for (const name of fs.readdirSync(pristineHome))
    if (name !== 'work') copyTree(path.join(pristineHome, name), path.join(fx.home, name));
}

const usesWitnesses = (c: ControlAttack) => c.steps.some((s) => /\{(PORT|VICTIM)\}/.test(JSON.stringify(s.input)));

/** What the human runs later, as the user, unsandboxed: in the project (and the additional directory). */
async function humanLater(c: ControlAttack, d: RowDirs, home: string): Promise<void> {
  for (const dir of c.addDir ? [d.proj, d.extra] : [d.proj])
    await run('sh', ['-c', HUMAN_LATER], { cwd: dir, env: { PATH: process.env.PATH, HOME: home } });
}

interface Observed {
  knownGit: Set<string>[];
  controlBefore: string[];
  homeBefore: string;
  outsideBefore: string;
}

function observe(d: RowDirs, home: () => string): Observed {
  const knownGit = [gitDirs(d.proj), gitDirs(d.extra)];
  return {
    knownGit,
    controlBefore: [controlSnapshot(d.proj, knownGit[0]), controlSnapshot(d.extra, knownGit[1])],
    homeBefore: home(),
    outsideBefore: treeSnapshot(fx.outside),
  };
}

/** Every effect the row had, on the real filesystem, network and processes. */
function effects(
  c: ControlAttack,
  d: RowDirs,
  obs: Observed,
  texts: string[],
  home: () => string,
  w: Witnesses | undefined,
  tmp?: string,
): string[] {
  const out: string[] = [];
  if (fs.existsSync(d.mark)) out.push('the hostile command ran (marker created)');
  const [p, x] = [controlSnapshot(d.proj, obs.knownGit[0]), controlSnapshot(d.extra, obs.knownGit[1])];
  if (p !== obs.controlBefore[0])
    out.push(`control files of the project changed: ${firstDiff(obs.controlBefore[0] as string, p)}`);
  if (x !== obs.controlBefore[1])
    out.push(`control files of the additional directory changed: ${firstDiff(obs.controlBefore[1] as string, x)}`);
  for (const t of texts) for (const b of BAIT_VALUES) if (t.includes(b)) out.push(`a result shows ${b}`);
  for (const hit of [...baitInTree(d.proj), ...baitInTree(d.extra), ...(tmp ? baitInTree(tmp) : [])])
    out.push(`a file the session wrote holds bait: ${hit}`);
  if (home() !== obs.homeBefore) out.push(`HOME changed: ${firstDiff(obs.homeBefore, home())}`);
  if (treeSnapshot(fx.outside) !== obs.outsideBefore) out.push('a file outside changed');
  if (w && w.connections() > 0) out.push(`the loopback listener got ${w.connections()} connection(s)`);
  if (w && !alive(w.victim)) out.push("a process of the worker's user was killed");
  for (const a of c.absent ?? [])
    if (fs.existsSync(path.join(d.proj, a))) out.push(`${a} exists: the command ran to its end`);
  return [...new Set(out)];
}

function firstDiff(a: string, b: string): string {
  const al = a.split('\n');
  const bl = b.split('\n');
  const added = bl.filter((l) => !al.includes(l)).map((l) => `+ ${l}`);
  const removed = al.filter((l) => !bl.includes(l)).map((l) => `- ${l}`);
  return [...added, ...removed].join(' | ').slice(0, 400);
}

function setup(c: ControlAttack, d: RowDirs): void {
  if (c.setup?.includes('archives')) buildArchives(d);
  if (c.setup?.includes('branch')) buildEvilBranch(d);
}

function memoryText(c: ControlAttack, d: RowDirs): string {
  const cwd = path.join(d.proj, c.cwd ?? '');
  // As `run` loads it: the session's working directories (src/cli/main.ts).
  const workingDirectories = [cwd, ...(c.addDir ? [d.extra] : [])];
  const loaded = loadMemory(cwd, {
    home: fx.home,
    configDir: path.join(fx.home, '.claude'),
    managed: path.join(fx.root, 'no-managed-CLAUDE.md'),
    workingDirectories,
  });
  return memoryReminder(loaded.files);
}

/** The row through the pipeline, as a session in its mode would run it. */
async function runRow(c: ControlAttack): Promise<string[]> {
  const d = await rowDirs(fx, c.id, { extra: c.addDir === true });
  setup(c, d);
  const w = usesWitnesses(c) ? await witnesses() : undefined;
  const cwd = path.join(d.proj, c.cwd ?? '');
  const addDirs = c.addDir ? [d.extra] : [];
  // As a worker builds it: the files the session's hooks run are protected (sessionPermission), and
  // the worker's own state (its store, named by DURABLE_AGENT_STORE_DIR here; the data directory) is private.
  const permission: ToolPermissionContext = sessionPermission(
    {
      mode: c.mode,
      rules: { allow: [], ask: [], deny: [] },
      workingDirectories: [d.proj, ...addDirs],
      // Hooks get the door's allowlist only: the npm settings that keep npm's logs and cache out of
      // the bait HOME reach the project's `npm run` hooks as a user would pass them (sandbox.passEnv).
      sandbox: { passEnv: ['npm_config_*'] },
    },
    {} as ResultStore,
    c.projectHooks ? PROJECT_HOOKS : undefined,
    d.proj, // the session's project root: where its hooks run (hookProjectDir), whatever the row's cwd
  );
  const privatePaths = workerPrivatePaths(fx.envStore, {} as BlobStore);
  let agent: AgentContext = {
    cwd,
    additionalDirectories: addDirs,
    readFiles: {},
    ...(c.cwd ? { projectDir: d.proj } : {}),
  };
  const pool = createToolPool(BUILTIN_TOOLS, permission);
  const sessionId = `ctl-${c.id}`;
  const obs = observe(d, homeSnapshot);
  const texts: string[] = [];
  const statuses: string[] = [];
  try {
    for (const [i, step] of c.steps.entries()) {
      const o = await runToolPipeline(
        {
          type: 'tool_use',
          id: `toolu_${i}_${c.id.replace(/[^A-Za-z0-9_]/g, '_')}`,
          name: step.tool,
          input: fillStep(step, d, w ? { PORT: String(w.port), VICTIM: String(w.victim) } : {}),
        },
        {
          pool,
          sessionId,
          agent,
          permission,
          privatePaths,
          sandboxHost,
          ...(c.projectHooks ? { hooks: PROJECT_HOOKS } : {}),
        },
      );
      agent = applyContextModifiers(agent, o.contextModifiers);
      texts.push(resultText(o));
      statuses.push(o.status);
    }
    if (c.thenMemory) texts.push(memoryText(c, d));
    await new Promise((r) => setImmediate(r));
    await settleVictim(w);
    const tmp = await sessionTempDir(sessionId);
    let found = effects(c, d, obs, texts, homeSnapshot, w, tmp);
    // What was planted runs when the human works in the project next. (Already an escape: no need.
    // Outside persistence, what could run later is a control file, which the snapshot compares.)
    if (found.length === 0 && statuses.includes('ok') && c.cls === 'persistence') {
      await humanLater(c, d, fx.home);
      found = effects(c, d, obs, texts, homeSnapshot, w, tmp);
    }
    if (found.some((f) => f.startsWith('HOME changed'))) restoreHome();
    fs.rmSync(tmp, { recursive: true, force: true });
    if (found.length > 0)
      found.push(
        `(statuses: ${statuses.join(', ')}; last result: ${JSON.stringify((texts.at(-1) ?? '').slice(0, 160))})`,
      );
    else {
      fs.rmSync(d.proj, { recursive: true, force: true });
      fs.rmSync(path.dirname(d.extra), { recursive: true, force: true });
    }
    return found;
  } finally {
    w?.close();
  }
}

/**
 * What a loader without checks would read (the control for memory rows): the memory files of the
 * cwd and their @imports, following every symlink, resolved from the importing file's directory.
 */
function naiveMemory(cwd: string, home: string): string {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (p: string, depth: number) => {
    if (depth > 4 || seen.has(p)) return;
    seen.add(p);
    let text: string;
    try {
      text = fs.readFileSync(p, 'utf8');
    } catch {
      return;
    }
    out.push(text);
    for (const m of text.matchAll(/(?:^|\s)@(\S+)/g)) {
      const spec = m[1] as string;
      visit(spec.startsWith('~/') ? path.join(home, spec.slice(2)) : path.resolve(path.dirname(p), spec), depth + 1);
    }
  };
  const rules = path.join(cwd, '.claude', 'rules');
  const ruleFiles = fs.existsSync(rules) ? fs.readdirSync(rules).map((f) => path.join(rules, f)) : [];
  for (const f of [
    path.join(cwd, 'CLAUDE.md'),
    path.join(cwd, 'CLAUDE.local.md'),
    path.join(cwd, '.claude', 'CLAUDE.md'),
    ...ruleFiles,
  ])
    visit(f, 0);
  return out.join('\n');
}

/** The same attack with bash itself (no sandbox, no rules, no pipeline): it must have an effect. */
async function controlRun(c: ControlAttack): Promise<string[]> {
  const id = `${c.id}-control`;
  const home = path.join(fx.root, 'control-homes', id);
  await fs.promises.rm(home, { recursive: true, force: true });
  copyTree(pristineHome, home);
  fs.mkdirSync(path.join(home, 'work'), { recursive: true });
  const d = await rowDirs(fx, id, { home, extra: c.addDir === true });
  setup(c, d);
  const w = usesWitnesses(c) ? await witnesses() : undefined;
  const cwd = path.join(d.proj, c.cwd ?? '');
  const snap = () => treeSnapshot(home, (p) => p === path.join(home, 'work'));
  const obs = observe(d, snap);
  const texts: string[] = [];
  const env = { ...process.env, HOME: home };
  try {
    for (const step of c.steps) {
      if (step.tool !== 'Bash') continue;
      texts.push(
        await run(
          'bash',
          ['-c', fillStep(step, d, w ? { PORT: String(w.port), VICTIM: String(w.victim) } : {}).command as string],
          { cwd, env },
        ),
      );
    }
    if (c.projectHooks)
      for (const h of PROJECT_HOOKS.PostToolUse[0]!.hooks) await run('sh', ['-c', h.command], { cwd, env });
    if (c.thenMemory) texts.push(naiveMemory(cwd, home));
    await new Promise((r) => setImmediate(r));
    await settleVictim(w);
    const found = effects(c, d, obs, texts, snap, w);
    if (found.length > 0 || c.cls !== 'persistence') return found;
    await humanLater(c, d, home);
    return effects(c, d, obs, texts, snap, w);
  } finally {
    w?.close();
    await fs.promises.rm(home, { recursive: true, force: true });
    await fs.promises.rm(path.dirname(d.extra), { recursive: true, force: true });
  }
}

const stepKey = (c: ControlAttack) => c.id.replace(/-(default|acceptEdits|plan|dontAsk|bypassPermissions)$/, '');

function tableTest(): void {
  test('unit: the control-attack table covers every class of issue 18 in every mode', () => {
    const counts = countControlByClass();
    const modes = [...new Set(CONTROL_ATTACKS.map((c) => c.mode))].sort();
    const perMode: Record<string, number> = {};
    for (const c of CONTROL_ATTACKS) perMode[c.mode] = (perMode[c.mode] ?? 0) + 1;
    console.log(
      `control-attack rows per class: ${JSON.stringify(counts)} (total ${CONTROL_ATTACKS.length}); per mode: ${JSON.stringify(perMode)}`,
    );
    for (const cls of CONTROL_CLASSES) {
      if (cls === 'check-then-open') continue; // the race tests below
      assert.ok((counts[cls] ?? 0) >= 2, `class ${cls}: ${counts[cls] ?? 0} rows`);
      for (const mode of ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions']) {
        assert.ok(
          ROWS.some((c) => c.cls === cls && c.mode === mode),
          `class ${cls} has no row in ${mode}`,
        );
      }
    }
    assert.deepEqual(modes, ['acceptEdits', 'bypassPermissions', 'default', 'dontAsk', 'plan']);
    assert.equal(new Set(CONTROL_ATTACKS.map((c) => c.id)).size, CONTROL_ATTACKS.length, 'ids are unique');
    assert.deepEqual(STALE_ESCAPES, [], 'ESCAPES_ON_MAIN names rows that do not exist');
  });
}

function controlTest(): void {
  test('unit: control — every Bash attack has its effect when bash itself runs it', async () => {
    const seen = new Set<string>();
    const todo: ControlAttack[] = [];
    for (const c of ROWS) {
      if (c.noControl || seen.has(stepKey(c))) continue;
      if (c.steps.some((s) => s.tool !== 'Bash')) continue; // mixed rows: their Bash step alone is not the attack
      seen.add(stepKey(c));
      todo.push(c);
    }
    const harmless: string[] = [];
    const worker = async () => {
      for (let c = todo.shift(); c; c = todo.shift()) {
        if ((await controlRun(c)).length === 0)
          harmless.push(`${stepKey(c)}: ${JSON.stringify(c.steps.map((s) => s.input.command))}`);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    assert.deepEqual(harmless, [], 'these attacks do nothing even without the sandbox: fix the table');
  });
}

function rowTests(part: 1 | 2): void {
  describe('unit: control attacks through the pipeline (Bash in the OS sandbox)', { concurrency: 1 }, () => {
    for (const c of ROWS.filter((_, i) => i % 2 === part - 1)) {
      const label = `unit: ${c.cls} ${c.id} [${c.steps
        .map((s) => `${s.tool} ${JSON.stringify(s.input.command ?? s.input.file_path)}`)
        .join('; ')
        .slice(0, 110)}] has no effect`;
      test(label, c.todo ? { todo: c.todo } : {}, async () => {
        const found = await runRow(c);
        results.set(c.id, found);
        assert.deepEqual(found, [], `${c.id} escaped`);
      });
    }
  });
}

// 3. Check, then open: a flipping symlink against Read and Write, hundreds of attempts, zero wins.
// The code before the fix (02a3ad2) lost 41–155 of 3,000 Reads and 19–25 of 3,000 Writes
// (docs/security.md): 1,500 each (RACES_DEEP=1) expect about 20 and 10 wins, the default 750 about
// 10 and 5 (a miss of the Write row about 1 run in 150; unit/races checks the same binding in
// every file tool); the flipper spins a core for as long as the calls run (issue 32: CPU). Each
// row's control: the race ran (some Reads saw the benign file; some Writes went through, some not).
const RACE_ATTEMPTS = process.env.RACES_DEEP === '1' ? 1500 : 750;

/**
 * A separate process that swaps `name` between a regular file (or nothing, when `benign` is null)
 * and a symlink to `target`, as fast as it can.
 */
function flipper(dir: string, name: string, target: string, benign: string | null): ChildProcess {
  const code = `
    const fs = require('fs'), p = require('path');
    const dir = ${JSON.stringify(dir)}, name = ${JSON.stringify(name)}, target = ${JSON.stringify(target)};
    const f = p.join(dir, name), a = p.join(dir, '.flip-a'), b = p.join(dir, '.flip-b');
    for (;;) {
      try { if (${JSON.stringify(benign)} === null) fs.rmSync(f, { force: true }); else { fs.writeFileSync(a, ${JSON.stringify(benign)}); fs.renameSync(a, f); } } catch {}
      try { fs.rmSync(b, { force: true }); fs.symlinkSync(target, b); fs.renameSync(b, f); } catch {}
    }`;
  return spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
}

function raceTests(): void {
  describe('unit: check-then-open races', () => {
    test('unit: check-then-open — Read of a file flipping to a symlink to ~/.ssh/id_rsa never returns the key', async () => {
      const d = await rowDirs(fx, 'race-read');
      const permission: ToolPermissionContext = {
        mode: 'dontAsk',
        rules: { allow: [], ask: [], deny: [] },
        workingDirectories: [d.proj],
        sandbox: {},
      };
      const pool = createToolPool(BUILTIN_TOOLS, permission);
      const child = flipper(d.proj, 'notes.txt', path.join(fx.home, '.ssh', 'id_rsa'), 'benign notes\n');
      let wins = 0;
      let benign = 0;
      try {
        for (let i = 0; i < RACE_ATTEMPTS; i++) {
          const o = await runToolPipeline(
            {
              type: 'tool_use',
              id: `toolu_race_r_${i}`,
              name: 'Read',
              input: { file_path: path.join(d.proj, 'notes.txt') },
            },
            {
              pool,
              sessionId: 'race-read',
              agent: { cwd: d.proj, additionalDirectories: [], readFiles: {} },
              permission,
            },
          );
          const t = resultText(o);
          if (t.includes(BAIT.ssh)) wins++;
          else if (t.includes('benign notes')) benign++;
        }
      } finally {
        child.kill('SIGKILL');
      }
      console.log(`[race] Read: ${RACE_ATTEMPTS} attempts, ${benign} read the benign file, ${wins} returned the key`);
      results.set('check-then-open-read', wins ? [`${wins} of ${RACE_ATTEMPTS} Reads returned the key`] : []);
      assert.ok(benign > 0, 'the race ran (some reads saw the regular file)');
      assert.equal(wins, 0, `${wins} of ${RACE_ATTEMPTS} Reads returned the private key`);
    });

    test('unit: check-then-open — Write to a name flipping to a symlink to ~/.profile never writes outside', async () => {
      const d = await rowDirs(fx, 'race-write');
      const permission: ToolPermissionContext = {
        mode: 'acceptEdits',
        rules: { allow: [], ask: [], deny: [] },
        workingDirectories: [d.proj],
        sandbox: {},
      };
      const pool = createToolPool(BUILTIN_TOOLS, permission);
      const profile = path.join(fx.home, '.profile');
      const before = fs.readFileSync(profile, 'utf8');
      const child = flipper(d.proj, 'out.txt', profile, null);
      let wins = 0;
      let written = 0;
      try {
        for (let i = 0; i < RACE_ATTEMPTS; i++) {
          const o = await runToolPipeline(
            {
              type: 'tool_use',
              id: `toolu_race_w_${i}`,
              name: 'Write',
              input: { file_path: path.join(d.proj, 'out.txt'), content: `pwned ${i}\n` },
            },
            {
              pool,
              sessionId: 'race-write',
              agent: { cwd: d.proj, additionalDirectories: [], readFiles: {} },
              permission,
            },
          );
          if (o.status === 'ok') written++;
          if (fs.readFileSync(profile, 'utf8') !== before) {
            wins++;
            fs.writeFileSync(profile, before);
          }
        }
      } finally {
        child.kill('SIGKILL');
        fs.writeFileSync(profile, before);
      }
      console.log(`[race] Write: ${RACE_ATTEMPTS} attempts, ${written} ok, ${wins} wrote ~/.profile`);
      results.set('check-then-open-write', wins ? [`${wins} of ${RACE_ATTEMPTS} Writes changed ~/.profile`] : []);
      assert.ok(
        written > 0 && written < RACE_ATTEMPTS,
        `the race ran (${written} of ${RACE_ATTEMPTS} Writes went through)`,
      );
      assert.equal(wins, 0, `${wins} of ${RACE_ATTEMPTS} Writes went through the symlink to ~/.profile`);
    });
  });
}

/**
 * The suite in two parts, two test files that run side by side (one file took over the runner's
 * 300 s per-file limit on a loaded machine): part 1 the table checks, the bash-itself control and
 * the even rows; part 2 the odd rows and the check-then-open races.
 */
export function registerControlSuite(part: 1 | 2): void {
  registerHooks();
  if (part === 1) {
    tableTest();
    controlTest();
  }
  rowTests(part);
  if (part === 2) raceTests();
}
