// unit (issue 30, red teams n and o: N3b, N3c, O10, O12 — the control side and the spellings the rows
// do not try). Refs a command leaves are read as git reads them (src/sandbox/refFiles.ts) and those
// leading to a commit carrying a git directory are put back (movedRefs.ts), the agent's own kept; a
// repository configuration's credentials are masked (hostProcess/gitConfigSecrets.ts); the person's
// MCP servers start where nothing a session wrote is looked up (mcp/serverDirectory.ts). Oracles:
// git's own view of the refs afterwards, the masked text, the directory chosen.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { refSnapshots, undoCarriedRefs } from '../../src/sandbox/movedRefs';
import { holdsGitSecret, maskGitSecrets } from '../../src/hostProcess/gitConfigSecrets';
import { NEUTRAL_SERVER_DIRECTORY, serverDirectory } from '../../src/mcp/serverDirectory';
import { SandboxHost } from '../../src/sandbox/host';
import { redTool } from '../support/redTool';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-gitp-')));
after(() => rmSync(base, { recursive: true, force: true }));
const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const git = (root: string, ...a: string[]) =>
  execFileSync('git', ['-c', 'user.email=h@example.com', '-c', 'user.name=h', ...a], {
    cwd: root,
    env: GIT_ENV,
    encoding: 'utf8',
  }).trim();
const sh = (root: string, script: string) =>
  execFileSync('bash', ['-c', script], { cwd: root, env: GIT_ENV, encoding: 'utf8' }).trim();

let seq = 0;
/** A repository with one commit on main; returns its root, the commit and one carrying `src/HEAD` + `src/config`. */
function repo(): { root: string; clean: string; bad: string } {
  const root = path.join(base, `r${++seq}`);
  mkdirSync(path.join(root, 'src'), { recursive: true });
  writeFileSync(path.join(root, 'src', 'a.txt'), 'a\n');
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'init');
  const bad = sh(
    root,
    [
      `h=$(printf 'ref: refs/heads/main\\n' | git hash-object -w --stdin)`,
      `c=$(printf '[core]\\n\\tfsmonitor = "touch /tmp/x; false"\\n' | git hash-object -w --stdin)`,
      `src=$(printf '100644 blob %s\\tHEAD\\n100644 blob %s\\tconfig\\n' $h $c | git mktree)`,
      `top=$(printf '040000 tree %s\\tsrc\\n' $src | git mktree)`,
      `git -c user.name=a -c user.email=a@example.com commit-tree $top -p HEAD -m tidy`,
    ].join('\n'),
  );
  return { root, clean: git(root, 'rev-parse', 'HEAD'), bad };
}

/** What each spelling writes (as a sandboxed command could), then what git resolves afterwards. */
const SPELLINGS: [string, (r: { root: string; clean: string; bad: string }) => string, string[]][] = [
  [
    'a symlink ref to a file holding the commit',
    (r) => `printf '%s\\n' ${r.bad} > x.oid && ln -s ../../../x.oid .git/refs/heads/feature`,
    ['feature'],
  ],
  [
    'an upper-case object id with text after it',
    (r) => `printf '%s junk\\n' $(echo ${r.bad} | tr a-f A-F) > .git/refs/heads/feature`,
    ['feature'],
  ],
  [
    'a symref to info/x',
    (r) => `printf '%s\\n' ${r.bad} > .git/info/x && printf 'ref: info/x\\n' > .git/refs/heads/feature`,
    ['feature'],
  ],
  ['ORIG_HEAD itself', (r) => `printf '%s\\n' ${r.bad} > .git/ORIG_HEAD`, ['ORIG_HEAD']],
  [
    'FETCH_HEAD’s second line',
    (r) => `printf '%s\\t\\tbranch x\\n%s\\t\\tbranch y\\n' ${r.clean} ${r.bad} > .git/FETCH_HEAD`,
    [],
  ],
  [
    'a duplicate packed line',
    (r) =>
      `printf '# pack-refs with: peeled fully-peeled sorted\\n%s refs/heads/feature\\n%s refs/heads/feature\\n' ${r.clean} ${r.bad} > .git/packed-refs`,
    [],
  ],
  ['a replace ref of the tree', (r) => `git replace ${r.clean} ${r.bad}`, []],
  [
    'a ref to an object not there yet',
    () => `printf '%s\\n' 0123456789012345678901234567890123456789 > .git/refs/heads/feature`,
    [],
  ],
];

for (const [what, write, resolvable] of SPELLINGS)
  test(`moved refs: ${what} is put back (the commit it leads to carries a git directory)`, () => {
    const r = repo();
    const before = refSnapshots([r.root]);
    sh(r.root, write(r));
    const notes = undoCarriedRefs(before);
    assert.ok(notes.length > 0, 'named in the result');
    for (const name of resolvable)
      assert.throws(() => git(r.root, 'rev-parse', '--verify', '-q', name), `${name} no longer resolves`);
    assert.equal(git(r.root, 'rev-parse', 'main'), r.clean);
    const all = sh(
      r.root,
      'git for-each-ref --format="%(objectname)"; cat .git/FETCH_HEAD .git/ORIG_HEAD 2>/dev/null || true',
    );
    assert.ok(!all.includes(r.bad), `no ref leads to the commit: ${all}`);
    assert.equal(sh(r.root, 'ls .git/refs/replace 2>/dev/null | wc -l'), '0');
  });

for (const [what, line] of [
  [
    'the new id of a line (HEAD@{0})',
    (r: { clean: string; bad: string }) => `${r.clean} ${r.bad} a <a@b> 1700000000 +0000\tcommit: x`,
  ],
  [
    'an abbreviated id a checkout line moves from (@{-1})',
    (r: { clean: string; bad: string }) =>
      `${r.clean} ${r.clean} a <a@b> 1700000000 +0000\tcheckout: moving from ${r.bad.slice(0, 10)} to main`,
  ],
  [
    'an abbreviated id of an object not there yet',
    (r: { clean: string }) =>
      `${r.clean} ${r.clean} a <a@b> 1700000000 +0000\tcheckout: moving from 0123456789abcdef to main`,
  ],
] as const)
  test(`moved reflogs: a line naming ${what} is taken out (N3d)`, () => {
    const r = repo();
    const before = refSnapshots([r.root]);
    writeFileSync(path.join(r.root, '.git', 'logs', 'HEAD'), `${line(r)}\n`, { flag: 'a' });
    assert.ok(undoCarriedRefs(before).some((n) => /reflog line/.test(n)));
    assert.doesNotMatch(sh(r.root, 'cat .git/logs/HEAD'), new RegExp(r.bad.slice(0, 10)));
    assert.doesNotMatch(sh(r.root, 'cat .git/logs/HEAD'), /0123456789abcdef/);
    assert.match(sh(r.root, 'cat .git/logs/HEAD'), /commit \(initial\): init/);
  });

test('moved reflogs: the agent’s commits, checkouts (a detached one too) and update-ref keep their reflog lines', () => {
  const r = repo();
  const before = refSnapshots([r.root]);
  sh(
    r.root,
    'git -c user.email=a@example.com -c user.name=a commit -q --allow-empty -m work && git checkout -q -b topic && git checkout -q main && git checkout -q "$(git rev-parse HEAD)" && git checkout -q main && git update-ref refs/heads/x HEAD',
  );
  const logs = sh(r.root, 'cat .git/logs/HEAD .git/logs/refs/heads/x');
  assert.deepEqual(undoCarriedRefs(before), []);
  assert.equal(sh(r.root, 'cat .git/logs/HEAD .git/logs/refs/heads/x'), logs);
});

test('moved refs: the agent’s commit, branch and 3,000 tags on known commits stay; one screen per commit', () => {
  const r = repo();
  const before = refSnapshots([r.root]);
  sh(r.root, 'git -c user.email=a@example.com -c user.name=a commit -q --allow-empty -m work && git branch topic');
  sh(r.root, `h=$(git rev-parse HEAD); for i in $(seq 1 3000); do echo "$h refs/tags/t$i"; done >> .git/packed-refs`);
  const started = Date.now();
  assert.deepEqual(undoCarriedRefs(before), []);
  assert.ok(Date.now() - started < 60_000);
  assert.equal(git(r.root, 'log', '-1', '--format=%s', 'main'), 'work');
  assert.equal(git(r.root, 'tag').split('\n').length, 3000);
});

test('moved refs: a new symlink in refs/ is removed, not followed (its target is left alone)', () => {
  const r = repo();
  const outside = path.join(base, `outside${seq}`);
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'keep'), `${r.bad}\n`);
  const before = refSnapshots([r.root]);
  symlinkSync(outside, path.join(r.root, '.git', 'refs', 'heads', 'dir'));
  assert.ok(undoCarriedRefs(before).length > 0);
  assert.equal(sh(r.root, `cat ${outside}/keep`), r.bad, 'the target untouched');
  assert.equal(sh(r.root, 'ls .git/refs/heads'), 'main');
});

test('moved refs: refs/heads replaced by a symlink to a directory holding the commit: the link removed, the branches back', () => {
  const r = repo();
  const outside = path.join(base, `heads${seq}`);
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'main'), `${r.bad}\n`);
  const before = refSnapshots([r.root]);
  sh(r.root, `mv .git/refs/heads .git/old-heads && ln -s ${outside} .git/refs/heads`);
  assert.ok(undoCarriedRefs(before).length > 0);
  assert.equal(git(r.root, 'rev-parse', 'main'), r.clean);
  assert.equal(sh(r.root, `cat ${outside}/main`), r.bad, 'the target untouched');
});

test('repository config credentials: the URL userinfo, extraheader and token shapes are masked; the rest kept', () => {
  const text = [
    '[core]',
    '\trepositoryformatversion = 0',
    '[remote "origin"]',
    '\turl = https://x-access-token:ghp_abcdefghijklmnop@github.com/acme/app.git',
    '\tfetch = +refs/heads/*:refs/remotes/origin/*',
    '[remote "gl"]',
    '\turl = https://gitlab-ci-token:tok123@gitlab.example.com/x.git',
    '[remote "ssh"]',
    '\turl = ssh://git@github.com/acme/app.git',
    '[http "https://github.com/"]',
    '\textraHeader = AUTHORIZATION: basic eC1hY2Nlc3M=',
    '[url "https://u:p4ss@h.example/"]',
    '\tinsteadOf = https://h.example/',
    '[branch "main"]',
    '\tremote = origin',
    '',
  ].join('\n');
  const masked = maskGitSecrets(text);
  for (const secret of ['ghp_abcdefghijklmnop', 'tok123', 'eC1hY2Nlc3M=', 'p4ss', 'x-access-token'])
    assert.ok(!masked.includes(secret), `${secret} masked`);
  for (const kept of ['ssh://git@github.com', 'remote = origin', 'fetch = +refs/heads/*', '@github.com/acme/app.git'])
    assert.ok(masked.includes(kept), `${kept} kept`);
  assert.equal(holdsGitSecret('[remote "o"]\n\turl = ssh://git@github.com/x\n[core]\n\tbare = false\n'), false);
});

test('repository config credentials: Read through a symlink in the project shows them masked, Grep shows no line of the file', async () => {
  const r = repo();
  git(r.root, 'remote', 'add', 'origin', 'https://x-access-token:ghp_BAITgitpremote0@github.com/acme/app.git');
  git(r.root, 'config', 'http.https://github.com/.extraheader', 'AUTHORIZATION: basic BAITgitpheader');
  symlinkSync('.git/config', path.join(r.root, 'notes.txt'));
  const host = new SandboxHost();
  const tool = redTool(() => host, 'gitp');
  try {
    const read = await tool(r.root, 'bypassPermissions', 'Read', { file_path: path.join(r.root, 'notes.txt') });
    assert.match(read.text, /url = https:\/\/\*\*\*@github\.com\/acme\/app\.git/);
    for (const p of ['notes.txt', '.git', '.git/config']) {
      const grep = await tool(r.root, 'bypassPermissions', 'Grep', {
        pattern: 'BAIT',
        path: path.join(r.root, p),
        output_mode: 'content',
      });
      assert.doesNotMatch(grep.text, /BAIT/, p);
    }
    assert.doesNotMatch(read.text, /BAIT/);
  } finally {
    await host.close();
  }
});

test('MCP server directory: the person’s npx server starts in the neutral directory; a project’s in the project; a planted package named by a project-relative server is refused', () => {
  const root = path.join(base, 'mcp');
  mkdirSync(path.join(root, 'node_modules', '@acme', 'mcp-server'), { recursive: true });
  const npx = { command: 'npx', args: ['-y', '@acme/mcp-server'] };
  assert.equal(serverDirectory('acme', {}, npx, root, [root]), NEUTRAL_SERVER_DIRECTORY);
  assert.equal(serverDirectory('acme', { projectScope: { passEnv: [] } }, npx, root, [root]), root);
  assert.throws(
    () => serverDirectory('acme', {}, { command: 'npx', args: ['-y', '@acme/mcp-server@1.2.0', '.'] }, root, [root]),
    /node_modules\/@acme\/mcp-server would be run instead/,
  );
  assert.equal(serverDirectory('fs', {}, { command: 'npx', args: ['-y', '@other/fs', '.'] }, root, [root]), root);
  assert.equal(serverDirectory('local', {}, { command: 'node', args: ['./server.js'] }, root, [root]), root);
  writeFileSync(path.join(root, 'evil.py'), '');
  assert.throws(() =>
    serverDirectory('py', {}, { command: 'python3', args: ['-m', 'evil', '--root', '.'] }, root, [root]),
  );
});
