// Red team issue 30, H-1 (the fixer's copy of the attack, with oracles on the real file system and
// processes): durable-agent installed in the project (`npm i durable-agent`, then `npx durable-agent
// dev`), so that the worker runs from `<project>/node_modules/durable-agent/dist`. A session's
// sandboxed Bash (dontAsk or acceptEdits, no allow rule) rewrites the worker's `runtimeChild.js` and
// `cli/main.js`; the worker's next runtime child and the person's next `npx durable-agent` would run
// them outside the sandbox with the worker's secrets. Here the worker is a real process running from
// the copy in the project (its `__dirname` there), as an installed worker is.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SandboxHost } from '../../src/sandbox/host';
import { registerSessionDirectories, startHostProcess } from '../../src/hostProcess/door';
import { sandboxSkip } from '../support/systemPackages';

const sandboxHost = new SandboxHost();
let skip: string | false = false;
const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-r30h1-')));
const home = path.join(base, 'home');
const repoRoot = path.resolve(__dirname, '..', '..', '..'); // dist/test/unit -> the checkout
const BAIT_ENV: Record<string, string> = {
  ANTHROPIC_API_KEY: 'sk-ant-api03-BAIT-r30h1-5d1f',
  DATABASE_URL: 'postgres://admin:BAIT-r30h1-pw@db.internal:5432/prod',
};
const hasBait = (s: string) => Object.values(BAIT_ENV).some((v) => s.includes(v));

before(async () => {
  mkdirSync(home, { recursive: true });
  writeFileSync(path.join(home, '.bashrc'), '# the victim start-up file\n');
  skip = await sandboxSkip(sandboxHost, 'the red team issue 30 (h1) tests');
});
after(async () => {
  await sandboxHost.close();
  rmSync(base, { recursive: true, force: true });
});

/** A project with durable-agent installed in it: its built package copied, its dependencies linked. */
function installedProject(): { root: string; pkg: string } {
  const root = realpathSync(mkdtempSync(path.join(base, 'p-')));
  writeFileSync(path.join(root, 'a.txt'), 'hello\n');
  const pkg = path.join(root, 'node_modules', 'durable-agent');
  mkdirSync(pkg, { recursive: true });
  cpSync(path.join(repoRoot, 'package.json'), path.join(pkg, 'package.json'));
  cpSync(path.join(repoRoot, 'dist', 'src'), path.join(pkg, 'dist', 'src'), { recursive: true });
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(pkg, 'node_modules'));
  mkdirSync(path.join(root, 'node_modules', '.bin'));
  symlinkSync('../durable-agent/dist/src/cli/main.js', path.join(root, 'node_modules', '.bin', 'durable-agent'));
  return { root, pkg };
}

/** What a planted file does: copies its own environment and its parent's (the worker's) outside. */
function payload(mark: string): string {
  return `const fs = require('fs');
let got = 'env:' + JSON.stringify(process.env);
try { got += '\\nparent:' + fs.readFileSync('/proc/' + process.ppid + '/environ', 'latin1'); } catch (e) { got += String(e); }
fs.writeFileSync(${JSON.stringify(mark)}, got);
process.exit(0);
`;
}

/**
 * The worker, running from the package in the project: one tool call of a session through the real
 * pipeline (the permission a worker builds, no allow rule), then it needs a runtime of another
 * worker-wide configuration (remoteRuntime.ts starts `<its dir>/runtimeChild.js` through the door).
 */
const DRIVER = `const [pkg, root, mode, name, input] = process.argv.slice(2);
const d = (m) => require(require('path').join(pkg, 'dist', 'src', m));
const { runToolPipeline } = d('toolCall/pipeline');
const { createToolPool } = d('permissions/toolPool');
const { BUILTIN_TOOLS } = d('tools');
const { SandboxHost } = d('sandbox/host');
const { sessionPermission } = d('toolCall/toolSession');
const { initialContext } = d('core/context');
const { toolResultText } = d('core/apiMessages');
const { startRemoteRuntime } = d('sandbox/remoteRuntime');
(async () => {
  const out = {};
  const sandboxHost = new SandboxHost();
  const permission = sessionPermission(
    { mode, rules: { allow: [], ask: [], deny: [] }, workingDirectories: [root], sandbox: {} }, {}, {}, root);
  const o = await runToolPipeline({ type: 'tool_use', id: 'toolu_h1', name, input: JSON.parse(input) }, {
    pool: createToolPool(BUILTIN_TOOLS, permission), sessionId: 'h1-' + process.pid,
    agent: initialContext(root), permission, sandboxHost });
  out.tool = o.result ? toolResultText(o.result) : '(' + o.status + ')';
  await sandboxHost.close();
  try {
    const r = startRemoteRuntime();
    await Promise.race([r.initialize({ network: { allowedDomains: [], deniedDomains: [] }, filesystem: { denyRead: [], allowWrite: [], denyWrite: [] } }), new Promise((_, rej) => setTimeout(() => rej(new Error('no answer')), 20000))]);
    out.runtime = 'ready';
    await r.close?.();
  } catch (e) { out.runtime = 'error: ' + e.message; }
  process.stdout.write(JSON.stringify(out));
  process.exit(0);
})();
`;

function worker(
  root: string,
  pkg: string,
  mode: string,
  name: string,
  input: object,
): { tool: string; runtime: string } {
  const driver = path.join(base, 'driver.js');
  writeFileSync(driver, DRIVER);
  const r = spawnSync(process.execPath, [driver, pkg, root, mode, name, JSON.stringify(input)], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...BAIT_ENV },
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.ok(r.stdout.startsWith('{'), `the worker ran: ${r.stdout.slice(0, 300)} ${r.stderr.slice(-1500)}`);
  return JSON.parse(r.stdout) as { tool: string; runtime: string };
}

/** The person's next `npx durable-agent --version` in the project (npx runs node_modules/.bin/durable-agent). */
function personRunsCli(root: string): string {
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules', '.bin', 'durable-agent'), '--version'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...BAIT_ENV },
    cwd: root,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return r.stdout;
}

const read = (f: string) => (existsSync(f) ? readFileSync(f, 'latin1') : '');

for (const mode of ['dontAsk', 'acceptEdits'] as const)
  test(`attack (${mode}): sandboxed Bash rewrites the installed worker's runtimeChild.js and cli/main.js — nothing planted runs, the files are unchanged`, async (t) => {
    if (skip) return t.skip(skip);
    const { root, pkg } = installedProject();
    const child = path.join(pkg, 'dist', 'src', 'sandbox', 'runtimeChild.js');
    const cli = path.join(pkg, 'dist', 'src', 'cli', 'main.js');
    const [childBefore, cliBefore] = [read(child), read(cli)];
    const markChild = path.join(base, `escaped-child-${mode}.txt`);
    const markCli = path.join(base, `escaped-cli-${mode}.txt`);
    writeFileSync(path.join(base, `pc-${mode}.js`), payload(markChild));
    writeFileSync(path.join(base, `pl-${mode}.js`), payload(markCli));
    const w = worker(root, pkg, mode, 'Bash', {
      command: `cp ${base}/pc-${mode}.js ${child}; cp ${base}/pl-${mode}.js ${cli}; echo ok > a.txt; true`,
    });
    const version = personRunsCli(root);
    const [c, l] = [read(markChild), read(markCli)];
    assert.deepEqual(
      {
        bashRanInTheProject: readFileSync(path.join(root, 'a.txt'), 'utf8'),
        runtimeChildUnchanged: read(child) === childBefore,
        cliUnchanged: read(cli) === cliBefore,
        runtimeChildRan: c !== '',
        runtimeChildSawSecrets: hasBait(c),
        plantedCliRan: l !== '',
        plantedCliSawSecrets: hasBait(l),
        runtime: w.runtime,
      },
      {
        bashRanInTheProject: 'ok\n',
        runtimeChildUnchanged: true,
        cliUnchanged: true,
        runtimeChildRan: false,
        runtimeChildSawSecrets: false,
        plantedCliRan: false,
        plantedCliSawSecrets: false,
        runtime: 'ready',
      },
      w.tool,
    );
    assert.match(version, /\d+\.\d+\.\d+/, 'the real CLI still runs');
  });

test("attack (dontAsk): Write on the installed worker's cli/main.js is refused as a protected path; the file is unchanged", async (t) => {
  if (skip) return t.skip(skip);
  const { root, pkg } = installedProject();
  const cli = path.join(pkg, 'dist', 'src', 'cli', 'main.js');
  const before = read(cli);
  const w = worker(root, pkg, 'dontAsk', 'Write', { file_path: cli, content: payload(path.join(base, 'w.txt')) });
  assert.equal(read(cli), before);
  assert.match(w.tool, /durable-agent's own code/);
});

test('attack (dontAsk): the installed worker moved away and replaced (`mv node_modules/durable-agent …`, `mv node_modules …`), its `.bin` link repointed — nothing planted runs', async (t) => {
  if (skip) return t.skip(skip);
  const { root, pkg } = installedProject();
  const child = path.join(pkg, 'dist', 'src', 'sandbox', 'runtimeChild.js');
  const markChild = path.join(base, 'escaped-moved-child.txt');
  const markCli = path.join(base, 'escaped-moved-cli.txt');
  writeFileSync(path.join(base, 'pm.js'), payload(markChild));
  writeFileSync(path.join(base, 'pmc.js'), payload(markCli));
  const plant = `mkdir -p ${path.dirname(child)} ${pkg}/dist/src/cli && cp ${base}/pm.js ${child} && cp ${base}/pmc.js ${pkg}/dist/src/cli/main.js && printf '{"name":"durable-agent","bin":"dist/src/cli/main.js"}' > ${pkg}/package.json`;
  // The worker (the driver) loaded its modules from the package before the command: a worker
  // started before the move, whose runtime child's path is now the planted one.
  const w = worker(root, pkg, 'dontAsk', 'Bash', {
    command: [
      `(mv node_modules/durable-agent node_modules/da-old && ${plant}) ; echo "1:$?"`,
      `(mv node_modules nm-old && ${plant}) ; echo "2:$?"`,
      `ln -sf ${base}/pmc.js node_modules/.bin/durable-agent ; echo "3:$?"`,
      `rm -f node_modules/.bin/durable-agent && ln -s ${base}/pmc.js node_modules/.bin/durable-agent ; echo "4:$?"`,
      'true',
    ].join('\n'),
  });
  const version = personRunsCli(root);
  t.diagnostic(`tool: ${w.tool.slice(0, 600)}; runtime: ${w.runtime}`);
  assert.deepEqual(
    { runtimeChildRan: read(markChild) !== '', plantedCliRan: read(markCli) !== '' },
    { runtimeChildRan: false, plantedCliRan: false },
    w.tool,
  );
  assert.match(version, /\d+\.\d+\.\d+/, 'the real CLI still runs');
});

test('door: a sandbox-machinery script inside a session directory that is not the worker code is refused, naming the file; nothing runs', async () => {
  const dir = realpathSync(mkdtempSync(path.join(base, 's-')));
  const mark = path.join(base, 'door-mark.txt');
  const script = path.join(dir, 'runtimeChild.js');
  writeFileSync(script, payload(mark));
  registerSessionDirectories([dir]);
  assert.throws(
    () => startHostProcess({ purpose: 'sandbox-machinery', command: process.execPath, args: [script], cwd: base }),
    (e: Error) => e.message.includes(script) && /a session may write/.test(e.message),
  );
  assert.throws(
    () => startHostProcess({ purpose: 'operator', command: script, cwd: base }),
    (e: Error) => e.message.includes(script),
  );
  assert.equal(read(mark), '');
  // Control: the same script outside every session directory starts.
  const outside = path.join(base, 'outside.js');
  writeFileSync(outside, 'process.exit(0)');
  const p = startHostProcess({ purpose: 'sandbox-machinery', command: process.execPath, args: [outside], cwd: base });
  const code = await new Promise((r) => p.on('exit', r));
  assert.equal(code, 0);
});
