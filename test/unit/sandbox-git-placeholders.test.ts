// unit: the sandbox's placeholders and the agent's own git (issue 30; found with red team x's X1 fix).
// While a sandboxed command runs, each absent name the sandbox denies even when absent (`.bashrc`,
// `.claude`, `.mcp.json`…: protect.ts DENIED_EVEN_ABSENT) is an empty read-only file at the working
// directory. The agent's `git add -A && git commit` committed all eighteen, and the ref screen now puts
// back a commit adding a protected path, so its own commit was undone. Sandboxed git reads an excludes
// file holding those names (hostProcess/sandboxGitConfig.ts, sandbox/gitEnv.ts) beside the person's own
// global ignores. Real OS sandbox, real git.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { redTeamUnit } from '../support/redTeamUnit';

const red = redTeamUnit({ round: 'G', tag: 'gitph', label: 'placeholders', projectPrefix: 'g', bait: false });
const { home, git, project, tool } = red;
let skip: string | false = false;
before(async () => (skip = await red.setUp()));

test('the agent’s git add -A && git commit commits its own file and none of the placeholders; git status shows none; the person’s global ignores still hold', async (t) => {
  if (skip) return t.skip(skip);
  // The person's global ignores (git's default place for them): still honoured inside the sandbox.
  mkdirSync(path.join(home, '.config', 'git'), { recursive: true });
  writeFileSync(path.join(home, '.config', 'git', 'ignore'), '*.swp\n');
  const root = project();
  const out = await tool(root, 'dontAsk', 'Bash', {
    command: [
      'ls -A | tr "\\n" " "; echo',
      'echo status:; git status --short',
      'echo work > f.txt && echo tmp > f.swp',
      'git add -A && git -c user.email=a@x -c user.name=a commit -qm agent && echo committed',
    ].join('\n'),
  });
  t.diagnostic(out.text.slice(0, 800));
  assert.match(out.text, /\.bashrc/, 'the placeholders were there while the command ran');
  assert.match(out.text, /status:\n(?!\?\?)/, 'git status named a placeholder');
  assert.match(out.text, /committed/);
  assert.equal(git(root, 'log', '-1', '--format=%s').trim(), 'agent', 'the agent’s own commit stayed');
  assert.deepEqual(git(root, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n'), ['f.txt']);
});
