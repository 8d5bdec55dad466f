// unit (red team, issue 30 round 4): attacks on the new defences — hook pins (src/hooks/pins.ts),
// the hook protections (src/permissions/protectedPaths.ts hookControlFiles), sessions apart
// (src/sandbox/sessionTemp.ts) — with the real OS sandbox, real processes and real files.
// The agent is assumed prompt-injected: it controls sandboxed Bash (dontAsk, Bash allowed) and
// the file tools within the mode's rules. Each test asserts the attack is CONTAINED; a failing test
// documents a hole (14 attacks; 12 got through at 46e0fd2, all contained since). Oracles: marker files outside the project (code that ran as the worker outside
// the sandbox), bytes read — never a tool's words.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs, existsSync, readFileSync, mkdirSync, writeFileSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { applyContextModifiers, initialContext, type AgentContext } from '../../src/core/context';
import { toolResultText } from '../../src/core/apiMessages';
import { runToolPipeline } from '../../src/toolCall/pipeline';
import { createToolPool } from '../../src/permissions/toolPool';
import { SandboxHost, sessionTempPath } from '../../src/sandbox/host';
import { endSessionTemp } from '../../src/sandbox/sessionTemp';
import { BUILTIN_TOOLS } from '../../src/tools';
import { BashTool, type BashOutput } from '../../src/tools/bash';
import type { PermissionMode, ToolPermissionContext } from '../../src/toolProtocol/permissionTypes';
import type { ResultStore, ToolUseContext } from '../../src/toolProtocol/Tool';
import { sessionPermission } from '../../src/toolCall/toolSession';
import { pinHooks } from '../../src/hooks/pins';
import { runSessionEventHooks } from '../../src/hooks';
import type { HooksConfig } from '../../src/hooks/types';
import { sandboxSkip } from '../support/systemPackages';
import { makeTmpDir, removeDir } from './tools-harness';

const sandboxHost = new SandboxHost();
let skip: string | false = false;
let tmp = '';
const BAIT: Record<string, string> = {
  ANTHROPIC_API_KEY: 'sk-ant-api03-BAIT-red30-11aa',
  DATABASE_URL: 'postgres://admin:BAIT-red30-pw@db.internal:5432/prod',
  CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-BAIT-red30-22bb',
};
const saved: Record<string, string | undefined> = {};

before(async () => {
  skip = await sandboxSkip(sandboxHost, 'the red team issue 30 tests');
  tmp = await makeTmpDir('da-red30-');
  for (const [k, v] of Object.entries(BAIT)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
});

after(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await sandboxHost.close();
  if (tmp) await removeDir(tmp);
});

let n = 0;

/**
 * A session at `root` with `hooks`, as the worker runs it: the hooks' files pinned at the start
 * (sessionInput → pinHooks), the session's permission with the hooks' control files
 * (sessionPermission), every call through runToolPipeline with the real sandbox.
 */
class Session {
  readonly id = `red30-${process.pid}-${++n}`;
  agent: AgentContext;
  readonly permission: ToolPermissionContext;
  readonly pins;
  constructor(
    readonly root: string,
    readonly hooks: HooksConfig,
    readonly mode: PermissionMode = 'dontAsk',
  ) {
    this.agent = initialContext(root);
    this.pins = pinHooks(hooks, root, [root]);
    this.permission = sessionPermission(
      { mode, rules: { allow: ['Bash'], ask: [], deny: [] }, workingDirectories: [root], sandbox: {} },
      {} as ResultStore,
      hooks,
      root,
    );
  }
  async run(name: string, input: Record<string, unknown>): Promise<{ text: string; status: string }> {
    const o = await runToolPipeline({ type: 'tool_use', id: `toolu_${++n}`, name, input }, {
      pool: createToolPool(BUILTIN_TOOLS, this.permission),
      sessionId: this.id,
      agent: this.agent,
      permission: this.permission,
      sandboxHost,
      hooks: this.hooks,
      hookPins: this.pins,
    } as Parameters<typeof runToolPipeline>[1]);
    this.agent = applyContextModifiers(this.agent, o.contextModifiers);
    return { text: o.result ? toolResultText(o.result) : `(${o.status})`, status: o.status };
  }
  /** The session's Stop hooks, as the workflow runs them at the end of a turn. */
  async stop() {
    return runSessionEventHooks(
      {
        session_id: this.id,
        cwd: this.agent.cwd,
        permission_mode: this.mode,
        hook_event_name: 'Stop',
        stop_hook_active: false,
      },
      { config: this.hooks, projectDir: this.root, pins: this.pins },
    );
  }
}

async function writeExec(p: string, body: string): Promise<void> {
  await fs.mkdir(path.dirname(p), { recursive: true });
  await fs.writeFile(p, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
}

/** A fresh project directory and an outside directory (not writable from the sandbox) for markers. */
async function project(name: string): Promise<{ root: string; outside: string; marker: string }> {
  const root = path.join(tmp, name, 'proj');
  const outside = path.join(tmp, name, 'outside');
  mkdirSync(root, { recursive: true });
  mkdirSync(outside, { recursive: true });
  return { root, outside, marker: path.join(outside, 'ESCAPED') };
}

/** The payload the agent plants: run as the worker, it writes a marker outside the project. */
const payload = (marker: string) => `echo "ran as $(id -un) in $(pwd)" > '${marker}'`;

/** Confirms the plant landed (the sandbox let it through), then runs the hooks and checks the marker. */
async function assertContained(s: Session, planted: string, marker: string, what: string): Promise<void> {
  // Control: the agent could not write outside directly.
  const direct = await s.run('Bash', { command: `echo direct > '${marker}' 2>/dev/null; true` });
  assert.equal(existsSync(marker), false, `the sandbox holds a direct write: ${direct.text}`);
  const runs = await s.stop();
  const ran = existsSync(marker) ? readFileSync(marker, 'utf8') : '';
  assert.equal(
    ran,
    '',
    `${what}: the planted ${path.relative(s.root, planted)} ran outside the sandbox as the worker (${ran.trim()}); hook runs: ${JSON.stringify(
      runs.map((r) => ({ outcome: r.outcome, error: r.error, pinChanged: r.pinChanged })),
    )}`,
  );
}

async function plant(s: Session, command: string, planted: string): Promise<void> {
  const r = await s.run('Bash', { command });
  // When the sandbox refused the write the attack is contained at this step; the hook check still runs.
  if (!existsSync(planted)) return;
  assert.equal(r.status === 'ok' || r.status === 'error' || r.status.length > 0, true);
}

// ---------------------------------------------------------------------------------------------
// Hook pins: files a pinned hook runs that are not named in its command line.

test('red30 hooks: `npm run lint` Stop hook, package.json pinned, its lint script runs `sh scripts/lint.sh` — sandboxed Bash rewrites scripts/lint.sh', async (t) => {
  if (skip) return t.skip(skip);
  const { root, marker } = await project('npm-script-file');
  writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({ name: 'p', private: true, scripts: { lint: 'sh scripts/lint.sh' } }),
  );
  await writeExec(path.join(root, 'scripts', 'lint.sh'), 'echo lint ok');
  const s = new Session(root, { Stop: [{ hooks: [{ type: 'command', command: 'npm run --silent lint' }] }] });
  const planted = path.join(root, 'scripts', 'lint.sh');
  await plant(s, `printf '%s\\n' '#!/bin/sh' "${payload(marker).replace(/"/g, '\\"')}" > scripts/lint.sh`, planted);
  await assertContained(s, planted, marker, 'npm run lint → package.json → scripts/lint.sh');
});

test('red30 hooks: `npm run lint` Stop hook whose script is `eslint .` — sandboxed Bash plants node_modules/.bin/eslint (npm puts it first on PATH)', async (t) => {
  if (skip) return t.skip(skip);
  const { root, marker } = await project('npm-bin');
  writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({ name: 'p', private: true, scripts: { lint: 'eslint .' } }),
  );
  const s = new Session(root, { Stop: [{ hooks: [{ type: 'command', command: 'npm run --silent lint' }] }] });
  const planted = path.join(root, 'node_modules', '.bin', 'eslint');
  await plant(
    s,
    `mkdir -p node_modules/.bin && printf '#!/bin/sh\\n%s\\n' "${payload(marker).replace(/"/g, '\\"')}" > node_modules/.bin/eslint && chmod +x node_modules/.bin/eslint`,
    planted,
  );
  await assertContained(s, planted, marker, 'npm run lint → eslint on npm’s PATH → node_modules/.bin/eslint');
});

test('red30 hooks: `npx --no-install prettier --check .` hook — sandboxed Bash plants node_modules/.bin/prettier (npx runs the local bin)', async (t) => {
  if (skip) return t.skip(skip);
  const { root, marker } = await project('npx-bin');
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'p', private: true }));
  const s = new Session(root, {
    Stop: [{ hooks: [{ type: 'command', command: 'npx --no-install prettier --check .' }] }],
  });
  const planted = path.join(root, 'node_modules', '.bin', 'prettier');
  await plant(
    s,
    `mkdir -p node_modules/.bin && printf '#!/bin/sh\\n%s\\n' "${payload(marker).replace(/"/g, '\\"')}" > node_modules/.bin/prettier && chmod +x node_modules/.bin/prettier`,
    planted,
  );
  await assertContained(s, planted, marker, 'npx prettier → node_modules/.bin/prettier');
});

test('red30 hooks: a pinned hook script sources `scripts/lib.sh` — sandboxed Bash rewrites the sourced file', async (t) => {
  if (skip) return t.skip(skip);
  const { root, marker } = await project('sourced');
  await writeExec(
    path.join(root, '.claude', 'hooks', 'check.sh'),
    'cat >/dev/null; . "$CLAUDE_PROJECT_DIR/scripts/lib.sh"; check_all',
  );
  writeFileSync(path.join(root, 'scripts-placeholder'), '');
  mkdirSync(path.join(root, 'scripts'));
  writeFileSync(path.join(root, 'scripts', 'lib.sh'), 'check_all() { echo ok; }\n');
  const s = new Session(root, {
    Stop: [{ hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh' }] }],
  });
  const planted = path.join(root, 'scripts', 'lib.sh');
  await plant(s, `printf 'check_all() { %s; }\\n' "${payload(marker).replace(/"/g, '\\"')}" > scripts/lib.sh`, planted);
  await assertContained(s, planted, marker, 'check.sh sources scripts/lib.sh');
});

test('red30 hooks: a pinned node hook `node .claude/hooks/check.js` requires `../../lib/rules.js` — sandboxed Bash rewrites the required module', async (t) => {
  if (skip) return t.skip(skip);
  const { root, marker } = await project('required');
  await fs.mkdir(path.join(root, '.claude', 'hooks'), { recursive: true });
  writeFileSync(path.join(root, '.claude', 'hooks', 'check.js'), "require('../../lib/rules.js').check();\n");
  mkdirSync(path.join(root, 'lib'));
  writeFileSync(path.join(root, 'lib', 'rules.js'), 'exports.check = () => {};\n');
  const s = new Session(root, {
    Stop: [{ hooks: [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR"/.claude/hooks/check.js' }] }],
  });
  const planted = path.join(root, 'lib', 'rules.js');
  const js = `exports.check = () => require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran as worker');`;
  await plant(s, `cat > lib/rules.js <<'EOF'\n${js}\nEOF`, planted);
  await assertContained(s, planted, marker, 'check.js requires lib/rules.js');
});

test('red30 hooks: a hook command inside `sh -c "…"` (`sh -c "sh scripts/check.sh"`) — the quoted word is not split, so scripts/check.sh is neither pinned nor protected', async (t) => {
  if (skip) return t.skip(skip);
  const { root, marker } = await project('sh-c');
  await writeExec(path.join(root, 'scripts', 'check.sh'), 'echo ok');
  const s = new Session(root, { Stop: [{ hooks: [{ type: 'command', command: 'sh -c "sh scripts/check.sh"' }] }] });
  const planted = path.join(root, 'scripts', 'check.sh');
  await plant(s, `printf '#!/bin/sh\\n%s\\n' "${payload(marker).replace(/"/g, '\\"')}" > scripts/check.sh`, planted);
  await assertContained(s, planted, marker, 'sh -c "sh scripts/check.sh"');
});

test('red30 hooks: a hook naming its script through `$PWD` (`"$PWD"/scripts/check.sh`) — a variable other than CLAUDE_PROJECT_DIR leaves the file unpinned', async (t) => {
  if (skip) return t.skip(skip);
  const { root, marker } = await project('pwd-var');
  await writeExec(path.join(root, 'scripts', 'check.sh'), 'echo ok');
  const s = new Session(root, { Stop: [{ hooks: [{ type: 'command', command: '"$PWD"/scripts/check.sh' }] }] });
  const planted = path.join(root, 'scripts', 'check.sh');
  await plant(s, `printf '#!/bin/sh\\n%s\\n' "${payload(marker).replace(/"/g, '\\"')}" > scripts/check.sh`, planted);
  await assertContained(s, planted, marker, '"$PWD"/scripts/check.sh');
});

test('red30 hooks: `python3 -m tools.lint` — the package is pinned as a tree, but a symlink inside it is hashed by its text only: sandboxed Bash rewrites the link’s target', async (t) => {
  if (skip) return t.skip(skip);
  const { root, marker } = await project('tree-link');
  mkdirSync(path.join(root, 'tools'));
  mkdirSync(path.join(root, 'shared'));
  writeFileSync(path.join(root, 'tools', '__init__.py'), '');
  writeFileSync(path.join(root, 'shared', 'lint_impl.py'), 'print("lint ok")\n');
  symlinkSync('../shared/lint_impl.py', path.join(root, 'tools', 'lint.py'));
  const s = new Session(root, { Stop: [{ hooks: [{ type: 'command', command: 'python3 -m tools.lint' }] }] });
  const planted = path.join(root, 'shared', 'lint_impl.py');
  const py = `open(${JSON.stringify(marker)}, "w").write("ran as worker")`;
  await plant(s, `cat > shared/lint_impl.py <<'EOF'\n${py}\nEOF`, planted);
  await assertContained(s, planted, marker, 'python3 -m tools.lint → tools/lint.py → ../shared/lint_impl.py');
});

test('red30 hooks: `python3 -m tools.lint` with a package of more than 2000 entries — the tree pin is truncated; a bypassPermissions Write of tools/lint.py is not seen', async (t) => {
  if (skip) return t.skip(skip);
  const { root, marker } = await project('tree-big');
  mkdirSync(path.join(root, 'tools'));
  writeFileSync(path.join(root, 'tools', '__init__.py'), '');
  for (let i = 0; i < 2050; i++) writeFileSync(path.join(root, 'tools', `data_${String(i).padStart(4, '0')}.txt`), '');
  writeFileSync(path.join(root, 'tools', 'lint.py'), 'print("lint ok")\n');
  const s = new Session(
    root,
    { Stop: [{ hooks: [{ type: 'command', command: 'python3 -m tools.lint' }] }] },
    'bypassPermissions',
  );
  const planted = path.join(root, 'tools', 'lint.py');
  // bypassPermissions may write a protected path (the documented exception): the pins are the defence.
  await s.run('Read', { file_path: planted });
  await s.run('Write', {
    file_path: planted,
    content: `open(${JSON.stringify(marker)}, "w").write("ran as worker")\n`,
  });
  await assertContained(s, planted, marker, 'a truncated tree pin');
});

test('red30 hooks → secrets: a worker whose environment holds the bait runs the `npm run lint` Stop hook after the plant — the planted script reads the worker’s /proc/<pid>/environ into the project, where Read returns it', async (t) => {
  if (skip) return t.skip(skip);
  const { root } = await project('environ');
  writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({ name: 'p', private: true, scripts: { lint: 'sh scripts/lint.sh' } }),
  );
  await writeExec(path.join(root, 'scripts', 'lint.sh'), 'echo lint ok');
  const hooks: HooksConfig = { Stop: [{ hooks: [{ type: 'command', command: 'npm run --silent lint' }] }] };
  const s = new Session(root, hooks);
  // The plant: walk up the hook's ancestors (the worker) and copy their environment into the project.
  const body = [
    '#!/bin/sh',
    'p=$$',
    'while [ "$p" -gt 1 ]; do tr "\\0" "\\n" < /proc/$p/environ >> loot.env 2>/dev/null; p=$(awk "/^PPid:/{print \\$2}" /proc/$p/status); done',
  ].join('\n');
  await s.run('Bash', { command: `printf '${body}\n' > scripts/lint.sh` });
  // A worker process started with the secrets in its environment (as a real worker is) runs the Stop hook.
  const hooksModule = path.resolve(__dirname, '../../src/hooks/index.js');
  const worker = path.join(tmp, 'environ', 'worker.js');
  writeFileSync(
    worker,
    `const { runSessionEventHooks } = require(${JSON.stringify(hooksModule)});
const pins = ${JSON.stringify(s.pins)};
runSessionEventHooks({ session_id: 's', cwd: ${JSON.stringify(root)}, permission_mode: 'dontAsk', hook_event_name: 'Stop', stop_hook_active: false },
  { config: ${JSON.stringify(hooks)}, projectDir: ${JSON.stringify(root)}, pins }).then((r) => console.log(JSON.stringify(r.map((x) => x.outcome))));`,
  );
  const { execFileSync } = await import('node:child_process');
  const out = execFileSync(process.execPath, [worker], { env: { ...process.env, ...BAIT }, encoding: 'utf8' });
  // What the agent's Read would return.
  const read = await s.run('Read', { file_path: path.join(root, 'loot.env') });
  const text =
    read.text + (existsSync(path.join(root, 'loot.env')) ? readFileSync(path.join(root, 'loot.env'), 'utf8') : '');
  for (const [k, v] of Object.entries(BAIT))
    assert.equal(
      text.includes(v),
      false,
      `${k} of the worker landed in the project, readable by the agent (hook runs ${out.trim()})`,
    );
});

// ---------------------------------------------------------------------------------------------
// A hook's output redirect (`cat >> log`) is now excluded from pins and protections (676f910):
// the agent makes the log a symlink, and the hook — outside the sandbox, as the worker — writes
// where it points.

test('red30 hooks: a Stop hook `cat >> "$CLAUDE_PROJECT_DIR"/hooks.log` — sandboxed Bash makes hooks.log a symlink outside the writable area; the worker writes through it', async (t) => {
  if (skip) return t.skip(skip);
  const { root, marker } = await project('redirect-link');
  const s = new Session(root, {
    Stop: [{ hooks: [{ type: 'command', command: 'cat >> "$CLAUDE_PROJECT_DIR"/hooks.log' }] }],
  });
  const link = path.join(root, 'hooks.log');
  await s.run('Bash', { command: `ln -s '${marker}' hooks.log` });
  assert.ok(existsSync(path.dirname(link)));
  await assertContained(s, link, marker, 'the hook wrote through a symlink the agent made');
});

test('red30 hooks: the same redirect symlinked to a protected control file of the project (.claude/settings.local.json) — the worker creates it', async (t) => {
  if (skip) return t.skip(skip);
  const { root } = await project('redirect-control');
  mkdirSync(path.join(root, '.claude'));
  const s = new Session(root, {
    Stop: [{ hooks: [{ type: 'command', command: 'cat >> "$CLAUDE_PROJECT_DIR"/hooks.log' }] }],
  });
  const target = path.join(root, '.claude', 'settings.local.json');
  const direct = await s.run('Bash', { command: `echo '{}' > .claude/settings.local.json 2>/dev/null; true` });
  assert.equal(existsSync(target), false, `the sandbox holds a direct write: ${direct.text}`);
  await s.run('Bash', { command: `ln -s .claude/settings.local.json hooks.log` });
  await s.stop();
  assert.equal(
    existsSync(target),
    false,
    `the worker wrote a protected control file through the log link: ${existsSync(target) ? readFileSync(target, 'utf8') : ''}`,
  );
});

// ---------------------------------------------------------------------------------------------
// Sessions apart through /proc: another session's process's root and cwd.

const permissionOf = (work: string): ToolPermissionContext => ({
  mode: 'default',
  rules: { allow: [], ask: [], deny: [] },
  workingDirectories: [work],
  sandbox: {},
});

function ctx(sessionId: string, work: string, signal = new AbortController().signal): ToolUseContext {
  const toolUseId = `toolu_${++n}`;
  return {
    sessionId,
    toolUseId,
    idempotencyKey: `${sessionId}/${toolUseId}`,
    agent: { cwd: work, additionalDirectories: [], readFiles: {} },
    permission: permissionOf(work),
    abortSignal: signal,
    sandboxHost,
    privatePaths: [path.join(tmp, 'store')],
  };
}

test('red30 apart: session B reads session A’s temp files through /proc/<pid>/root, /proc/<pid>/cwd, /proc/<pid>/environ of A’s running command', async (t) => {
  if (skip) return t.skip(skip);
  const workA = path.join(tmp, 'apart', 'a');
  const workB = path.join(tmp, 'apart', 'b');
  mkdirSync(workA, { recursive: true });
  mkdirSync(workB, { recursive: true });
  const a = `red30-a-${process.pid}-${Date.now()}`;
  const b = `red30-b-${process.pid}-${Date.now()}`;
  const SECRET = `PROC-SECRET-${process.pid}`;
  const stopA = new AbortController();
  const fg = BashTool.call(
    { command: `cd "$TMPDIR" && echo ${SECRET} > secret.txt && export A_SECRET=${SECRET} && sleep 30` },
    ctx(a, workA, stopA.signal),
    () => undefined,
  ).catch(() => undefined);
  try {
    const aDir = sessionTempPath(a);
    const end = Date.now() + 20_000;
    while (!existsSync(path.join(aDir, 'secret.txt')) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    assert.ok(existsSync(path.join(aDir, 'secret.txt')), 'A wrote its secret');
    const loot = path.join(workB, 'loot');
    mkdirSync(loot);
    const attempts = [
      `ls /proc > ${loot}/proc-list.txt`,
      `for p in /proc/[0-9]*; do cat "$p/cwd/secret.txt" 2>/dev/null; cat "$p/root${aDir}/secret.txt" 2>/dev/null; tr '\\0' '\\n' < "$p/environ" 2>/dev/null | grep -a A_SECRET; done`,
      `for p in /proc/[0-9]*; do ls -la "$p/root/tmp" "$p/cwd" 2>/dev/null; done | head -50`,
      `cat /proc/*/task/*/cwd/secret.txt 2>/dev/null`,
      `find / -xdev -name secret.txt -exec cat {} + 2>/dev/null | head`,
    ];
    for (const [i, cmd] of attempts.entries()) {
      const r = (
        await BashTool.call(
          { command: `{ ${cmd} ; } > ${loot}/${i}.txt 2>&1`, timeout: 60_000 },
          ctx(b, workB),
          () => undefined,
        )
      ).data as BashOutput;
      assert.equal(r.sandbox?.sandboxed, true, JSON.stringify(r.sandbox));
    }
    let got = '';
    for (const f of await fs.readdir(loot)) got += await fs.readFile(path.join(loot, f), 'utf8');
    assert.equal(
      got.includes(SECRET),
      false,
      `B read A's secret through /proc:\n${got
        .split('\n')
        .filter((l) => l.includes(SECRET))
        .slice(0, 5)
        .join('\n')}`,
    );
  } finally {
    stopA.abort();
    await fg;
    await endSessionTemp(a);
    await endSessionTemp(b);
  }
});

// ---------------------------------------------------------------------------------------------
// The redirect exclusion (roughWords) must never drop a file a hook runs: redirections before the
// command, `&>`, `>&2`, process substitution, pipes after a redirect.

test('red30 hooks: a file the hook runs is still pinned whatever redirections surround it', async () => {
  const { hookControlFiles } = await import('../../src/permissions/protectedPaths');
  const root = '/proj';
  const forms = [
    '>"$CLAUDE_PROJECT_DIR"/out.log sh scripts/check.sh',
    '>out.log sh scripts/check.sh',
    '2>&1 >/dev/null sh scripts/check.sh',
    '>&2 sh scripts/check.sh',
    'sh scripts/check.sh &>log.txt',
    'tee >(sh scripts/check.sh) >/dev/null',
    'cat >>log.jsonl|sh scripts/check.sh',
    'cat >>log.jsonl&&sh scripts/check.sh',
    'cat >>log.jsonl;sh scripts/check.sh',
    'sh >|out.log scripts/check.sh',
    '1>out.log sh scripts/check.sh',
  ];
  for (const command of forms) {
    const files = hookControlFiles([{ command }], root, [root]);
    assert.ok(files.includes('/proj/scripts/check.sh'), `${command}: ${files.join(', ')}`);
  }
});

// ---------------------------------------------------------------------------------------------
// The same plants in every mode where sandboxed Bash runs (plan denies writes before the sandbox):
// the wall and the pins decide, not the mode.

for (const mode of ['default', 'acceptEdits', 'dontAsk', 'bypassPermissions'] as const) {
  test(`red30 hooks (${mode}): a package script's file, a planted node_modules/.bin program and a log symlink — nothing planted runs as the worker`, async (t) => {
    if (skip) return t.skip(skip);
    const { root, marker } = await project(`modes-${mode}`);
    writeFileSync(
      path.join(root, 'package.json'),
      JSON.stringify({ name: 'p', private: true, scripts: { lint: 'sh scripts/lint.sh && eslint .' } }),
    );
    await writeExec(path.join(root, 'scripts', 'lint.sh'), 'echo lint ok');
    const s = new Session(
      root,
      {
        Stop: [
          {
            hooks: [
              { type: 'command', command: 'npm run --silent lint; true' },
              { type: 'command', command: 'cat >> "$CLAUDE_PROJECT_DIR"/hooks.log' },
            ],
          },
        ],
      },
      mode,
    );
    const code = payload(marker).replace(/"/g, '\\"');
    await s.run('Bash', {
      command: [
        `printf '%s\\n' '#!/bin/sh' "${code}" > scripts/lint.sh`,
        `mkdir -p node_modules/.bin && printf '#!/bin/sh\\n%s\\n' "${code}" > node_modules/.bin/eslint && chmod +x node_modules/.bin/eslint`,
        `ln -s '${marker}' hooks.log`,
        'true',
      ].join('; '),
    });
    await assertContained(s, path.join(root, 'scripts', 'lint.sh'), marker, `${mode}: the plants`);
  });
}
