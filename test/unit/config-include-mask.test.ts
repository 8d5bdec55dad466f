// unit (issue 30, red team s, S8): a repository configuration's INCLUDED files hold credentials too.
// actions/checkout v6 (`persist-credentials` on by default) writes its token into
// `<runner>/_work/_temp/git-credentials-<uuid>.config` and names it from `.git/config` with
// `includeIf "gitdir:<repo>/.git/".path` — outside HOME on self-hosted and container runners, where
// nothing closes it. The masked configurations (sandbox/repoConfigMask.ts) now follow includes as git
// does. Real OS sandbox, real git config; the oracle is what the sandboxed command's output holds.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SandboxHost } from '../../src/sandbox/host';
import { repositoryConfigFiles } from '../../src/sandbox/repoConfigMask';
import { sandboxSkip } from '../support/systemPackages';
import { redTool } from '../support/redTool';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-incmask-')));
let sandboxHost: SandboxHost;
let skip: string | false = false;
const tool = redTool(() => sandboxHost, 'incmask');
before(async () => {
  sandboxHost = new SandboxHost();
  skip = await sandboxSkip(sandboxHost, 'the included-config mask rows');
});
after(async () => {
  await sandboxHost?.close();
  rmSync(base, { recursive: true, force: true });
});

const TOKEN = 'eC1hY2Nlc3MtdG9rZW46Z2hzX0JBSVRTOElOQ0xVREVE';

/** A checkout as actions/checkout v6 leaves it: the token in an included file of the runner's temp. */
function checkout(name: string, nested: boolean): { root: string; creds: string } {
  const root = path.join(base, '_work', name, name);
  const temp = path.join(base, '_work', '_temp');
  mkdirSync(root, { recursive: true });
  mkdirSync(temp, { recursive: true });
  execFileSync('git', ['init', '-q', root]);
  const creds = path.join(temp, `git-credentials-${name}.config`);
  const holder = nested ? path.join(temp, `outer-${name}.config`) : creds;
  if (nested) writeFileSync(holder, `[include]\n\tpath = ${path.basename(creds)}\n`);
  writeFileSync(creds, `[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${TOKEN}\n`);
  execFileSync('git', [
    'config',
    '--file',
    path.join(root, '.git', 'config'),
    `includeIf.gitdir:${root}/.git/.path`,
    holder,
  ]);
  return { root, creds };
}

for (const nested of [false, true])
  test(`S8 (dontAsk): the token actions/checkout v6 keeps in a file .git/config includes${nested ? ' (through a second include)' : ''} — a sandboxed cat of it shows no token`, async (t) => {
    const { root, creds } = checkout(nested ? 'nested' : 'direct', nested);
    assert.ok(repositoryConfigFiles([root]).includes(creds));
    if (skip) return t.skip(skip);
    const out = await tool(root, 'dontAsk', 'Bash', {
      command: `cat "${creds}"; git config --get-regexp 'http.*extraheader' 2>&1; true`,
    });
    t.diagnostic(`${out.status}: ${out.text.slice(0, 400)}`);
    assert.ok(!out.text.includes(TOKEN), out.text.slice(0, 400));
  });
