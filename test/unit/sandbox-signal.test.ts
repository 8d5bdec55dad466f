// unit: a worker that receives SIGTERM drains — the sandboxed commands it still runs, and the ones
// it starts in its grace time, keep their sandbox. The sandbox runtime registers SIGINT/SIGTERM
// handlers that reset it at once (violation-monitor socket and proxies removed); the test:cluster
// rolling deploy lost a Bash call to it ("bwrap: Can't find source path /tmp/srt-obs-…/….sock").
// The lock (src/sandbox/host.ts) replaces those handlers with one that waits for running commands.
// Real bwrap, in a child process that sends itself SIGTERM between wrapping a command and starting it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { SandboxHost } from '../../src/sandbox/host';
import { sandboxSkip } from '../support/systemPackages';
import { makeTmpDir, removeDir } from './tools-harness';

const CHILD = `
const { SandboxHost } = require(process.env.HOST_MODULE);
const { runtimePlan } = require(process.env.POLICY_MODULE);
const { spawn } = require('node:child_process');
const dir = process.env.WORK_DIR;
(async () => {
  // The worker's own SIGTERM handler (it drains: Worker.shutdown), as src/temporal/worker.ts has one.
  process.on('SIGTERM', () => console.log('draining'));
  const host = new SandboxHost();
  const plan = runtimePlan(undefined, [dir], { home: dir, sessionTmpDir: dir, platform: process.platform });
  const prepared = await host.prepare('echo ran-in-sandbox', plan, dir);
  process.kill(process.pid, 'SIGTERM');
  await new Promise((r) => setTimeout(r, 300)); // the runtime's own handler would have reset it by now
  const child = spawn('bash', ['-c', prepared.shellCommand], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  child.on('close', async (code) => {
    await prepared.finish();
    console.log(JSON.stringify({ code, out }));
    await host.close();
    process.exit(0);
  });
})().catch((e) => { console.log(JSON.stringify({ error: String(e) })); process.exit(1); });
`;

test('unit: SIGTERM while a sandboxed command is wrapped does not pull its sandbox away', async (t) => {
  const skip = await sandboxSkip(new SandboxHost(), 'the sandbox signal test');
  if (skip) return t.skip(skip);
  const dir = await makeTmpDir('da-sig-');
  t.after(() => removeDir(dir));
  const out = await new Promise<string>((resolve) => {
    const child = spawn(process.execPath, ['-e', CHILD], {
      env: {
        ...process.env,
        HOST_MODULE: path.join(__dirname, '../../src/sandbox/host.js'),
        POLICY_MODULE: path.join(__dirname, '../../src/sandbox/policy.js'),
        WORK_DIR: dir,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let s = '';
    child.stdout.on('data', (d: Buffer) => (s += d.toString()));
    child.on('close', () => resolve(s));
  });
  const lines = out.trim().split('\n');
  assert.ok(lines.includes('draining'), `the process's own SIGTERM handler ran: ${out}`);
  const result = JSON.parse(lines[lines.length - 1]!) as { code: number; out: string };
  assert.equal(result.code, 0, `the wrapped command ran after the SIGTERM: ${result.out}`);
  assert.match(result.out, /ran-in-sandbox/);
  assert.doesNotMatch(result.out, /Can't find source path/);
});
