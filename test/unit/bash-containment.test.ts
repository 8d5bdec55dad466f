// unit: what Bash cannot reach on the worker, tried on the real OS sandbox (bubblewrap) with a fake
// HOME full of bait: every default credential path, the XDG / CLAUDE_CONFIG_DIR forms, files named
// by the worker's environment, the store (other sessions' results and transcripts), the worker's
// environment variables. Oracles are what the command printed and what is on disk, never the
// tool's words. Needs bwrap, socat and ripgrep (as test/unit/sandbox-bash.test.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs, existsSync } from 'node:fs';
import * as path from 'node:path';
import { BashTool, type BashOutput } from '../../src/tools/bash';
import { SandboxHost } from '../../src/sandbox/host';
import { DEFAULT_CREDENTIAL_PATHS } from '../../src/sandbox/policy';
import type { SandboxSettings } from '../../src/sandbox/settings';
import type { ResultStore, ToolResult, ToolUseContext } from '../../src/toolProtocol/Tool';
import { LocalResultStore } from '../../src/toolProtocol/resultStore';
import { sandboxSkip } from '../support/systemPackages';
import { makeTmpDir, removeDir } from './tools-harness';

/** Bash's sandbox in these tests (the worker's start-up owns one: src/runtime/callDeps.ts). */
const sandboxHost = new SandboxHost();

let skip: string | false = false;
let root = '';
let home = '';
let work = '';
let store = '';
let ownResults: LocalResultStore;
const saved: Record<string, string | undefined> = {};
/** Worker variables set for these tests (restored after). */
const BAIT_ENV: Record<string, string> = {
  FOO_TOKEN: 'bait-env-foo',
  DATABASE_URL: 'postgres://u:bait-env-db@h/db',
  AWS_ACCESS_KEY_ID: 'bait-env-akid',
  AWS_SECRET_ACCESS_KEY: 'bait-env-aws',
  AWS_SESSION_TOKEN: 'bait-env-awss',
  CLAUDE_CODE_OAUTH_TOKEN: 'bait-env-oauth',
  OPENAI_API_KEY: 'bait-env-openai',
  ANTHROPIC_API_KEY: 'bait-env-anthropic',
  DURABLE_AGENT_STORE: 'postgres://u:bait-env-store@h/db',
  GOOGLE_APPLICATION_CREDENTIALS: '', // set in before(): a file outside HOME
  TEMPORAL_TLS_CLIENT_KEY_PATH: '',
  XDG_CONFIG_HOME: '',
  CLAUDE_CONFIG_DIR: '',
};

/** A bait file for each default credential path (a directory entry gets a file inside). */
function baitFileFor(entry: string): string {
  const rel = entry.replace(/^~\//, '').replace(/\*$/, '.1');
  const isFile =
    /\.(json|toml|cnf|tfrc\.json)$|\/(credentials|auth\.json|config\.json)$|^\.(netrc|npmrc|pypirc|git-credentials|vault-token|pgpass|my\.cnf|gitconfig|env|bashrc|bash_profile|bash_login|profile|zshrc|zshenv|zprofile|zlogin|[a-z_]+_history)$|\/config(\.fish)?$|backup\.1$/.test(
      rel,
    );
  return isFile ? rel : path.join(rel, 'secret');
}

before(async () => {
  skip = await sandboxSkip(sandboxHost, 'the Bash containment tests');
  if (skip) return;
  root = await makeTmpDir('da-contain-');
  home = path.join(root, 'home');
  work = path.join(root, 'work');
  store = path.join(root, 'store');
  await fs.mkdir(work, { recursive: true });
  for (const entry of DEFAULT_CREDENTIAL_PATHS) {
    const f = path.join(home, baitFileFor(entry));
    await fs.mkdir(path.dirname(f), { recursive: true });
    await fs.writeFile(f, `BAIT-FILE ${entry}\n`);
  }
  await fs.writeFile(path.join(home, 'notes.txt'), 'PLAIN-HOME-FILE\n');
  // A real global git config: an identity, and a token where people keep one (issue 30, J3).
  await fs.writeFile(
    path.join(home, '.gitconfig'),
    '# BAIT-FILE ~/.gitconfig\n[user]\n\tname = Pat Person\n\temail = pat@example.com\n[http]\n\textraHeader = Authorization: Bearer BAIT-FILE-token\n',
  );
  // Relocated forms and files the environment names, outside HOME.
  const xdg = path.join(root, 'xdg');
  const claudeDir = path.join(root, 'claude-config');
  const keys = path.join(root, 'keys');
  for (const [f, text] of [
    [path.join(xdg, 'git', 'credentials'), 'BAIT-FILE xdg git\n'],
    [path.join(xdg, 'temporalio', 'temporal.toml'), 'BAIT-FILE xdg temporal\n'],
    [path.join(claudeDir, '.claude.json'), 'BAIT-FILE claude config dir\n'],
    [path.join(claudeDir, '.credentials.json'), 'BAIT-FILE claude credentials\n'],
    [path.join(keys, 'temporal-client.key'), 'BAIT-FILE temporal key\n'],
    [path.join(keys, 'gcp.json'), 'BAIT-FILE gcp\n'],
    [path.join(keys, 'public.txt'), 'PLAIN-KEYS-FILE\n'],
  ] as const) {
    await fs.mkdir(path.dirname(f), { recursive: true });
    await fs.writeFile(f, text);
  }
  BAIT_ENV.XDG_CONFIG_HOME = xdg;
  BAIT_ENV.CLAUDE_CONFIG_DIR = claudeDir;
  BAIT_ENV.TEMPORAL_TLS_CLIENT_KEY_PATH = path.join(keys, 'temporal-client.key');
  BAIT_ENV.GOOGLE_APPLICATION_CREDENTIALS = path.join(keys, 'gcp.json');
  // The store: this session's results, another session's results and transcripts.
  ownResults = new LocalResultStore(path.join(store, 'results', 'this-session'));
  await ownResults.put('toolu_own', 'OWN-RESULT\n');
  await fs.mkdir(path.join(store, 'results', 'other-session'), { recursive: true });
  await fs.writeFile(path.join(store, 'results', 'other-session', 'toolu_x.txt'), 'BAIT-STORE other result\n');
  await fs.mkdir(path.join(store, 'blobs', 'ab'), { recursive: true });
  await fs.writeFile(path.join(store, 'blobs', 'ab', 'abcdef'), 'BAIT-STORE transcript\n');
  for (const k of ['HOME', ...Object.keys(BAIT_ENV)]) saved[k] = process.env[k];
  process.env.HOME = home;
  Object.assign(process.env, BAIT_ENV);
});

after(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await sandboxHost.close();
  if (root) await removeDir(root);
});

function ctx(sandbox: SandboxSettings | undefined, results: ResultStore = ownResults): ToolUseContext {
  return {
    sessionId: 'contain-session',
    toolUseId: 'toolu_c',
    idempotencyKey: 'k',
    agent: { cwd: work, additionalDirectories: [], readFiles: {} },
    // As the activities build it: the result directory counts as a working directory (for Read).
    permission: {
      mode: 'bypassPermissions',
      rules: { allow: [], ask: [], deny: [] },
      workingDirectories: [work, ownResults.dir],
      ...(sandbox ? { sandbox } : {}),
    },
    abortSignal: new AbortController().signal,
    sandboxHost,
    resultStore: results,
    privatePaths: [store],
  };
}

async function bash(command: string, sandbox: SandboxSettings | undefined = {}): Promise<ToolResult<BashOutput>> {
  return BashTool.call({ command }, ctx(sandbox), () => undefined);
}

test('unit: sandboxed Bash reads none of the credential files: every default path, XDG and CLAUDE_CONFIG_DIR forms, files the environment names', async (t) => {
  if (skip) return t.skip(skip);
  const dirs = [
    home,
    BAIT_ENV.XDG_CONFIG_HOME,
    BAIT_ENV.CLAUDE_CONFIG_DIR,
    path.dirname(BAIT_ENV.TEMPORAL_TLS_CLIENT_KEY_PATH as string),
  ];
  // Every file under the directories, by name (find and cat: a listing and a read, both tried).
  const r = await bash(
    `for d in ${dirs.map((d) => `'${d}'`).join(' ')}; do find "$d" -type f -exec cat {} + 2>/dev/null; done; cat ~/.claude.json ~/.config/git/credentials 2>&1; true`,
  );
  assert.equal(r.data.sandbox?.sandboxed, true);
  // HOME is closed (issue 30, round o): even its plain files are unreadable; the key directory is not in HOME.
  assert.doesNotMatch(r.data.output, /PLAIN-HOME-FILE/, 'HOME is closed');
  assert.match(r.data.output, /PLAIN-KEYS-FILE/, 'and the key directory');
  assert.doesNotMatch(r.data.output, /BAIT-FILE/, r.data.output);
  // Without the sandbox the same command does print them: the sandbox is what hid them.
  const off = await bash(`cat ~/.claude.json '${BAIT_ENV.TEMPORAL_TLS_CLIENT_KEY_PATH}'`, { enabled: false });
  assert.match(off.data.output, /BAIT-FILE ~\/\.claude\.json[\s\S]*BAIT-FILE temporal key/);
});

test("unit: the store is out of sandboxed Bash's reach: other sessions' results and transcripts unreadable, nothing writable; this session's results readable", async (t) => {
  if (skip) return t.skip(skip);
  const own = path.join(ownResults.dir, 'toolu_own.txt');
  const r = await bash(
    `cat '${own}'; grep -r . '${store}' 2>/dev/null; ls -R '${store}' 2>/dev/null; ` +
      `echo planted > '${store}/results/other-session/planted.txt'; echo planted > '${ownResults.dir}/planted.txt'; echo x >> '${own}'; ` +
      `echo planted > '${store}/blobs/planted'; true`,
  );
  assert.equal(r.data.sandbox?.sandboxed, true);
  assert.match(r.data.output, /OWN-RESULT/, "this session's large result stays readable");
  assert.doesNotMatch(r.data.output, /BAIT-STORE/, r.data.output);
  assert.doesNotMatch(r.data.output, /toolu_x|abcdef/, 'not even the names');
  for (const f of ['results/other-session/planted.txt', 'results/this-session/planted.txt', 'blobs/planted'])
    assert.equal(existsSync(path.join(store, f)), false, f);
  assert.equal(await fs.readFile(own, 'utf8'), 'OWN-RESULT\n', "this session's result is not writable either");
  assert.equal(
    await fs.readFile(path.join(store, 'results', 'other-session', 'toolu_x.txt'), 'utf8'),
    'BAIT-STORE other result\n',
  );
  // The working directory and TMPDIR stay writable.
  const w = await bash('echo ok > here.txt && echo ok > "$TMPDIR/t" && cat here.txt "$TMPDIR/t"');
  assert.equal(w.data.output, 'ok\nok\n');
});

test("unit: sandboxed git commits as the person (user.name/email passed) without reading their global git config's token", async (t) => {
  if (skip) return t.skip(skip);
  const r = await bash(
    `git init -q idrepo && cd idrepo && git commit -q --allow-empty -m x && git log --format='%an <%ae> / %cn <%ce>'; ` +
      `cat ~/.gitconfig; git config --global --list; env | grep -i bearer; true`,
  );
  assert.equal(r.data.sandbox?.sandboxed, true);
  assert.match(r.data.output, /^Pat Person <pat@example\.com> \/ Pat Person <pat@example\.com>$/m, r.data.output);
  assert.doesNotMatch(r.data.output, /BAIT-FILE|Bearer/, r.data.output);
  // Without the sandbox git reads the file itself: the same identity, and the token is there to hide.
  const off = await bash('cat ~/.gitconfig', { enabled: false });
  assert.match(off.data.output, /Bearer BAIT-FILE-token/);
});

const BAIT_VALUES = /bait-env/;

test("unit: Bash gets an allowlist of the worker's environment, sandboxed and not; sandbox.passEnv adds names", async (t) => {
  if (skip) return t.skip(skip);
  for (const sandbox of [{}, { enabled: false }] as SandboxSettings[]) {
    const r = await bash('env', sandbox);
    const label = sandbox.enabled === false ? 'unsandboxed' : 'sandboxed';
    assert.equal(r.data.exitCode, 0, r.data.output);
    assert.equal(r.data.sandbox?.sandboxed, sandbox.enabled !== false);
    assert.doesNotMatch(r.data.output, BAIT_VALUES, `${label}: ${r.data.output}`);
    for (const name of Object.keys(BAIT_ENV)) {
      if (name === 'XDG_CONFIG_HOME') continue; // allowlisted (a directory, not a secret)
      assert.doesNotMatch(r.data.output, new RegExp(`^${name}=`, 'm'), `${label}: ${name}`);
    }
    assert.match(r.data.output, new RegExp(`^HOME=${home}$`, 'm'), label);
    assert.match(r.data.output, /^PATH=/m, label);
  }
  // Added names pass; a pattern never passes the worker's own credentials, an exact name does.
  for (const sandbox of [
    { passEnv: ['FOO_TOKEN', 'AWS_*', '*'] },
    { enabled: false, passEnv: ['FOO_TOKEN', 'AWS_*', '*'] },
  ] as SandboxSettings[]) {
    const r = await bash('env', sandbox);
    assert.match(r.data.output, /^FOO_TOKEN=bait-env-foo$/m);
    assert.match(r.data.output, /^AWS_SECRET_ACCESS_KEY=bait-env-aws$/m);
    assert.doesNotMatch(
      r.data.output,
      /bait-env-(anthropic|oauth|store)/,
      'a pattern does not pass the worker credentials',
    );
  }
  const named = await bash('echo "[$ANTHROPIC_API_KEY]"', { passEnv: ['ANTHROPIC_API_KEY'] });
  assert.equal(named.data.output, '[bait-env-anthropic]\n');
});

test("unit: a working directory or temp directory inside the worker's private state is refused with a clear error, not run read-only", async (t) => {
  if (skip) return t.skip(skip);
  const inside = path.join(store, 'project');
  await fs.mkdir(inside, { recursive: true });
  const c = { ...ctx({}), agent: { cwd: inside, additionalDirectories: [], readFiles: {} } };
  c.permission = { ...c.permission, workingDirectories: [inside] };
  await assert.rejects(
    BashTool.call({ command: 'echo hi > f' }, c, () => undefined),
    new RegExp(`the working directory ${inside} is inside ${store}, the worker's own state`),
  );
  assert.equal(existsSync(path.join(inside, 'f')), false);
  const savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = path.join(store, 'tmp');
  await fs.mkdir(process.env.TMPDIR, { recursive: true });
  try {
    await assert.rejects(bash('echo hi'), /the session's temp directory .* is inside .*the worker's own state/);
  } finally {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
  }
});
