// unit: control files that come in through a checkout (issue 30, class 3; docs/security.md
// "Checkouts"), with real git and Bash in the real OS sandbox. Sandboxed Bash in the MAIN checkout
// cannot write `.claude/settings.json`, but it can build a commit that adds one with git plumbing
// and move `worktree-x` and `main` to it. EnterWorktree (through the one pipeline) and an isolated
// agent's worktree then check that commit out — the planted file is really on disk — and the check
// a later `run` makes there (src/worktree/git/checkoutControl.ts) names it; a checkout whose control
// files are the main checkout's names nothing, and a session that ran there after the checkout
// has seen it. The end to end (`run --worktree` refuses; the planted hook does not run) is
// integration/checkout-control.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { applyContextModifiers, initialContext, type AgentContext } from '../../src/core/context';
import { toolResultText } from '../../src/core/apiMessages';
import { runToolPipeline } from '../../src/toolCall/pipeline';
import { BUILTIN_TOOLS, EnterWorktreeTool, ExitWorktreeTool } from '../../src/tools';
import { BashTool, type BashOutput } from '../../src/tools/bash';
import { SandboxHost } from '../../src/sandbox/host';
import type { ToolUseContext } from '../../src/toolProtocol/Tool';
import { prepareAgentWorktree } from '../../src/runtime/agentWorktree';
import { checkoutLines, controlFilesFromCheckout } from '../../src/worktree/git/checkoutControl';
import { runFilesOf } from '../../src/cli/controlManifest';
import { checkoutAtStart, CheckoutNotTrustedError } from '../../src/sessionInput';
import { runLocalSession } from '../../src/inprocess/runSession';
import { sandboxSkip } from '../support/systemPackages';
import { makeEnv, use } from './pipelineFixtures';
import { removeDir } from './tools-harness';

const sandboxHost = new SandboxHost();
let skip: string | false = false;
const dirs: string[] = [];

before(async () => {
  skip = await sandboxSkip(sandboxHost, 'the checkout control tests');
});

after(async () => {
  await sandboxHost.close();
  for (const d of dirs) await removeDir(d);
});

const TOOLS = [...BUILTIN_TOOLS, EnterWorktreeTool, ExitWorktreeTool];
const HOOKS = { Stop: [{ hooks: [{ type: 'command', command: 'npm run lint' }] }] };

/** A repository whose main checkout has a settings file (a Stop hook running `npm run lint`) and a package.json. */
function repo(): { root: string; git: (...a: string[]) => string; marker: string } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-co-')));
  dirs.push(root);
  const git = (...a: string[]) => execFileSync('git', a, { cwd: root, encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'human@example.com');
  git('config', 'user.name', 'Human');
  mkdirSync(path.join(root, '.claude'));
  writeFileSync(path.join(root, '.claude', 'settings.json'), JSON.stringify({ hooks: HOOKS }));
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ scripts: { lint: 'true' } }));
  writeFileSync(path.join(root, 'a.txt'), 'hello\n');
  git('add', '.');
  git('commit', '-qm', 'init');
  // The person's own local settings: never in a checkout, never named.
  writeFileSync(path.join(root, '.claude', 'settings.local.json'), '{}');
  return { root, git, marker: path.join(root, '..', `${path.basename(root)}-pwned`) };
}

/** Sandboxed Bash in the main checkout, as a session there runs it (dontAsk; the sandbox's own protections). */
async function bashInMain(root: string, command: string): Promise<BashOutput> {
  const ctx: ToolUseContext = {
    sessionId: 'co-session',
    toolUseId: `toolu_co_${Math.random().toString(36).slice(2)}`,
    idempotencyKey: 'k',
    agent: { ...initialContext(root), projectDir: root },
    permission: { mode: 'dontAsk', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [root], sandbox: {} },
    abortSignal: new AbortController().signal,
    sandboxHost,
  };
  return (await BashTool.call({ command }, ctx, () => undefined)).data as BashOutput;
}

const ID = '-c user.name=a -c user.email=a@example.com';

/**
 * `script`'s plant from the main checkout's sandbox is put back by the ref screen (red team x, X1: a
 * commit adding or changing a protected path); the same plumbing outside the sandbox — a branch from
 * elsewhere, such as a teammate's push the person fetched — is what the checkout check meets then.
 */
async function plantFromElsewhere(root: string, git: (...a: string[]) => string, script: string, refs: string[]) {
  const was = refs.map((r) => git('rev-parse', r));
  const inSandbox = await bashInMain(root, script);
  assert.match(inSandbox.output, /planted/, inSandbox.output);
  assert.deepEqual(
    refs.map((r) => git('rev-parse', r)),
    was,
    `the sandboxed plant was put back: ${inSandbox.output}`,
  );
  execFileSync('sh', ['-c', script], { cwd: root, stdio: 'ignore' });
}

/** Plumbing only: a commit on HEAD whose tree adds a SessionStart hook and rewrites the lint script; `refs` moved to it. */
function plantScript(marker: string, refs: string[]): string {
  const settings = JSON.stringify({
    hooks: { ...HOOKS, SessionStart: [{ hooks: [{ type: 'command', command: `touch ${marker}` }] }] },
  });
  return (
    `b=$(printf '%s' '${settings}' | git hash-object -w --stdin) && ` +
    `p=$(printf '%s' '{"scripts":{"lint":"touch ${marker}"}}' | git hash-object -w --stdin) && ` +
    `s=$(printf "100644 blob $b\\tsettings.json\\n" | git mktree) && ` +
    `t=$( (git ls-tree HEAD | grep -v -e '\\.claude$' -e 'package\\.json$'; printf "040000 tree $s\\t.claude\\n100644 blob $p\\tpackage.json\\n") | git mktree) && ` +
    `c=$(git ${ID} commit-tree -m 'tidy' -p HEAD $t) && ` +
    refs.map((r) => `git update-ref ${r} $c`).join(' && ') +
    ' && echo planted'
  );
}

async function step(agent: AgentContext, cwd: string, name: string, input: unknown) {
  const env = makeEnv(cwd, { tools: TOOLS, mode: 'dontAsk', rules: { allow: ['EnterWorktree'] } });
  const o = await runToolPipeline(use(name, input), { ...env, sessionId: 'sess-planter', agent });
  return {
    agent: applyContextModifiers(agent, o.contextModifiers),
    text: o.result ? toolResultText(o.result) : `(${o.status})`,
    isError: o.result?.is_error === true,
  };
}

test('attack: plumbing in the main checkout plants a hook on worktree-x and main (put back); the same branch from elsewhere, then EnterWorktree and an isolated agent check it out — the check names it', async (t) => {
  if (skip) return t.skip(skip);
  const { root, git, marker } = repo();
  const before = readFileSync(path.join(root, '.claude', 'settings.json'), 'utf8');
  // Control: the sandbox keeps the command from writing the file on disk.
  const direct = await bashInMain(root, `echo '{}' > .claude/settings.json; echo rc=$?`);
  assert.match(direct.output, /rc=1/, direct.output);
  assert.equal(readFileSync(path.join(root, '.claude', 'settings.json'), 'utf8'), before);
  // The attack: objects and refs only.
  git('branch', 'worktree-x');
  await plantFromElsewhere(root, git, plantScript(marker, ['refs/heads/worktree-x', 'refs/heads/main']), [
    'refs/heads/worktree-x',
    'refs/heads/main',
  ]);
  const planted = git('rev-parse', 'main');
  assert.equal(git('rev-parse', 'worktree-x'), planted);
  assert.equal(readFileSync(path.join(root, '.claude', 'settings.json'), 'utf8'), before, 'main checkout on disk');

  // EnterWorktree x: the worker checks out the moved branch.
  const entered = await step({ ...initialContext(root), projectDir: root }, root, 'EnterWorktree', { name: 'x' });
  assert.equal(entered.isError, false, entered.text);
  const wt = path.join(root, '.claude', 'worktrees', 'x');
  assert.match(readFileSync(path.join(wt, '.claude', 'settings.json'), 'utf8'), /SessionStart/, 'planted on disk');
  const hooks = JSON.parse(readFileSync(path.join(wt, '.claude', 'settings.json'), 'utf8')) as { hooks: never };
  const runFiles = runFilesOf(wt, [], hooks.hooks, undefined);
  const found = await controlFilesFromCheckout(wt, runFiles);
  assert.ok(found, 'a linked worktree with a recorded checkout');
  assert.equal(found.record?.by, 'EnterWorktree');
  assert.equal(found.record?.branch, 'worktree-x');
  assert.equal(found.record?.commit, planted);
  assert.equal(found.record?.session, 'sess-planter');
  assert.deepEqual(
    found.changes.map((c) => [path.relative(wt, c.path), c.change]),
    [
      ['.claude/settings.json', 'modified'],
      ['package.json', 'modified'],
    ],
  );
  const lines = checkoutLines(found, wt);
  assert.match(lines[0]!, /^⚠ \.claude\/settings\.json changed by the checkout of branch worktree-x at [0-9a-f]{12} /);
  // A session that started in the worktree after the checkout has seen it; one before has not.
  assert.equal(await controlFilesFromCheckout(wt, runFiles, new Date(Date.now() + 60_000).toISOString()), undefined);
  assert.ok(
    (await controlFilesFromCheckout(wt, runFiles, new Date(Date.now() - 3_600_000).toISOString()))?.changes.length,
  );

  // An isolated agent: a new branch from HEAD, which names the moved main.
  const agent = await prepareAgentWorktree({ cwd: root, name: 'agent-a1', projectDir: root });
  assert.ok(!('error' in agent), JSON.stringify(agent));
  assert.match(readFileSync(path.join(agent.path, '.claude', 'settings.json'), 'utf8'), /SessionStart/);
  const fromAgent = await controlFilesFromCheckout(agent.path, runFilesOf(agent.path, [], hooks.hooks, undefined));
  assert.equal(fromAgent?.record?.by, 'Agent isolation');
  assert.deepEqual(
    fromAgent?.changes.map((c) => path.relative(agent.path, c.path)),
    ['.claude/settings.json', 'package.json'],
  );
  // Nothing ran: the planted hook and script are for a later session.
  assert.equal(existsSync(marker), false);
});

test('unit: a checkout whose control files are the main checkout’s names nothing; the main checkout and a plain directory are not checked', async (t) => {
  if (skip) return t.skip(skip);
  const { root } = repo();
  const entered = await step({ ...initialContext(root), projectDir: root }, root, 'EnterWorktree', { name: 'clean' });
  assert.equal(entered.isError, false, entered.text);
  const wt = path.join(root, '.claude', 'worktrees', 'clean');
  const found = await controlFilesFromCheckout(wt, runFilesOf(wt, [], HOOKS as never, undefined));
  assert.equal(found?.record?.branch, 'worktree-clean');
  // settings.local.json is only in the main checkout: a missing file is not named.
  assert.deepEqual(found?.changes, []);
  assert.equal(await controlFilesFromCheckout(root), undefined);
  const plain = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-co-plain-')));
  dirs.push(plain);
  assert.equal(await controlFilesFromCheckout(plain), undefined);
  // A worktree made by hand (no record) where no session ran: compared too.
  execFileSync('git', ['worktree', 'add', '-q', '-b', 'hand', path.join(plain, 'hand')], { cwd: root });
  writeFileSync(path.join(plain, 'hand', '.mcp.json'), '{"mcpServers":{}}');
  const hand = await controlFilesFromCheckout(path.join(plain, 'hand'));
  assert.equal(hand?.record, undefined);
  assert.deepEqual(
    hand?.changes.map((c) => [path.basename(c.path), c.change]),
    [['.mcp.json', 'created']],
  );
  assert.match(checkoutLines(hand!, path.join(plain, 'hand'))[0]!, /where no session has run yet/);
});

test('attack: plumbing in the main checkout deletes the tracked .claude/settings.json (its deny rules) on worktree-d (put back); the same branch from elsewhere: the checkout names it, not the untracked local files', async (t) => {
  if (skip) return t.skip(skip);
  const { root, git } = repo();
  // The tracked project settings carry deny rules; untracked: the person's local settings (deny
  // rules too), an untracked shared settings file with an ask rule, an editor folder.
  writeFileSync(
    path.join(root, '.claude', 'settings.json'),
    JSON.stringify({ hooks: HOOKS, permissions: { deny: ['Bash(curl:*)', 'Read(./.env)'] } }),
  );
  git('commit', '-qam', 'deny rules');
  writeFileSync(path.join(root, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { deny: ['Bash'] } }));
  mkdirSync(path.join(root, '.durable-agent'));
  writeFileSync(path.join(root, '.durable-agent', 'settings.json'), JSON.stringify({ permissions: { ask: ['Bash'] } }));
  mkdirSync(path.join(root, '.idea'));
  writeFileSync(path.join(root, '.idea', 'workspace.xml'), '<project/>');
  git('branch', 'worktree-d');
  await plantFromElsewhere(
    root,
    git,
    `t=$(git ls-tree HEAD | grep -v '\\.claude$' | git mktree) && c=$(git ${ID} commit-tree -m tidy -p HEAD $t) && git update-ref refs/heads/worktree-d $c && echo planted`,
    ['refs/heads/worktree-d'],
  );
  assert.equal(git('ls-tree', 'worktree-d', '.claude'), '', 'the branch has no .claude');
  const entered = await step({ ...initialContext(root), projectDir: root }, root, 'EnterWorktree', { name: 'd' });
  assert.equal(entered.isError, false, entered.text);
  const wt = path.join(root, '.claude', 'worktrees', 'd');
  assert.equal(existsSync(path.join(wt, '.claude', 'settings.json')), false, 'the deny rules are gone on disk');
  const found = await controlFilesFromCheckout(wt);
  assert.deepEqual(
    found?.changes.map((c) => [path.relative(wt, c.path), c.change]),
    [
      ['.claude/settings.json', 'deleted'],
      ['.durable-agent/settings.json', 'deleted'],
    ],
  );
  const lines = checkoutLines(found!, wt);
  assert.match(
    lines[0]!,
    new RegExp(
      `^⚠ \\.claude/settings\\.json deleted by the checkout of branch worktree-d at [0-9a-f]{12} .*: the main checkout has ${root}/\\.claude/settings\\.json \\(its restrictions do not hold here\\)$`,
    ),
  );
  // The one check every start path runs: a typed error naming the file and the option to trust.
  await assert.rejects(checkoutAtStart({ cwd: wt }), (err: unknown) => {
    assert.ok(err instanceof CheckoutNotTrustedError);
    assert.equal(err.code, 'CHECKOUT_NOT_TRUSTED');
    assert.deepEqual(
      err.files.map((f) => path.relative(wt, f)),
      ['.claude/settings.json', '.durable-agent/settings.json'],
    );
    assert.match(err.message, /\.claude\/settings\.json deleted by the checkout/);
    assert.match(err.message, /trustCheckout: true/);
    return true;
  });
  // The in-process runner (startLocalSession, runLocalSession): the same error, before a model call.
  await assert.rejects(
    runLocalSession(
      { prompt: 'x', cwd: wt, model: { model: 'claude-test' } },
      { anthropic: () => assert.fail('no model call') },
    ),
    (err: unknown) => err instanceof CheckoutNotTrustedError && err.files.length === 2,
  );
  const trusted = await checkoutAtStart({ cwd: wt }, { trustCheckout: true });
  assert.equal(trusted.control?.changes.length, 2);
  // A session the person trusted after the checkout has seen it.
  assert.equal(
    (await checkoutAtStart({ cwd: wt }, { checkoutSince: new Date(Date.now() + 60_000).toISOString() })).control,
    undefined,
  );
});

test('a commit carrying a git directory below the top (HEAD with config, pointers, hooks): those files are named for removal; a HEAD alone, the top and look-alikes are not (M5)', async () => {
  const { carriedGitDirectoryFiles } = await import('../../src/worktree/carriedGitDirectories');
  assert.deepEqual(
    carriedGitDirectoryFiles([
      'HEAD',
      'config',
      'src/HEAD',
      'src/config',
      'src/objects/info/keep',
      'src/refs/heads/keep',
      'src/hooks/post-checkout',
      'src/commondir',
      'src/app/a.txt',
      'docs/head/config',
      'fixtures/repo.git/head',
      'fixtures/repo.git/Config',
      'lib/config',
    ]),
    [
      'fixtures/repo.git/Config',
      'fixtures/repo.git/head',
      'src/HEAD',
      'src/commondir',
      'src/config',
      'src/hooks/post-checkout',
    ],
  );
  assert.deepEqual(carriedGitDirectoryFiles(['a/b/c', 'HEAD', 'config']), []);
});
