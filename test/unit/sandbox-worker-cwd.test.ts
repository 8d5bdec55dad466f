// unit: the sandbox runtime lists the dangerous names below its own process's cwd on every wrap — a
// worker's cwd, which is no session's directory (each session's protected paths come from
// sessionSandboxPlan). A worker started in `/` (a service manager's default) walked the whole
// file system to depth 4 per command, up to the runtime's ten-second limit. Real bwrap and the
// runtime; the oracle is what the runtime's ripgrep was asked, logged by a wrapper around it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SandboxHost } from '../../src/sandbox/host';
import { sandboxSkip } from '../support/systemPackages';
import { makeTmpDir, removeDir } from './tools-harness';

const CHILD = `
const { SandboxHost } = require(process.env.HOST_MODULE);
const { runtimePlan } = require(process.env.POLICY_MODULE);
const { registerSessionDirectories } = require(process.env.DOOR_MODULE);
const { spawn } = require('node:child_process');
const [proj, rg] = JSON.parse(process.env.CWD_DIRS);
(async () => {
  const host = new SandboxHost();
  registerSessionDirectories([proj]);
  // HOME above the project (a HOME that IS the working directory takes no new entry: red team o, O11).
  const facts = { home: require('node:path').dirname(proj), sessionTmpDir: proj, platform: process.platform };
  const prepared = await host.prepare('echo ran > out.txt', runtimePlan({ ripgrep: { command: rg } }, [proj], facts), proj);
  const code = await new Promise((resolve) => {
    const child = spawn('bash', ['-c', prepared.shellCommand], { cwd: proj, stdio: 'ignore' });
    child.on('close', async (c) => { await prepared.finish(); resolve(c); });
  });
  await host.close();
  console.log(JSON.stringify({ code }));
  process.exit(0);
})().catch((e) => { console.log(JSON.stringify({ error: String(e && e.stack || e) })); process.exit(1); });
`;

test("unit: a worker started in / has the runtime list only its cwd's children, not the whole file system, on each sandboxed command", async (t) => {
  const skip = await sandboxSkip(new SandboxHost(), 'the worker cwd test');
  if (skip) return t.skip(skip);
  const base = fs.realpathSync(await makeTmpDir('da-worker-cwd-'));
  t.after(() => removeDir(base));
  const proj = path.join(base, 'proj');
  fs.mkdirSync(proj);
  const log = path.join(base, 'rg.log');
  const realRg = execFileSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).trim();
  const rg = path.join(base, 'rg');
  fs.writeFileSync(rg, `#!/bin/sh\nprintf '%s|%s\\n' "$PWD" "$*" >> ${log}\nexec ${realRg} "$@"\n`, { mode: 0o755 });
  const out = await new Promise<string>((resolve) => {
    const child = spawn(process.execPath, ['-e', CHILD], {
      cwd: '/',
      env: {
        ...process.env,
        HOST_MODULE: path.join(__dirname, '../../src/sandbox/host.js'),
        POLICY_MODULE: path.join(__dirname, '../../src/sandbox/policy.js'),
        DOOR_MODULE: path.join(__dirname, '../../src/hostProcess/door.js'),
        CWD_DIRS: JSON.stringify([proj, rg]),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let s = '';
    child.stdout.on('data', (d: Buffer) => (s += d.toString()));
    child.on('close', () => resolve(s));
  });
  const result = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { code?: number; error?: string };
  assert.equal(result.error, undefined, result.error);
  assert.equal(result.code, 0, 'the command ran in the sandbox');
  assert.equal(fs.readFileSync(path.join(proj, 'out.txt'), 'utf8'), 'ran\n');
  const scans = fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('/|') && l.includes('--files'));
  assert.ok(scans.length >= 1, `the runtime listed its cwd (/): ${fs.readFileSync(log, 'utf8').slice(0, 400)}`);
  for (const s of scans)
    assert.match(s, /--max-depth 2 /, `a scan of / went deeper than its children: ${s.slice(0, 200)}`);
});
