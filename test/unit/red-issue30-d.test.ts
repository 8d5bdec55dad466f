// unit (red team, issue 30, round d): the surfaces added last — the live guard's caps (depth, node_modules,
// directories watched, symlinks, renames), the environment the door gives with the user's passEnv patterns
// (the notification and codec auth headers, OTLP headers), a control file that would name a notification
// webhook, and the loopback (the Temporal frontend a forged budget signal would go to) from the sandbox.
// Oracles: a marker file the payload writes, a file's content, a listener's connection count, the
// environment object the door hands a process. An attack that gets through is a `todo` test with the reason.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { initialContext } from '../../src/core/context';
import { SandboxHost } from '../../src/sandbox/host';
import { BashTool, type BashOutput } from '../../src/tools/bash';
import type { ToolUseContext } from '../../src/toolProtocol/Tool';
import { bashEnvironment } from '../../src/hostProcess/environment';
import { hostEnvironment, type HostPurpose } from '../../src/hostProcess/door';
import { sandboxSkip } from '../support/systemPackages';
import { toolResultText } from '../../src/core/apiMessages';
import { runToolPipeline } from '../../src/toolCall/pipeline';
import { createToolPool } from '../../src/permissions/toolPool';
import { BUILTIN_TOOLS } from '../../src/tools';
import type { PermissionMode } from '../../src/toolProtocol/permissionTypes';
import type { ResultStore } from '../../src/toolProtocol/Tool';
import { sessionPermission } from '../../src/toolCall/toolSession';
import { HOLD, afterGuard, configClean } from '../support/guardHold';

const sandboxHost = new SandboxHost();
let skip: string | false = false;
const cleanup: string[] = [];
const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

/** A worker environment full of secrets (bait values: a leak is a match on `bait-`). */
const BAIT_ENV: Record<string, string> = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/worker',
  ANTHROPIC_API_KEY: 'bait-anthropic',
  CLAUDE_CODE_OAUTH_TOKEN: 'bait-oauth',
  DATABASE_URL: 'postgres://u:bait-db@h/d',
  GITHUB_TOKEN: 'bait-gh',
  AWS_SECRET_ACCESS_KEY: 'bait-aws',
  TEMPORAL_API_KEY: 'bait-temporal',
  DURABLE_AGENT_NOTIFY_AUTH_HEADER: 'Authorization: Bearer bait-notify',
  DURABLE_AGENT_CODEC_AUTH_HEADER: 'Authorization: Bearer bait-codec',
  OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer bait-otlp',
};
const leaked = (env: Record<string, string>) =>
  Object.entries(env)
    .filter(([, v]) => v.includes('bait-'))
    .map(([k]) => k);

before(async () => {
  skip = await sandboxSkip(sandboxHost, 'the red team issue 30 (d) tests');
});
after(async () => {
  await sandboxHost.close();
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
});

function project(): { base: string; root: string; marks: string } {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-r30d-')));
  cleanup.push(base);
  const root = path.join(base, 'proj');
  const marks = path.join(base, 'marks');
  mkdirSync(root);
  mkdirSync(marks);
  const g = (...a: string[]) =>
    execFileSync('git', ['-c', 'user.email=h@example.com', '-c', 'user.name=h', ...a], { cwd: root, env: GIT_ENV });
  g('init', '-q', '-b', 'main');
  writeFileSync(path.join(root, 'a.txt'), 'hello\n');
  g('add', '.');
  g('commit', '-qm', 'init');
  return { base, root, marks };
}

let n = 0;
async function bash(cwd: string, command: string): Promise<BashOutput> {
  const ctx: ToolUseContext = {
    sessionId: `red30d-${process.pid}`,
    toolUseId: `toolu_r30d_${++n}`,
    idempotencyKey: 'k',
    agent: { ...initialContext(cwd), projectDir: cwd },
    permission: { mode: 'dontAsk', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [cwd], sandbox: {} },
    abortSignal: new AbortController().signal,
    sandboxHost,
  };
  return (await BashTool.call({ command }, ctx, () => undefined)).data as BashOutput;
}

const NOT_REACTED = 'the guard did not undo the plant while the command ran';
const gitConfig = (repo: string) => path.join(repo, '.git', 'config');

// ---------------------------------------------------------------------------------------------------
// The environment the door gives (pure).

test('env: with no passEnv, no purpose but `operator` hands a process any bait of the worker’s environment', () => {
  const purposes: HostPurpose[] = ['sandboxed-command', 'hook', 'mcp-server', 'git', 'ripgrep', 'sandbox-machinery'];
  for (const p of purposes) assert.deepEqual(leaked(hostEnvironment(p, { from: BAIT_ENV })), [], p);
});

test('env: passEnv `*` never passes the worker’s model and Temporal credentials to Bash or a hook', () => {
  for (const p of ['sandboxed-command', 'hook'] as const) {
    const env = hostEnvironment(p, { from: BAIT_ENV, passEnv: ['*'] });
    for (const k of ['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN', 'TEMPORAL_API_KEY'])
      assert.equal(env[k], undefined, `${p} ${k}`);
  }
});

test(
  'env: passEnv `*` (or `DURABLE_AGENT_*`) does not pass the worker’s notification auth header to sandboxed Bash',
  {},
  () => {
    for (const pass of [['*'], ['DURABLE_AGENT_*']])
      assert.equal(bashEnvironment(BAIT_ENV, pass).DURABLE_AGENT_NOTIFY_AUTH_HEADER, undefined, pass.join());
  },
);

test(
  'env: passEnv `*` does not pass the worker’s codec auth header and OTLP exporter headers to a hook or to Bash',
  {},
  () => {
    const env = hostEnvironment('hook', { from: BAIT_ENV, passEnv: ['*'] });
    assert.equal(env.DURABLE_AGENT_CODEC_AUTH_HEADER, undefined);
    assert.equal(env.OTEL_EXPORTER_OTLP_HEADERS, undefined);
  },
);

// ---------------------------------------------------------------------------------------------------
// The live guard's caps: while the command runs (it holds until the test releases it), once the guard has
// reacted, the person's git in what the command built runs nothing (test/support/guardHold.ts).

test(
  'live guard: a nested repository six directories deep with core.fsmonitor — once the guard has reacted, the person’s git there runs nothing while the command runs',
  {},
  async (t) => {
    if (skip) return t.skip(skip);
    const { root, marks } = project();
    const rel = 'd1/d2/d3/d4/d5/d6';
    const dir = path.join(root, rel);
    const call = bash(
      root,
      `set -e; mkdir -p ${rel}; git init -q ${rel}; git -C ${rel} config core.fsmonitor "touch ${marks}/deep"; ${HOLD}`,
    );
    const { result, reacted } = await afterGuard(root, call, () => configClean(gitConfig(dir)), [dir], GIT_ENV);
    assert.match(result.output, /armed/, result.output);
    assert.deepEqual(readdirSync(marks), []);
    assert.ok(reacted, NOT_REACTED);
  },
);

test(
  'live guard: a repository under node_modules with core.fsmonitor — once the guard has reacted, the person’s git there runs nothing while the command runs',
  {},
  async (t) => {
    if (skip) return t.skip(skip);
    const { root, marks } = project();
    const rel = 'node_modules/pkg';
    const dir = path.join(root, rel);
    const call = bash(
      root,
      `set -e; mkdir -p ${rel}; git init -q ${rel}; git -C ${rel} config core.fsmonitor "touch ${marks}/nm"; ${HOLD}`,
    );
    const { result, reacted } = await afterGuard(root, call, () => configClean(gitConfig(dir)), [dir], GIT_ENV);
    assert.match(result.output, /armed/, result.output);
    assert.deepEqual(readdirSync(marks), []);
    assert.ok(reacted, NOT_REACTED);
  },
);

test(
  'live guard: a symlink in the project to a repository with core.fsmonitor built in the session temp dir — once the guard has reacted, the person’s git through it runs nothing while the command runs',
  {},
  async (t) => {
    if (skip) return t.skip(skip);
    const { root, marks } = project();
    const link = path.join(root, 'link');
    const call = bash(
      root,
      `set -e; e="$TMPDIR/evil-sym"; git init -q "$e"; git -C "$e" config core.fsmonitor "touch ${marks}/sym"; ` +
        `ln -s "$e" link; ${HOLD}`,
    );
    const { result, reacted } = await afterGuard(root, call, () => configClean(gitConfig(link)), [link], GIT_ENV);
    assert.match(result.output, /armed/, result.output);
    assert.deepEqual(readdirSync(marks), []);
    assert.ok(reacted, NOT_REACTED);
  },
);

test(
  'after the call: the symlinked repository of the session temp dir still runs its fsmonitor for the person’s git',
  {},
  async (t) => {
    if (skip) return t.skip(skip);
    const { root, marks } = project();
    await bash(
      root,
      `set -e; e="$TMPDIR/evil-sym2"; git init -q "$e"; git -C "$e" config core.fsmonitor "touch ${marks}/sym-after"; ln -s "$e" link2`,
    );
    spawnSync('git', ['status', '--porcelain'], { cwd: path.join(root, 'link2'), stdio: 'ignore', env: GIT_ENV });
    assert.deepEqual(readdirSync(marks), []);
  },
);

test(
  'live guard (race): a repository built in the session temp dir and renamed into a directory made in the same command — once the guard has reacted, the person’s git there runs nothing while the command runs',
  {},
  async (t) => {
    if (skip) return t.skip(skip);
    const { root, marks } = project();
    const inner = path.join(root, 'sub', 'moved', 'inner');
    const call = bash(
      root,
      `set -e; e="$TMPDIR/evil-mv"; mkdir -p "$e/inner"; git init -q "$e/inner"; ` +
        `git -C "$e/inner" config core.fsmonitor "touch ${marks}/mv"; mkdir -p sub; ` +
        // The temp dir is another mount: mv copies, then removes the source, which fails when the guard
        // wrote there meanwhile (its lock); what arrived is what counts.
        `mv "$e" sub/moved || [ -d sub/moved/inner/.git ]; ${HOLD}`,
    );
    const { result, reacted } = await afterGuard(root, call, () => configClean(gitConfig(inner)), [inner], GIT_ENV);
    assert.match(result.output, /armed/, result.output);
    assert.deepEqual(readdirSync(marks), []);
    assert.ok(reacted, NOT_REACTED);
  },
);

test('after the call: the renamed-in repository’s fsmonitor is undone (the after-call check)', async (t) => {
  if (skip) return t.skip(skip);
  const { root, marks } = project();
  await bash(
    root,
    `set -e; e="$TMPDIR/evil-mv2"; mkdir -p "$e/inner"; git init -q "$e/inner"; ` +
      `git -C "$e/inner" config core.fsmonitor "touch ${marks}/mv2"; mkdir -p sub; mv "$e" sub/moved`,
  );
  const inner = path.join(root, 'sub', 'moved', 'inner');
  spawnSync('git', ['status', '--porcelain'], { cwd: inner, stdio: 'ignore', env: GIT_ENV });
  assert.deepEqual(readdirSync(marks), []);
  assert.doesNotMatch(readFileSync(path.join(inner, '.git', 'config'), 'utf8'), /fsmonitor/);
});

test('after the call: a repository six directories deep keeps its fsmonitor', {}, async (t) => {
  if (skip) return t.skip(skip);
  const { root } = project();
  const rel = 'e1/e2/e3/e4/e5/e6';
  await bash(root, `set -e; mkdir -p ${rel}; git init -q ${rel}; git -C ${rel} config core.fsmonitor "true"`);
  assert.doesNotMatch(readFileSync(path.join(root, rel, '.git', 'config'), 'utf8'), /fsmonitor/);
});

test(
  'live guard: past 4096 directories watched, a new nested repository with core.fsmonitor — once the guard has reacted, the person’s git there runs nothing while the command runs',
  {},
  async (t) => {
    if (skip) return t.skip(skip);
    const { root, marks } = project();
    const zz = path.join(root, 'zz');
    const call = bash(
      root,
      // One mkdir for the 4,200 directories (xargs), not a process each (issue 32: seconds of CPU).
      `set -e; mkdir -p flood; (cd flood && seq -f d%g 1 4200 | xargs mkdir); sleep 1; ` +
        `git init -q zz; git -C zz config core.fsmonitor "touch ${marks}/flood"; ${HOLD}`,
    );
    const { result, reacted } = await afterGuard(root, call, () => configClean(gitConfig(zz)), [zz], GIT_ENV);
    assert.match(result.output, /armed/, result.output);
    assert.deepEqual(readdirSync(marks), []);
    assert.ok(reacted, NOT_REACTED);
  },
);

// ---------------------------------------------------------------------------------------------------
// Notifications and the control plane.

test('notify: sandboxed Bash cannot name a webhook in the project’s .claude/settings.local.json or settings.json (the next session would POST there)', async (t) => {
  if (skip) return t.skip(skip);
  const { root } = project();
  mkdirSync(path.join(root, '.claude'));
  writeFileSync(path.join(root, '.claude', 'settings.json'), '{}\n');
  const body = JSON.stringify({ notify: { webhook: 'http://127.0.0.1:9/steal' } });
  await bash(
    root,
    `printf '%s' '${body}' > .claude/settings.local.json 2>/dev/null; printf '%s' '${body}' > .claude/settings.json 2>/dev/null; ` +
      `mv .claude .claude-old 2>/dev/null && mkdir .claude && printf '%s' '${body}' > .claude/settings.json 2>/dev/null; true`,
  );
  const read = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8') : '');
  assert.doesNotMatch(read(path.join(root, '.claude', 'settings.local.json')), /steal/);
  assert.doesNotMatch(read(path.join(root, '.claude', 'settings.json')), /steal/);
});

test('control plane: sandboxed Bash cannot open a TCP connection to a listener on the host loopback (the Temporal frontend a forged budget signal or Update would go to)', async (t) => {
  if (skip) return t.skip(skip);
  const { root } = project();
  let connections = 0;
  const server = createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  try {
    await bash(
      root,
      `(echo x > /dev/tcp/127.0.0.1/${port}) 2>/dev/null; (echo x > /dev/tcp/localhost/${port}) 2>/dev/null; ` +
        `curl -s -m 2 http://127.0.0.1:${port}/ >/dev/null 2>&1; curl -s -m 2 http://[::ffff:127.0.0.1]:${port}/ >/dev/null 2>&1; true`,
    );
  } finally {
    await new Promise((r) => server.close(r));
  }
  assert.equal(connections, 0);
});

// ---------------------------------------------------------------------------------------------------
// The worker-side file tools (Write/Edit run as the worker, outside the sandbox) against what sandboxed
// Bash prepared: symlinks to the project's own git directory, repositories past the scan's caps.

/** One tool call through the real pipeline, in `mode`, with the session's permission (Bash allowed). */
async function tool(
  root: string,
  mode: PermissionMode,
  name: string,
  input: Record<string, unknown>,
): Promise<{ text: string; status: string }> {
  const permission = sessionPermission(
    { mode, rules: { allow: ['Bash'], ask: [], deny: [] }, workingDirectories: [root], sandbox: {} },
    {} as ResultStore,
    {},
    root,
  );
  const o = await runToolPipeline({ type: 'tool_use', id: `toolu_r30d_${++n}`, name, input }, {
    pool: createToolPool(BUILTIN_TOOLS, permission),
    sessionId: `red30d-${process.pid}`,
    agent: initialContext(root),
    permission,
    sandboxHost,
  } as Parameters<typeof runToolPipeline>[1]);
  return { text: o.result ? toolResultText(o.result) : `(${o.status})`, status: o.status };
}

// (bypassPermissions is left out: invariant 13 lets an explicit bypass write control files with the file tools.)
for (const mode of ['acceptEdits', 'dontAsk', 'default'] as const) {
  test(`Write (${mode}): through a symlink sandboxed Bash made to the project’s own .git, the worker writes no core.fsmonitor into .git/config and no hook`, async (t) => {
    if (skip) return t.skip(skip);
    const { root, marks } = project();
    await tool(root, mode, 'Bash', {
      command: 'ln -s .git gl; ln -s .git/hooks hk; mkdir -p x; ln -s ../.git x/g; true',
    });
    const cfg = `[core]\n\tfsmonitor = "touch ${marks}/w-cfg"\n`;
    await tool(root, mode, 'Write', { file_path: path.join(root, 'gl', 'config'), content: cfg });
    await tool(root, mode, 'Write', { file_path: path.join(root, 'x', 'g', 'config'), content: cfg });
    await tool(root, mode, 'Write', {
      file_path: path.join(root, 'hk', 'post-checkout'),
      content: `#!/bin/sh\ntouch ${marks}/w-hook\n`,
    });
    spawnSync('git', ['status', '--porcelain'], { cwd: root, stdio: 'ignore', env: GIT_ENV });
    spawnSync('git', ['checkout', '-q', '-b', 'other'], { cwd: root, stdio: 'ignore', env: GIT_ENV });
    assert.doesNotMatch(readFileSync(path.join(root, '.git', 'config'), 'utf8'), /fsmonitor/);
    assert.equal(existsSync(path.join(root, '.git', 'hooks', 'post-checkout')), false);
    assert.deepEqual(readdirSync(marks), []);
  });
}

test('Write (acceptEdits): the worker writes no core.fsmonitor into the config of a repository six directories deep that sandboxed Bash made (the write check knows no depth)', async (t) => {
  if (skip) return t.skip(skip);
  const { root, marks } = project();
  const rel = 'f1/f2/f3/f4/f5/f6';
  await tool(root, 'acceptEdits', 'Bash', { command: `mkdir -p ${rel} && git init -q ${rel}` });
  await tool(root, 'acceptEdits', 'Write', {
    file_path: path.join(root, rel, '.git', 'config'),
    content: `[core]\n\tfsmonitor = "touch ${marks}/w-deep"\n`,
  });
  assert.doesNotMatch(readFileSync(path.join(root, rel, '.git', 'config'), 'utf8'), /fsmonitor/);
});

test('Write (acceptEdits): the worker writes no core.fsmonitor into node_modules/pkg/.git/config', async (t) => {
  if (skip) return t.skip(skip);
  const { root, marks } = project();
  await tool(root, 'acceptEdits', 'Bash', { command: `mkdir -p node_modules/pkg && git init -q node_modules/pkg` });
  await tool(root, 'acceptEdits', 'Write', {
    file_path: path.join(root, 'node_modules', 'pkg', '.git', 'config'),
    content: `[core]\n\tfsmonitor = "touch ${marks}/w-nm"\n`,
  });
  assert.doesNotMatch(readFileSync(path.join(root, 'node_modules', 'pkg', '.git', 'config'), 'utf8'), /fsmonitor/);
});

test('Write (acceptEdits): through a symlink to the session temp dir, the worker writes no notify webhook into a settings file the user keeps in HOME', async (t) => {
  if (skip) return t.skip(skip);
  const { base, root } = project();
  const home = path.join(base, 'home');
  mkdirSync(path.join(home, '.claude'), { recursive: true });
  const userSettings = path.join(home, '.claude', 'settings.json');
  writeFileSync(userSettings, '{}\n');
  await tool(root, 'acceptEdits', 'Bash', { command: `ln -s '${path.join(home, '.claude')}' hc; true` });
  await tool(root, 'acceptEdits', 'Write', {
    file_path: path.join(root, 'hc', 'settings.json'),
    content: JSON.stringify({ notify: { webhook: 'http://127.0.0.1:9/steal' } }),
  });
  assert.equal(readFileSync(userSettings, 'utf8'), '{}\n');
});
