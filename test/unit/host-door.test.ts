// unit: the one door for host processes (invariant 15, src/hostProcess). Each caller that starts a
// process outside the sandbox — hook commands, worker-side git, stdio MCP servers, Bash, ripgrep,
// the sandbox machinery — is run for real with a worker environment full of bait secrets, and the
// environment the started process actually saw is read back from a file it wrote: no secret of the
// worker's gets through unless the user named it. Worker-side git runs no driver, hook or alias
// configuration of the repository's. And no module of src/ outside the door may start a process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, existsSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { hostEnvironment, runHostProcess, type HostPurpose } from '../../src/hostProcess/door';
import { GIT_GUARD_ENV, hostGit, runHostGit } from '../../src/hostProcess/git';
import { runShellCommand } from '../../src/hooks/command';
import { HostStdioTransport } from '../../src/mcp/stdioTransport';
import { git as worktreeGit } from '../../src/worktree/worktrees';
import { withEnv } from '../support/bait';
import { waitFor } from '../support/wait';

/** Secrets a worker's environment holds; none may reach a process the door starts unless named. */
const BAIT: Record<string, string> = {
  ANTHROPIC_API_KEY: 'sk-ant-bait-1',
  ANTHROPIC_AUTH_TOKEN: 'bait-auth-2',
  CLAUDE_CODE_OAUTH_TOKEN: 'bait-oauth-3',
  DATABASE_URL: 'postgres://u:bait-pw-4@db/x',
  AWS_SECRET_ACCESS_KEY: 'bait-aws-5',
  GITHUB_TOKEN: 'bait-gh-6',
  TEMPORAL_API_KEY: 'bait-temporal-7',
  MY_SERVICE_TOKEN: 'bait-custom-8',
  PGPASSWORD: 'bait-pg-9',
  OPENAI_API_KEY: 'bait-openai-10',
};

const withBait = <T>(f: () => Promise<T>): Promise<T> => withEnv(BAIT, f);

function assertNoBait(text: string, who: string): void {
  for (const [k, v] of Object.entries(BAIT)) {
    assert.ok(!text.includes(v), `${who}: the value of ${k} reached the process`);
    assert.ok(!new RegExp(`^${k}=`, 'm').test(text), `${who}: ${k} is set in the process`);
  }
}

const scratch = (): string => mkdtempSync(path.join(tmpdir(), 'da-door-'));

test('unit: every purpose of the door starts without the worker’s secrets (pure)', () => {
  const purposes: HostPurpose[] = ['sandboxed-command', 'hook', 'mcp-server', 'git', 'ripgrep', 'sandbox-machinery'];
  for (const p of purposes) {
    const env = hostEnvironment(p, {
      from: { ...BAIT, PATH: '/bin', HOME: '/h' },
      passEnv: ['ANTHROPIC_*', 'CLAUDE_*'],
    });
    assertNoBait(
      Object.entries(env)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n') + '\n',
      p,
    );
    assert.equal(env.PATH, '/bin', `${p} keeps PATH`);
  }
  // A variable the user names exactly passes (sandbox.passEnv), a worker credential only by its exact name.
  assert.equal(
    hostEnvironment('hook', { from: BAIT, passEnv: ['MY_SERVICE_TOKEN'] }).MY_SERVICE_TOKEN,
    BAIT.MY_SERVICE_TOKEN,
  );
  assert.equal(hostEnvironment('hook', { from: BAIT, passEnv: ['*'] }).ANTHROPIC_API_KEY, undefined);
  // MCP: what the server's configuration names is the user's choice.
  assert.equal(hostEnvironment('mcp-server', { from: BAIT, env: { TOKEN: 'named' } }).TOKEN, 'named');
});

test('unit: a hook command sees the allowlist and its own variables, none of the worker’s secrets', async () => {
  const dir = scratch();
  const out = path.join(dir, 'env.txt');
  await withBait(async () => {
    const r = await runShellCommand(`env > ${JSON.stringify(out)}`, {
      cwd: dir,
      stdin: '{}',
      timeoutMs: 10_000,
      env: { CLAUDE_PROJECT_DIR: dir },
    });
    assert.equal(r.exitCode, 0, r.stderr);
  });
  const seen = readFileSync(out, 'utf8');
  assertNoBait(seen, 'hook');
  assert.match(seen, new RegExp(`^CLAUDE_PROJECT_DIR=${dir}$`, 'm'));
  assert.match(seen, /^PATH=/m);
});

test('unit: a relative directory is refused by the door, never resolved against the worker’s cwd', async () => {
  const r = await runHostProcess({ purpose: 'hook', command: 'true', cwd: 'relative/dir' });
  assert.match(r.spawnError ?? '', /must be absolute/);
});

test('unit: a stdio MCP server sees the SDK defaults and its configured env, none of the worker’s secrets', async () => {
  const dir = scratch();
  const out = path.join(dir, 'env.txt');
  await withBait(async () => {
    const t = new HostStdioTransport({
      command: 'sh',
      // Written whole, then renamed: once the file is there, it is complete.
      args: [
        '-c',
        `env > ${JSON.stringify(`${out}.tmp`)}; pwd >> ${JSON.stringify(`${out}.tmp`)}; mv ${JSON.stringify(`${out}.tmp`)} ${JSON.stringify(out)}; cat >/dev/null`,
      ],
      env: { SERVER_TOKEN: 'configured' },
      cwd: dir,
    });
    await t.start();
    await waitFor('the MCP server to write its environment', async () => existsSync(out)).finally(() => t.close());
  });
  const seen = readFileSync(out, 'utf8');
  assertNoBait(seen, 'mcp server');
  assert.match(seen, /^SERVER_TOKEN=configured$/m);
  assert.ok(seen.trimEnd().endsWith(dir), 'it starts in the directory it was given');
});

/** A repository whose configuration would run code: filters, diff and merge drivers, hooks, an alias, a pager. */
function armedRepository(marker: string): string {
  const root = scratch();
  const g = (...a: string[]) =>
    execFileSync('git', a, { cwd: root, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } });
  g('init', '-q', '-b', 'main');
  g('config', 'user.email', 'a@b.c');
  g('config', 'user.name', 'a');
  writeFileSync(path.join(root, '.gitattributes'), '* filter=evil diff=evil merge=evil\n');
  writeFileSync(path.join(root, 'a.txt'), 'one\n');
  g('add', '.');
  g('commit', '-qm', 'init');
  const run = `sh -c 'env > ${marker}.$$; cat'`;
  g('config', 'filter.evil.smudge', run);
  g('config', 'filter.evil.clean', run);
  g('config', 'filter.evil.process', `sh -c 'env > ${marker}.process'`);
  g('config', 'diff.evil.textconv', `sh -c 'env > ${marker}.textconv; cat "$1"' -`);
  g('config', 'merge.evil.driver', `sh -c 'env > ${marker}.merge'`);
  g('config', 'core.pager', `sh -c 'env > ${marker}.pager'`);
  g('config', 'core.fsmonitor', `sh -c 'env > ${marker}.fsmonitor'`);
  mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
  writeFileSync(path.join(root, '.git', 'hooks', 'post-checkout'), `#!/bin/sh\nenv > ${marker}.hook\n`, {
    mode: 0o755,
  });
  return root;
}

test('unit: worker-side git runs no filter, driver, hook, pager or fsmonitor of the repository, and sees no secret', async () => {
  const marks = scratch();
  const marker = path.join(marks, 'ran');
  const root = armedRepository(marker);
  await withBait(async () => {
    // What the worktree tools run: a worktree add checks files out (smudge, post-checkout hook).
    await worktreeGit(root, ['worktree', 'add', '-q', '-b', 'wt', path.join(root, '.claude', 'worktrees', 'x')], {
      agentInvoked: true,
    });
    writeFileSync(path.join(root, 'a.txt'), 'two\n');
    await hostGit(root, ['add', 'a.txt']); // clean
    // textconv and external diff: git fails rather than running the repository's driver.
    await assert.rejects(() => hostGit(root, ['diff', '--cached']), /cannot run|died|unable to read/);
    await hostGit(root, ['diff', '--cached', '--stat']); // the pager
    await hostGit(root, ['status']); // fsmonitor
    rmSync(path.join(root, 'a.txt'));
    await hostGit(root, ['checkout', '--', 'a.txt']); // smudge
  });
  assert.deepEqual(readdirSync(marks), [], 'nothing the repository configured ran');
  // git's environment: the door's `git` purpose with the guard's variables (a child of git can not
  // be made to print it: nothing git would start is left configurable).
  const r = await withBait(() =>
    runHostProcess({ purpose: 'git', command: 'env', cwd: root, env: GIT_GUARD_ENV }, { timeoutMs: 10_000 }),
  );
  assert.equal(r.code, 0, r.stderr);
  assertNoBait(r.stdout, 'git');
  assert.match(r.stdout, /^GIT_CONFIG_NOSYSTEM=1$/m);
  assert.match(r.stdout, /^GIT_CONFIG_GLOBAL=\/dev\/null$/m);
});

test('unit: a caller may give git only git’s own location variables', async () => {
  await assert.rejects(
    () => runHostGit('/', ['version'], { env: { GIT_SSH_COMMAND: 'x' } }),
    /not a variable a caller may set/,
  );
});

/** Every .ts file under src/. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

test('unit: no module of src/ outside the door loads child_process or the MCP SDK’s spawning stdio client', () => {
  const src = path.resolve(__dirname, '../../../src');
  const offenders: string[] = [];
  const operators: string[] = [];
  for (const f of sources(src)) {
    const rel = path.relative(src, f);
    const text = readFileSync(f, 'utf8');
    const loads =
      /(?:^|\n)\s*import\s+(?!type\b)[^;]*from\s+['"](node:)?child_process['"]/.test(text) ||
      /require\(\s*['"](node:)?child_process['"]\s*\)/.test(text) ||
      /import\(\s*['"](node:)?child_process['"]\s*\)/.test(text) ||
      /['"]@modelcontextprotocol\/sdk\/client\/stdio(\.js)?['"]/.test(text);
    if (loads && !rel.startsWith(`hostProcess${path.sep}`)) offenders.push(rel);
    if (/purpose: 'operator'/.test(text)) operators.push(rel);
  }
  assert.deepEqual(offenders, []);
  // The person's whole environment goes only to what their own CLI starts for them.
  for (const rel of operators) assert.match(rel, /^(temporal|cli)\//, `${rel} starts an operator process`);
  assert.ok(operators.length >= 3, 'the dev server, the Go build and the service are operator processes');
});
