// integration: the model queue from the command line (issue 34). `durable-agent dev` starts its server
// with the model queue's dynamic config (fair shares per root session, one partition) and takes the
// worker's model-queue flags, which beat the env vars; `worker` refuses a bad flag in one line. Real
// CLI processes; the oracle is the server process's own arguments and what the commands print.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, MODEL_QUEUE_DYNAMIC_CONFIG } from '../../src/temporal/service/devServer';
import { cli } from '../support/cli';
import { stopChild, waitFor } from '../support/wait';

const MAIN = join(__dirname, '..', '..', 'src', 'cli', 'main.js');

test(
  'integration: dev turns on the model queue fairness config and takes --model-task-queue/--model-rpm/--model-tpm',
  { timeout: 120_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'da-mq-dev-'));
    const db = join(dir, 'temporal.db');
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir, DURABLE_AGENT_HOME: join(dir, '.da') };
    for (const k of ['DURABLE_AGENT_MODEL_TASK_QUEUE', 'DURABLE_AGENT_MODEL_RPM', 'DURABLE_AGENT_MODEL_TPM'])
      delete env[k];
    env.DURABLE_AGENT_MODEL_RPM = '999'; // the flag beats it
    const args = ['dev', '--db', db, '--port', String(port), '--ui-port', String(await freePort())];
    const flags = ['--demo-model', '--model-task-queue', 'mq-cli', '--model-rpm', '120', '--model-tpm', '400000'];
    const child = spawn(process.execPath, [MAIN, ...args, ...flags], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await waitFor('dev to be ready', async () => out.includes('ready.') || child.exitCode !== null, 90_000);
      assert.ok(out.includes('ready.'), out);
      assert.match(out, /model queue: mq-cli, 120 requests\/min, 400000 tokens\/min across its workers/);
      const { server } = JSON.parse(readFileSync(`${db}.server.pid`, 'utf8')) as { server: number };
      const serverArgs = readFileSync(`/proc/${server}/cmdline`, 'utf8').split('\0');
      for (const [k, v] of Object.entries(MODEL_QUEUE_DYNAMIC_CONFIG))
        assert.ok(serverArgs.includes(`${k}=${JSON.stringify(v)}`), `${k} in ${serverArgs.join(' ')}`);
    } finally {
      await stopChild(child, 'SIGINT', 10_000);
    }
  },
);

test(
  'cli: bad model-queue flags of worker get a one-line message and a non-zero exit',
  { timeout: 180_000 },
  async () => {
    const env = { DURABLE_AGENT_MODEL_TASK_QUEUE: undefined, DURABLE_AGENT_MODEL_RPM: undefined };
    for (const [flags, pattern] of [
      [['--model-rpm', '0'], /--model-rpm must be a whole number above 0, got "0"/],
      [['--model-task-queue', 'q', '--model-rpm', 'many'], /--model-rpm must be a whole number above 0/],
      [['--model-task-queue', 'q', '--model-tpm', '1000'], /--model-tpm .*needs --model-rpm/],
      [['--model-rpm', '60'], /give --model-task-queue <name>/],
    ] as const) {
      const r = await cli(['worker', '--demo-model', ...flags], env);
      assert.notEqual(r.code, 0, `${flags.join(' ')}: non-zero exit`);
      const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
      assert.equal(lines.length, 1, `one line on stderr, got: ${JSON.stringify(r.stderr)}`);
      assert.match(lines[0] ?? '', pattern);
    }
  },
);
