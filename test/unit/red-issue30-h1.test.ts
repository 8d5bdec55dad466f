// Red team issue 30, H-1 (the fixer's copy of the attack, with oracles on the real file system and
// processes): durable-agent installed in the project (`npm i durable-agent`, then `npx durable-agent
// dev`), so that the worker runs from `<project>/node_modules/durable-agent/dist`. A session's
// sandboxed Bash (dontAsk or acceptEdits, no allow rule) rewrites the worker's `runtimeChild.js` and
// `cli/main.js`; the worker's next runtime child and the person's next `npx durable-agent` would run
// them outside the sandbox with the worker's secrets. Here the worker is a real process running from
// the copy in the project (its `__dirname` there), as an installed worker is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { registerSessionDirectories, startHostProcess } from '../../src/hostProcess/door';
import { envCopyPayload, installedWorkerRig } from '../support/installedWorker';

const rig = installedWorkerRig({
  tag: 'h1',
  dirPrefix: 'da-r30h1-',
  bait: {
    ANTHROPIC_API_KEY: 'sk-ant-api03-BAIT-r30h1-5d1f',
    DATABASE_URL: 'postgres://admin:BAIT-r30h1-pw@db.internal:5432/prod',
  },
  what: 'the red team issue 30 (h1) tests',
});
const { base, hasBait, read, installedProject, worker } = rig;
/** What a planted file does: copies its own environment and its parent's (the worker's) outside, then exits. */
const payload = (mark: string): string => envCopyPayload(mark, true);
const personRunsCli = (root: string): string => rig.personRunsCli(root).stdout;

for (const mode of ['dontAsk', 'acceptEdits'] as const)
  test(`attack (${mode}): sandboxed Bash rewrites the installed worker's runtimeChild.js and cli/main.js — nothing planted runs, the files are unchanged`, async (t) => {
    if (rig.skipped(t)) return;
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
  if (rig.skipped(t)) return;
  const { root, pkg } = installedProject();
  const cli = path.join(pkg, 'dist', 'src', 'cli', 'main.js');
  const before = read(cli);
  const w = worker(root, pkg, 'dontAsk', 'Write', { file_path: cli, content: payload(path.join(base, 'w.txt')) });
  assert.equal(read(cli), before);
  assert.match(w.tool, /durable-agent's own code/);
});

test('attack (dontAsk): the installed worker moved away and replaced (`mv node_modules/durable-agent …`, `mv node_modules …`), its `.bin` link repointed — nothing planted runs', async (t) => {
  if (rig.skipped(t)) return;
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
