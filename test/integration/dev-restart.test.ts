// integration: the embedded default survives a crash — kill -9 `durable-agent dev` in the middle
// of a demo session, start it again on the same SQLite file, and the session runs to completion
// with every tool call executed once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { freePort } from '../../src/temporal/service/devServer';
import { sessionStatus } from '../../src/temporal/client';
import { sampleProjectDir } from '../../src/cli/demo';
import { cli } from '../support/cli';
import { stopChild, waitFor } from '../support/wait';

const MAIN = join(__dirname, '..', '..', 'src', 'cli', 'main.js');

function startDev(db: string, port: number, uiPort: number, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      // The scripted demo model, asked for: it never answers without the flag (issue 31 item 7).
      [MAIN, 'dev', '--demo-model', '--db', db, '--port', String(port), '--ui-port', String(uiPort)],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    const timer = setTimeout(() => reject(new Error(`dev did not get ready: ${out}`)), 60_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready.')) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`dev exited (${code}): ${out}`)));
  });
}

test(
  'integration: kill -9 of `durable-agent dev` mid-session; restarting it resumes the session to completion',
  { timeout: 240_000 },
  async () => {
    const home = mkdtempSync(join(tmpdir(), 'da-dev-'));
    const db = join(home, 'temporal.db');
    const port = await freePort();
    const uiPort = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DURABLE_AGENT_HOME: home,
      DURABLE_AGENT_STORE_DIR: join(home, 'store'),
      DURABLE_AGENT_DEMO_DELAY_MS: '1200',
      TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
    };
    delete env.DURABLE_AGENT_TASK_QUEUE;
    const project = mkdtempSync(join(tmpdir(), 'da-demo-project-'));
    cpSync(sampleProjectDir(), project, { recursive: true });

    let dev = await startDev(db, port, uiPort, env);
    let connection: Connection | undefined;
    try {
      const started = await cli(
        [
          'run',
          '--detach',
          '--json',
          '--cwd',
          project,
          '--permission-mode',
          'acceptEdits',
          '--allow',
          'Bash(node test/*)',
          '--model',
          'scripted-demo',
          'fix the TODO',
        ],
        env,
      );
      assert.equal(started.code, 0, started.stderr);
      const id = (JSON.parse(started.stdout) as { session: string }).session;
      connection = await Connection.connect({ address: `127.0.0.1:${port}` });
      const client = new Client({ connection });
      await waitFor(
        'the session to reach turn 3',
        async () => ((await sessionStatus(client, id).catch(() => undefined))?.turn ?? 0) >= 3,
        60_000,
      );
      await connection.close();
      connection = undefined;
      assert.ok(dev.pid);
      dev.kill('SIGKILL');
      await new Promise((r) => dev.once('exit', r));

      dev = await startDev(db, port, uiPort, env);
      const attached = await cli(['attach', id], env, 180_000);
      assert.equal(attached.code, 0, attached.stdout + attached.stderr);
      assert.match(attached.stdout, /session completed/);
      assert.match(readFileSync(join(project, 'src', 'stats.js'), 'utf8'), /s\[mid - 1\] \+ s\[mid\]/);
      assert.equal(spawnSync(process.execPath, ['test/stats.test.js'], { cwd: project }).status, 0);
      // Every tool call appears once in the audit, and each ran once (one activity attempt).
      const audit = await cli(['audit', id, '--json'], env);
      assert.equal(audit.code, 0, audit.stderr);
      const calls = audit.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { kind: string; toolUseId?: string; status?: string })
        .filter((e) => e.kind === 'tool_call');
      const ids = calls.map((c) => c.toolUseId);
      assert.equal(new Set(ids).size, ids.length, `no duplicate calls: ${ids.join(', ')}`);
      assert.equal(calls.length, 8, JSON.stringify(calls));
    } finally {
      await connection?.close().catch(() => undefined);
      await stopChild(dev, 'SIGINT', 15_000);
    }
  },
);
