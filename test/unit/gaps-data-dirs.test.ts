// unit (issue 30, gap G3: M9 for a second data directory). M9's fix keeps the session directories in
// `<data dir>/session-directories.json` so that a worker started again narrows its PATH away from
// them. A second worker, `dev` or CLI on the same machine with another data directory
// (`DURABLE_AGENT_HOME`) shares the person's PATH but not that file: its start-up probe (the
// sandbox runtime's `which` by name) ran a `bin/which` a session of the first one planted in a
// project whose `bin` is on the person's PATH — as the worker, with its secrets. Oracle: the planted
// program's env dump (a marker directory stays empty), both ways round.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SandboxHost } from '../../src/sandbox/host';
import { sandboxSkip } from '../support/systemPackages';
import { pipelineSession } from '../support/pipelineTool';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-gaps-dd-')));
const saved = { HOME: process.env.HOME, DATA: process.env.DURABLE_AGENT_HOME };
let sandboxHost: SandboxHost;
let skip: string | false = false;

before(async () => {
  mkdirSync(path.join(base, 'home'), { recursive: true });
  process.env.HOME = path.join(base, 'home');
  // This process's data directory: not the user's default one.
  process.env.DURABLE_AGENT_HOME = path.join(base, 'data-first');
  process.env.ANTHROPIC_API_KEY = 'sk-ant-BAIT-G3-api';
  sandboxHost = new SandboxHost();
  skip = await sandboxSkip(sandboxHost, 'the data directory gap test');
});
after(async () => {
  await sandboxHost?.close();
  process.env.HOME = saved.HOME;
  if (saved.DATA === undefined) delete process.env.DURABLE_AGENT_HOME;
  else process.env.DURABLE_AGENT_HOME = saved.DATA;
  delete process.env.ANTHROPIC_API_KEY;
  rmSync(base, { recursive: true, force: true });
});

test('G3 (dontAsk): a session of a worker with one data directory plants bin/which in a project whose bin is on the person’s PATH; a worker started afterwards with another data directory (or the default one) runs no program of the project', async (t) => {
  if (skip) return t.skip(skip);
  const root = path.join(base, 'tools-repo');
  mkdirSync(root);
  const mark = path.join(base, 'marks');
  mkdirSync(mark);
  const real = execFileSync('sh', ['-c', 'command -v which'], { encoding: 'utf8' }).trim();
  const out = await pipelineSession(
    root,
    'dontAsk',
    sandboxHost,
  )('Bash', {
    command: `mkdir -p bin && printf '#!/bin/sh\\nenv > ${mark}/which.$$.env\\nexec ${real} "$@"\\n' > bin/which && chmod +x bin/which && echo planted`,
  });
  t.diagnostic(out.text.slice(0, 120));
  const dist = path.resolve(__dirname, '..', '..', 'src');
  const script = [
    `require(${JSON.stringify(path.join(dist, 'hostProcess', 'programs.js'))}).narrowProcessPath();`,
    `require(${JSON.stringify(path.join(dist, 'cli', 'commands', 'worker.js'))}).workerSandboxLine().then((l) => { console.log(l); process.exit(0); }, (e) => { console.log('probe failed', e.message); process.exit(0); });`,
  ].join('\n');
  for (const data of [path.join(base, 'data-second'), undefined]) {
    const env: Record<string, string | undefined> = {
      ...process.env,
      PATH: `${path.join(root, 'bin')}:${process.env.PATH}`,
    };
    if (data === undefined) delete env.DURABLE_AGENT_HOME;
    else env.DURABLE_AGENT_HOME = data;
    const said = execFileSync(process.execPath, ['-e', script], { cwd: base, env, encoding: 'utf8', timeout: 60_000 });
    t.diagnostic(`worker with ${data ?? 'the default data directory'}: ${said.trim().slice(0, 160)}`);
  }
  assert.deepEqual(readdirSync(mark), [], 'a restarted worker with another data directory ran the planted which');
});
