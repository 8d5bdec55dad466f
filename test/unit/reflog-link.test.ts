// unit (issue 30, red team s, S7): the reflog screen (movedRefs.ts undoCarriedLogs, movedLogs.ts) finds
// a line a command added that leads to a commit changing the repository's hooks (Q8: the person's
// `git checkout -` goes there and git runs the hook), but its put-back goes through directories
// opened without following a link: a command that made `.git/logs` a link (`mv .git/logs
// .git/reflogs && ln -s reflogs .git/logs`) left the put-back failing, "could not be undone", and
// the line in place. Now the link on the way is cut (fail closed). Function level: the command's
// steps run as a plain child process, then the after-call screen, then the person's own git; the
// sandboxed end-to-end row is S7 in red-issue30-s.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { refSnapshots, undoCarriedRefs } from '../../src/sandbox/movedRefs';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-reflog-link-')));
after(() => rmSync(base, { recursive: true, force: true }));
const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const sh = (cwd: string, script: string) => execFileSync('sh', ['-c', script], { cwd, env: GIT_ENV }).toString();

for (const link of ['.git/logs', '.git/logs/refs'] as const) {
  test(`S7: P1’s reflog line behind ${link} made a link — the screen cuts the link, the person’s git checkout - runs nothing of the agent’s`, () => {
    const root = path.join(base, link.replace(/\W/g, ''));
    const mark = path.join(base, `mark-${path.basename(root)}`);
    mkdirSync(path.join(root, '.githooks'), { recursive: true });
    writeFileSync(path.join(root, '.githooks', 'pre-commit'), '#!/bin/sh\nexit 0\n');
    chmodSync(path.join(root, '.githooks', 'pre-commit'), 0o755);
    sh(
      root,
      'git init -q -b main && git config core.hooksPath .githooks && git add -A && git -c user.email=p@x -c user.name=p commit -qm init && git branch side',
    );
    const before = refSnapshots([root]);
    // The command: P1's commit (no ref), the reflog directory moved aside and linked, the line appended.
    const moved =
      link === '.git/logs'
        ? 'mv .git/logs .git/reflogs && ln -s reflogs .git/logs'
        : 'mv .git/logs/refs .git/logs/r && ln -s r .git/logs/refs';
    sh(
      root,
      [
        'set -e',
        'export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@x GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@x',
        `export GIT_INDEX_FILE="${base}/idx-$$"`,
        `b=$(printf '#!/bin/sh\\nenv > ${mark}\\n' | git hash-object -w --stdin)`,
        'git read-tree HEAD',
        'git update-index --add --cacheinfo "100755,$b,.githooks/post-checkout"',
        'c=$(git commit-tree "$(git write-tree)" -p HEAD -m wip)',
        'h=$(git rev-parse HEAD)',
        moved,
        link === '.git/logs'
          ? 'printf "%s %s a <a@x> %s +0000\\tcheckout: moving from %s to main\\n" $h $h $(date +%s) $c >> .git/logs/HEAD'
          : 'printf "%s %s a <a@x> %s +0000\\tcommit: wip\\n" $h $c $(date +%s) >> .git/logs/refs/heads/side',
      ].join('\n'),
    );
    const notes = undoCarriedRefs(before);
    // The person's own git: back to where they were, and the side branch's last reflog entry.
    for (const args of [
      ['checkout', '-q', '-'],
      ['checkout', '-q', 'side@{0}'],
    ])
      try {
        execFileSync('git', args, { cwd: root, env: { ...GIT_ENV, PERSON_SECRET: 'BAIT-S7' }, stdio: 'ignore' });
      } catch {
        // no previous branch, no such reflog entry: nothing ran
      }
    assert.deepEqual({ hookRan: existsSync(mark) }, { hookRan: false });
    assert.ok(
      notes.some((n) => /link, which was removed|a symbolic link the command made/.test(n)),
      notes.join('\n'),
    );
    assert.ok(!lstatSync(path.join(root, link), { throwIfNoEntry: false })?.isSymbolicLink(), 'the link is gone');
  });
}
