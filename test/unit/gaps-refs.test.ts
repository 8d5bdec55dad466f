// unit (issue 30, red team n's N3, the control side): refs a sandboxed command moves are screened
// after the call (src/sandbox/movedRefs.ts). The agent's own work keeps its refs: a `git commit` and
// a new branch stay; a new branch and `main` moved to a commit carrying a git directory are undone.
// Oracle: git's own refs afterwards.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SandboxHost } from '../../src/sandbox/host';
import { sandboxSkip } from '../support/systemPackages';
import { pipelineSession } from '../support/pipelineTool';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-gaps-refs-')));
const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
let sandboxHost: SandboxHost;
let skip: string | false = false;

before(async () => {
  sandboxHost = new SandboxHost();
  skip = await sandboxSkip(sandboxHost, 'the moved refs tests');
});
after(async () => {
  await sandboxHost?.close();
  rmSync(base, { recursive: true, force: true });
});

const git = (root: string, ...a: string[]) =>
  execFileSync('git', ['-c', 'user.email=h@example.com', '-c', 'user.name=h', ...a], {
    cwd: root,
    env: GIT_ENV,
    encoding: 'utf8',
  }).trim();

test('moved refs: the agent’s git commit and new branch stay; a branch and main moved to a commit carrying src/HEAD + src/config are put back or removed', async (t) => {
  if (skip) return t.skip(skip);
  const root = path.join(base, 'p');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  writeFileSync(path.join(root, 'src', 'a.txt'), 'a\n');
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'init');
  const run = pipelineSession(root, 'dontAsk', sandboxHost);
  const ok = await run('Bash', {
    command:
      'git -c user.email=a@example.com -c user.name=a commit -q --allow-empty -m work && git branch topic && git rev-parse HEAD',
  });
  t.diagnostic(ok.text.slice(0, 200));
  const work = git(root, 'rev-parse', 'main');
  assert.equal(git(root, 'log', '-1', '--format=%s', 'main'), 'work');
  assert.equal(git(root, 'rev-parse', 'topic'), work);
  const bad = await run('Bash', {
    command: [
      'set -e',
      `h=$(printf 'ref: refs/heads/main\\n' | git hash-object -w --stdin)`,
      `c=$(printf '[core]\\n\\tfsmonitor = "touch /tmp/x; false"\\n' | git hash-object -w --stdin)`,
      `src=$(printf '100644 blob %s\\tHEAD\\n100644 blob %s\\tconfig\\n' $h $c | git mktree)`,
      `top=$(printf '040000 tree %s\\tsrc\\n' $src | git mktree)`,
      `commit=$(git -c user.name=a -c user.email=a@example.com commit-tree $top -p HEAD -m tidy)`,
      'git update-ref refs/heads/main $commit',
      'git update-ref refs/heads/evil $commit',
      'git update-ref refs/tags/v9 $commit',
      'echo planted',
    ].join('\n'),
  });
  t.diagnostic(bad.text.slice(0, 300));
  assert.equal(git(root, 'rev-parse', 'main'), work, 'main put back');
  assert.equal(git(root, 'for-each-ref', '--format=%(refname)'), 'refs/heads/main\nrefs/heads/topic');
});
