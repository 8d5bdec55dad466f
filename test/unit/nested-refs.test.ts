// unit (issue 30, red team z, Z6/Z6b's neighbours): the ref screens cover the repositories nested in a
// working directory (refRepositories.ts) — one the agent made in an earlier call, one whose ref moves while
// the command still runs (liveRefs.ts), and past MAX_REF_REPOSITORIES a repository that is not screened is
// not writable at all (fail closed). Real OS sandbox, real git, dontAsk, no allow rule; oracles on the refs
// and on what the person's own git runs later. Z6 and Z6b themselves: red-issue30-z.test.ts.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { redTeamUnit } from '../support/redTeamUnit';
import { hookCommit, plantCommit } from '../support/plantCommit';
import { MAX_REF_REPOSITORIES } from '../../src/sandbox/refRepositories';

const red = redTeamUnit({
  round: 'Z',
  tag: 'fixh',
  label: 'nested refs',
  bait: { ANTHROPIC_API_KEY: 'sk-ant-BAIT-Z-api' },
});
const { hookedProject, tool, marks, read, personGit, personCommitRan } = red;
let skip: string | false = false;
before(async () => (skip = await red.setUp()));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const words = (out: { status: string; text: string }) => `${out.status}: ${out.text.slice(0, 400)}`;
const hasRef = (repo: string, ref: string) => red.git(repo, 'for-each-ref', '--format=%(refname)', ref).trim() !== '';

/** A folder of repositories (no `.git` at its root) holding the person's repository; both paths. */
function workspace(): { ws: string; repo: string } {
  const ws = path.join(red.base, `ws${Date.now()}`);
  mkdirSync(ws);
  return { ws, repo: hookedProject(ws) };
}

test(
  'a repository the agent made in an earlier call is screened in the next: X1’s branch there (.claude/settings.json) is put back',
  { timeout: 120_000 },
  async (t) => {
    if (skip) return t.skip(skip);
    const { ws } = workspace();
    const q = path.join(ws, 'q');
    const made = await tool(ws, 'dontAsk', 'Bash', {
      command: [
        'set -e',
        'export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@x GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@x',
        'mkdir -p q/src/app && cd q && git init -q -b main',
        'echo hi > src/app/a.txt && git add -A && git commit -qm init',
      ].join('\n'),
    });
    t.diagnostic(words(made));
    assert.ok(existsSync(path.join(q, '.git', 'HEAD')), 'the first call made its repository');
    const settings = '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"env > /tmp/x"}]}]}}';
    const out = await tool(ws, 'dontAsk', 'Bash', {
      command: ['cd q', plantCommit('.claude/settings.json', settings, 'refs/heads/fix')].join('\n'),
    });
    t.diagnostic(words(out));
    assert.equal(hasRef(q, 'refs/heads/fix'), false, 'X1’s branch stood in the repository made by the earlier call');
  },
);

test(
  'P1’s branch in a nested repository is put back while the command still runs (the live guard watches it)',
  { timeout: 120_000 },
  async (t) => {
    if (skip) return t.skip(skip);
    const { ws, repo } = workspace();
    const mark = path.join(marks, 'live');
    const call = tool(ws, 'dontAsk', 'Bash', {
      command: [
        `cd ${repo}`,
        ...hookCommit(mark),
        'git update-ref refs/heads/fix "$c"',
        'touch planted.txt',
        'for i in $(seq 1200); do [ -e done.txt ] && break; sleep 0.05; done',
      ].join('\n'),
      timeout: 120_000,
    });
    const t0 = Date.now();
    while (!existsSync(path.join(repo, 'planted.txt')) && Date.now() - t0 < 60_000) await sleep(50);
    await sleep(5_000);
    const stands = hasRef(repo, 'refs/heads/fix');
    personGit(repo, 'checkout', '-q', 'fix');
    const ran = personCommitRan(repo, mark);
    writeFileSync(path.join(repo, 'done.txt'), '');
    t.diagnostic(words(await call));
    assert.deepEqual({ stands, ran }, { stands: false, ran: false }, read(mark).slice(0, 200));
  },
);

// Past the bound (the agent's own repositories made first, shallower than the person's): the person's
// repository is not screened, so its git directory is not writable. Control (Z_CONTROL=1): a few
// repositories, the person's screened (writable, P1's branch put back after the call).
test(
  `past ${MAX_REF_REPOSITORIES} nested repositories, one the screen does not reach is not writable (fail closed)`,
  { timeout: 180_000 },
  async (t) => {
    if (skip) return t.skip(skip);
    const ws = path.join(red.base, `wb${Date.now()}`);
    mkdirSync(path.join(ws, 'z'), { recursive: true });
    const repo = hookedProject(path.join(ws, 'z'));
    const n = process.env.Z_CONTROL ? 3 : MAX_REF_REPOSITORIES + 1;
    const made = await tool(ws, 'dontAsk', 'Bash', {
      command: `for i in $(seq -w 1 ${n}); do git init -q a$i || exit 1; done; ls | wc -l`,
    });
    t.diagnostic(words(made));
    const mark = path.join(marks, 'bound');
    const out = await tool(ws, 'dontAsk', 'Bash', {
      command: [
        `cd ${repo}`,
        'touch .git/probe 2>/dev/null || echo "git directory not writable"',
        ...hookCommit(mark),
        'git update-ref refs/heads/fix "$c"',
      ].join('\n'),
    });
    t.diagnostic(words(out));
    personGit(repo, 'checkout', '-q', 'fix');
    const ran = personCommitRan(repo, mark);
    const writable = existsSync(path.join(repo, '.git', 'probe'));
    assert.deepEqual({ ran, writable }, { ran: false, writable: !!process.env.Z_CONTROL }, read(mark).slice(0, 200));
  },
);
