// unit: attacks from a linked worktree on the repository it belongs to (issue 19, DESIGN invariants
// 9 and 13; docs/security.md round 3), with real git, real files and Bash in the real OS sandbox.
// A child in a worktree (an isolated agent, EnterWorktree, `run --worktree`) commits on its own
// branch; it must not move the branches the main checkout and the other worktrees use, replace
// their objects, or plant what git outside the sandbox runs later. Each oracle is the repository as
// git outside the sandbox sees it, never what a tool says. Both ways a session learns its worktree
// are run: EnterWorktree's (the agent context) and run --worktree's / an isolated agent's (the
// sandbox settings).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { BashTool, type BashOutput } from '../../src/tools/bash';
import { SandboxHost } from '../../src/sandbox/host';
import type { ToolUseContext } from '../../src/toolProtocol/Tool';
import { createOrReuseWorktree, type Worktree } from '../../src/worktree/worktrees';
import { prepareWorktreeGit, shadowDirOf, worktreeGitAccess } from '../../src/worktree/git';
import { sandboxSkip } from '../support/systemPackages';
import { makeTmpDir, removeDir } from './tools-harness';

const sandboxHost = new SandboxHost();
let skip: string | false = false;
const dirs: string[] = [];

before(async () => {
  skip = await sandboxSkip(sandboxHost, 'the worktree attack tests');
});

after(async () => {
  await sandboxHost.close();
  for (const d of dirs) await removeDir(d);
});

type Git = (...a: string[]) => string;

/** A repository with `main` (checked out in the main checkout) and `release` (checked out nowhere), and a worktree made as for an isolated agent. */
async function repoWithWorktree(): Promise<{ repo: string; wt: Worktree; git: Git; wtGit: Git }> {
  const repo = await makeTmpDir('da-atk-wt-');
  dirs.push(repo);
  const git: Git = (...a) => execFileSync('git', a, { cwd: repo, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'human@example.com');
  git('config', 'user.name', 'Human');
  await fs.writeFile(path.join(repo, 'a.txt'), 'hello\n');
  git('add', 'a.txt');
  git('commit', '-qm', 'init');
  git('branch', 'release');
  const wt = await createOrReuseWorktree(repo, 'agent-atk', { agentInvoked: true });
  await prepareWorktreeGit(wt, wt.branch);
  const wtGit: Git = (...a) => execFileSync('git', a, { cwd: wt.path, encoding: 'utf8' });
  return { repo, wt, git, wtGit };
}

let n = 0;
/** Sandboxed Bash in the worktree, as EnterWorktree's session runs it (`agent.worktree`) or as run --worktree's does (the sandbox settings). */
async function bashIn(wt: Worktree, command: string, how: 'entered' | 'settings' = 'entered'): Promise<BashOutput> {
  const sessionId = `atk-wt-${process.pid}-${++n}`;
  const access = worktreeGitAccess(wt.commonDir, wt.gitDir);
  const c: ToolUseContext = {
    sessionId,
    toolUseId: `toolu_${n}`,
    idempotencyKey: `${sessionId}/toolu_${n}`,
    agent: {
      cwd: wt.path,
      additionalDirectories: [],
      readFiles: {},
      projectDir: wt.path,
      ...(how === 'entered' ? { worktree: { ...wt, created: true, originalCwd: wt.repoRoot } } : {}),
    },
    permission: {
      mode: 'default',
      rules: { allow: [], ask: [], deny: [] },
      workingDirectories: [wt.path],
      sandbox:
        how === 'settings'
          ? {
              filesystem: { allowWrite: access.allowWrite, denyWrite: access.denyWrite },
              worktreeGit: [access.worktreeGit],
            }
          : {},
    },
    abortSignal: new AbortController().signal,
    sandboxHost,
  };
  const out = (await BashTool.call({ command }, c, () => undefined)).data;
  assert.equal(out.sandbox?.sandboxed, true, 'the command ran in the sandbox');
  return out;
}

const ID = '-c user.email=a@example.com -c user.name=agent';
const said = (o: BashOutput) => `(${o.exitCode}: ${o.output}${o.worktreeGitNote ? `\n${o.worktreeGitNote}` : ''})`;

for (const how of ['entered', 'settings'] as const) {
  test(`worktree (${how}): a child commits on its branch — the repository has the commit after the call, and main does not move`, async (t) => {
    if (skip) return t.skip(skip);
    const { git, wt, wtGit } = await repoWithWorktree();
    const main = git('rev-parse', 'main').trim();
    const out = await bashIn(
      wt,
      `echo work > b.txt && git add b.txt && git ${ID} commit -qm work && echo staged > c.txt && git add c.txt && git log --oneline main -1`,
      how,
    );
    assert.equal(out.exitCode, 0, said(out));
    const tip = git('rev-parse', wt.branch).trim();
    assert.notEqual(tip, main, `the worktree's branch did not move ${said(out)}`);
    assert.equal(git('show', `${wt.branch}:b.txt`), 'work\n', 'the commit is readable from the main checkout');
    assert.equal(git('rev-parse', 'main').trim(), main);
    // Between commands the worktree is a plain worktree again: its index's staged blob is in the repository.
    assert.equal(await fs.readFile(path.join(wt.gitDir, 'commondir'), 'utf8'), '../..\n');
    assert.equal(wtGit('diff', '--cached', '--name-only').trim(), 'c.txt');
    assert.equal(wtGit('rev-parse', 'HEAD').trim(), tip);
    git('fsck', '--no-dangling', '--no-progress');
    git('gc', '-q'); // nothing the repository needs is missing
    assert.equal(out.worktreeGitNote, undefined, 'nothing to report');
  });
}

test('attack: a child in a worktree moves the branch the main checkout has checked out (git update-ref)', async (t) => {
  if (skip) return t.skip(skip);
  const { git, wt } = await repoWithWorktree();
  const before = git('rev-parse', 'main').trim();
  const out = await bashIn(
    wt,
    `echo evil > a.txt && git add a.txt && git ${ID} commit -qm evil && git update-ref refs/heads/main HEAD && git rev-parse main`,
  );
  assert.equal(git('rev-parse', 'main').trim(), before, `main moved ${said(out)}`);
  assert.equal(git('show', 'main:a.txt'), 'hello\n');
  // Its own branch did move, and the model is told main did not.
  assert.equal(git('show', `${wt.branch}:a.txt`), 'evil\n');
  assert.match(out.worktreeGitNote ?? '', /refs\/heads\/main .*not applied/);
});

test('attack: a child in a worktree replaces an object of the repository (through its git, and by the repository’s path)', async (t) => {
  if (skip) return t.skip(skip);
  const { git, wt, repo } = await repoWithWorktree();
  const blob = git('rev-parse', 'main:a.txt').trim();
  const realObject = path.join(repo, '.git', 'objects', blob.slice(0, 2), blob.slice(2));
  const out = await bashIn(
    wt,
    `o=$(git rev-parse --git-common-dir)/objects; h=$(echo evil | git hash-object -w --stdin); ` +
      `mkdir -p "$o/${blob.slice(0, 2)}"; cp --remove-destination "$o/\${h:0:2}/\${h:2}" "$o/${blob.slice(0, 2)}/${blob.slice(2)}"; ` +
      `cp --remove-destination "$o/\${h:0:2}/\${h:2}" ${realObject}; echo rc=$?`,
  );
  assert.match(out.output, /rc=1/, `the repository's object file was writable ${said(out)}`);
  assert.equal(git('show', 'main:a.txt'), 'hello\n', `the main branch's a.txt changed ${said(out)}`);
  assert.equal(git('cat-file', '-p', blob), 'hello\n');
  // The forged copy went into the repository under the name its content hashes to, if at all.
  git('fsck', '--no-dangling', '--no-progress');
});

test('attack: a child in a worktree plants git config or hooks that git outside the sandbox would run', async (t) => {
  if (skip) return t.skip(skip);
  const { git, wt, wtGit, repo } = await repoWithWorktree();
  const marker = path.join(repo, '..', `pwned-${path.basename(repo)}`);
  const shadow = shadowDirOf(wt);
  await bashIn(wt, 'true'); // the shadow's config is written at the first command
  const configBefore = await fs.readFile(path.join(shadow, 'config'), 'utf8');
  assert.match(configBefore, /\[include\]/);
  const out = await bashIn(
    wt,
    [
      `git config core.fsmonitor "touch ${marker}"`,
      `echo "[core] fsmonitor = touch ${marker}" >> "$(git rev-parse --git-common-dir)/config"`,
      `mkdir -p "$(git rev-parse --git-common-dir)/hooks" && printf '#!/bin/sh\\ntouch ${marker}\\n' > "$(git rev-parse --git-common-dir)/hooks/post-checkout"`,
      `echo gitdir: /tmp > "$(git rev-parse --git-dir)/commondir"`,
      `printf '[core]\\n\\tfsmonitor = touch ${marker}\\n' > "$(git rev-parse --git-dir)/config.worktree"`,
      `true`,
    ].join('; '),
  );
  assert.equal(await fs.readFile(path.join(shadow, 'config'), 'utf8').catch(() => ''), configBefore, said(out));
  assert.equal(await fs.readFile(path.join(wt.gitDir, 'commondir'), 'utf8'), '../..\n');
  // git outside the sandbox, in the worktree and in the main checkout: nothing runs.
  wtGit('status', '--short');
  wtGit('checkout', '-q', '-b', 'human-branch');
  git('status', '--short');
  await assert.rejects(fs.stat(marker), `something the child planted ran outside the sandbox ${said(out)}`);
});

test('attack: a symlinked object file in the worktree’s object store is never read by the worker', async (t) => {
  if (skip) return t.skip(skip);
  const { git, wt, repo } = await repoWithWorktree();
  const secret = path.join(repo, '..', `secret-${path.basename(repo)}`);
  dirs.push(secret);
  // A loose object (zlib, as git writes it) outside the worktree: were it followed, it would come in.
  await fs.writeFile(secret, 'top secret\n');
  const hash = execFileSync('git', ['hash-object', secret], { encoding: 'utf8' }).trim();
  const out = await bashIn(
    wt,
    `o=$(git rev-parse --git-common-dir)/objects; mkdir -p "$o/ab"; ` +
      `ln -s ${path.join(repo, '.git', 'objects', 'zz')} "$o/${hash.slice(0, 2)}x" ; ` +
      `ln -s ${secret} "$o/ab/${'c'.repeat(38)}"; echo more > m.txt; git add m.txt; git ${ID} commit -qm more`,
  );
  assert.equal(out.exitCode, 0, said(out));
  assert.equal(git('show', `${wt.branch}:m.txt`), 'more\n', 'the legitimate commit still came in');
  assert.throws(() => git('cat-file', '-e', hash), 'the secret is not an object of the repository');
});

test('attack: a child in a worktree commits a tree with a .git entry — the repository refuses the objects, its branch stays', async (t) => {
  if (skip) return t.skip(skip);
  const { git, wt } = await repoWithWorktree();
  const before = git('rev-parse', wt.branch).trim();
  const out = await bashIn(
    wt,
    `b=$(printf '#!/bin/sh\\necho pwned\\n' | git hash-object -w --stdin); ` +
      `h=$(printf "100755 blob $b\\tpost-checkout\\n" | git mktree); ` +
      `k=$(printf "040000 tree $h\\thooks\\n" | git mktree); ` +
      `t=$(printf "040000 tree $k\\t.git\\n" | git mktree); ` +
      `c=$(git ${ID} commit-tree -m x -p HEAD $t); git update-ref HEAD $c`,
  );
  assert.equal(git('rev-parse', wt.branch).trim(), before, `the branch took a commit with a .git tree ${said(out)}`);
  assert.match(out.worktreeGitNote ?? '', /refused|not brought/);
});

test('attack: a child in a worktree moves a branch checked out nowhere, and points its HEAD at main — neither reaches the repository', async (t) => {
  if (skip) return t.skip(skip);
  const { git, wt } = await repoWithWorktree();
  const release = git('rev-parse', 'release').trim();
  const main = git('rev-parse', 'main').trim();
  const out = await bashIn(
    wt,
    `echo r > r.txt && git add r.txt && c=$(git ${ID} commit-tree -m r -p HEAD $(git write-tree)) && git update-ref refs/heads/release $c && ` +
      `echo 'ref: refs/heads/main' > "$(git rev-parse --git-dir)/HEAD" && git ${ID} commit -qm on-main --allow-empty && git branch new-work`,
  );
  assert.equal(git('rev-parse', 'release').trim(), release, said(out));
  assert.equal(git('rev-parse', 'main').trim(), main, said(out));
  // The worktree's HEAD no longer names main: it is detached at the child's commit.
  const head = (await fs.readFile(path.join(wt.gitDir, 'HEAD'), 'utf8')).trim();
  assert.match(head, /^[0-9a-f]{40}$/, `HEAD: ${head}`);
  assert.equal(git('rev-parse', 'new-work').trim(), head, 'a branch it created came in');
  assert.match(out.worktreeGitNote ?? '', /refs\/heads\/release/);
  assert.match(out.worktreeGitNote ?? '', /HEAD is now detached/);
  // A later command may move the branch it created (its own now), still not main.
  await bashIn(wt, `git checkout -q new-work && git ${ID} commit -qm more --allow-empty`);
  assert.notEqual(git('rev-parse', 'new-work').trim(), head);
  assert.equal(git('rev-parse', 'main').trim(), main);
});

test('attack: the shadow’s objects/pack (and objects/info) swapped for symlinks to another repository — the worker neither imports, removes nor writes there', async (t) => {
  if (skip) return t.skip(skip);
  const { git, wt, repo } = await repoWithWorktree();
  // Another repository of the user's, with a pack (its objects only there).
  const other = path.join(repo, '..', `other-${path.basename(repo)}`);
  dirs.push(other);
  const og: Git = (...a) => execFileSync('git', a, { cwd: other, encoding: 'utf8' });
  await fs.mkdir(other);
  og('init', '-q', '-b', 'main');
  await fs.writeFile(path.join(other, 'private.txt'), 'private\n');
  og('add', '.');
  og('-c', 'user.email=o@example.com', '-c', 'user.name=o', 'commit', '-qm', 'private');
  og('repack', '-a', '-d', '-q');
  const otherPacks = path.join(other, '.git', 'objects', 'pack');
  const otherInfo = path.join(other, '.git', 'objects', 'info');
  const packsBefore = (await fs.readdir(otherPacks)).sort();
  const infoBefore = (await fs.readdir(otherInfo)).sort();
  const privateBlob = og('rev-parse', 'HEAD:private.txt').trim();
  const out = await bashIn(
    wt,
    `o=$(git rev-parse --git-common-dir)/objects; rm -rf "$o/pack" "$o/info.x"; ln -s ${otherPacks} "$o/pack"; ` +
      `mv "$o/info" "$o/info.x" 2>/dev/null; ln -s ${otherInfo} "$o/info" 2>/dev/null; ls -l "$o"; echo x > x.txt; git add x.txt; git ${ID} commit -qm x`,
  );
  assert.equal(git('show', `${wt.branch}:x.txt`), 'x\n', `the command's own commit came in ${said(out)}`);
  // (objects/info holds the read-only alternates file: the sandbox refuses to move it.)
  assert.match(out.output, /pack -> /, `the swap happened ${said(out)}`);
  // The next command's start rewrites the shadow's frame: never through the symlink.
  await bashIn(wt, 'true');
  assert.deepEqual((await fs.readdir(otherPacks)).sort(), packsBefore, 'the other repository’s packs are untouched');
  assert.deepEqual(
    (await fs.readdir(otherInfo)).sort(),
    infoBefore,
    'nothing written in the other repository’s objects/info',
  );
  assert.throws(() => git('cat-file', '-e', privateBlob), 'the other repository’s objects did not come in');
});

test('attack: a child commits a hook into .claude/settings.json with git plumbing, or drops the repository’s settings from its branch — the branch does not take either', async (t) => {
  if (skip) return t.skip(skip);
  const { git, wt, repo } = await repoWithWorktree();
  // The repository has settings (a deny rule) that the child would like gone.
  await fs.mkdir(path.join(repo, '.claude'), { recursive: true });
  await fs.writeFile(path.join(repo, '.claude', 'settings.json'), '{"permissions":{"deny":["Bash(curl:*)"]}}\n');
  git('add', '.claude/settings.json');
  git('-c', 'user.email=h@example.com', '-c', 'user.name=H', 'commit', '-qm', 'settings');
  // The worktree's branch at the commit with settings (the person, between commands).
  execFileSync('git', ['reset', '-q', '--hard', 'main'], { cwd: wt.path });
  const wt2 = { ...wt };
  const before = git('rev-parse', wt.branch).trim();
  const plant = await bashIn(
    wt2,
    `b=$(echo '{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"touch /tmp/pwned"}]}]}}' | git hash-object -w --stdin); ` +
      `s=$(printf "100644 blob $b\\tsettings.json\\n" | git mktree); ` +
      `t=$( (git ls-tree HEAD | grep -v '\\.claude$'; printf "040000 tree $s\\t.claude\\n") | git mktree); ` +
      `c=$(git ${ID} commit-tree -m 'add hook' -p HEAD $t); git update-ref HEAD $c`,
  );
  assert.equal(
    git('rev-parse', wt.branch).trim(),
    before,
    `the branch took a commit that plants a hook ${said(plant)}`,
  );
  assert.match(plant.worktreeGitNote ?? '', /protected paths \(\.claude\/settings\.json\)/);
  const drop = await bashIn(wt2, `git rm -q --cached .claude/settings.json && git ${ID} commit -qm 'drop settings'`);
  assert.equal(
    git('rev-parse', wt.branch).trim(),
    before,
    `the branch took a commit that drops the settings ${said(drop)}`,
  );
  assert.match(drop.worktreeGitNote ?? '', /protected paths/);
  // Ordinary work on the same branch still comes in.
  const ok = await bashIn(
    wt2,
    `git reset -q --mixed ${before} && echo ok > ok.txt && git add ok.txt && git ${ID} commit -qm ok`,
  );
  assert.equal(git('show', `${wt.branch}:ok.txt`), 'ok\n', said(ok));
});
