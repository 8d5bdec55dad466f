// The file-level set-up of the end-to-end attack rows of the outside checker
// (integration/red-issue30-j*): a sandbox check that skips the rows where bubblewrap cannot run,
// the dev server, a bait fixture (test/support/controlAttacks.ts) removed after the file; in a row,
// the person's CLI pointed at the row's task queue and store with the bait HOME, and the worker
// processes the row started, stopped whatever happens.
import { after, before, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SandboxHost } from '../../src/sandbox/host';
import { closeTestEnv, getTestEnv } from './temporal';
import { cli } from './cli';
import { sandboxSkip } from './systemPackages';
import { killGroup, type WorkerProc } from './workerProcs';
import { createControlFixture, type ControlFixture } from './controlAttacks';

export interface CliAttackFile {
  /** The bait fixture (made by the `before` hook). */
  readonly fx: ControlFixture;
  /** When the `before` hook found no usable sandbox: skips the row (`t.skip(why)`) and says true. */
  skipped(t: TestContext): boolean;
}

/** Registers the file's before/after hooks; `what` names the rows a missing sandbox skips. */
export function cliAttackFile(what: string): CliAttackFile {
  let skip: string | false = false;
  let fx: ControlFixture | undefined;
  before(async () => {
    const host = new SandboxHost();
    skip = await sandboxSkip(host, what);
    await host.close();
    await getTestEnv();
    fx = createControlFixture();
  });
  after(async () => {
    if (fx) fs.rmSync(fx.root, { recursive: true, force: true });
    await closeTestEnv();
  });
  return {
    get fx(): ControlFixture {
      if (!fx) throw new Error('the fixture is made by the before hook');
      return fx;
    },
    skipped(t) {
      if (skip) t.skip(skip);
      return skip !== false;
    },
  };
}

export interface PersonCli {
  /** The CLI's environment: the row's task queue and store on the test's dev server, the bait HOME. */
  env: Record<string, string>;
  /**
   * `durable-agent run --cwd <cwd> --model claude-test --permission-mode <mode> [extra…] <token>`
   * (the token picks the attacker's script), with `more` over the environment; asserts exit 0.
   * RED_J_DEBUG=1 prints its output.
   */
  run(
    cwd: string,
    mode: string,
    token: string,
    extra?: string[],
    more?: Record<string, string>,
  ): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

export function personCli(fx: ControlFixture, row: { taskQueue: string; storeDir: string }): PersonCli {
  const env = {
    TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
    DURABLE_AGENT_TASK_QUEUE: row.taskQueue,
    DURABLE_AGENT_STORE_DIR: row.storeDir,
    DURABLE_AGENT_WORKER_HAS_CREDENTIALS: '1',
    HOME: fx.home,
    DURABLE_AGENT_HOME: path.join(fx.home, '.durable-agent'),
  };
  return {
    env,
    async run(cwd, mode, token, extra = [], more = {}) {
      const r = await cli(
        ['run', '--cwd', cwd, '--model', 'claude-test', '--permission-mode', mode, ...extra, token],
        { ...env, ...more },
        180_000,
      );
      assert.equal(r.code, 0, `run ${token}: ${r.stdout}\n${r.stderr}`);
      if (process.env.RED_J_DEBUG) process.stderr.write(`--- run ${token}\n${r.stdout}\n${r.stderr}\n`);
      return r;
    },
  };
}

/** Kills the worker processes a row started (their process groups) and waits for them to exit. */
export async function stopWorkers(procs: readonly WorkerProc[]): Promise<void> {
  for (const p of procs) killGroup(p);
  await Promise.all(procs.map((p) => p.exited));
}
