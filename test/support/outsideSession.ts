// The outside checker's whole set-up for an end-to-end attack file, in one call (the prologue of
// integration/red-issue30-j* as a helper): the dev server of the file, the fake Messages API
// playing the attacker, one worker PROCESS holding bait secrets in its environment and a bait HOME,
// and the real CLI (`node dist/src/cli/main.js`) for every session the person starts. The worker's
// raw standard error is kept: it is what the operator's terminal of `durable-agent worker|dev` shows.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { withAgent } from './agent';
import { cli } from './cli';
import { type ControlFixture } from './controlAttacks';
import { npxEnvironment, scriptedAttacker, type Turn } from './outsideChecker';
import { killGroup, spawnWorker, workerProcessEnv, type WorkerProc } from './workerProcs';

/** Bait the checker adds to the worker's environment beside baitEnvironment's. */
export const MORE_BAIT = {
  AWS_SECRET_ACCESS_KEY: 'BAIT-aws-env-5d17',
  GITHUB_TOKEN: 'BAIT-github-token-a9e4',
  NPM_TOKEN: 'BAIT-npm-token-3c08',
} as const;

export interface OutsideSession {
  fx: ControlFixture;
  /** The attacker's scripts: a token in the prompt → its turns. */
  scripts: Map<string, Turn[]>;
  taskQueue: string;
  /** The CLI's environment (the person's): the dev server, the task queue, the store, the bait HOME. */
  cliEnv: Record<string, string>;
  /** `run --cwd cwd --permission-mode mode [...extra] token`; asserts exit 0 unless `allowFail`. */
  run(
    cwd: string,
    mode: string,
    token: string,
    extra?: string[],
    o?: { env?: Record<string, string | undefined>; allowFail?: boolean; input?: string },
  ): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** `run --detach --id id --cwd cwd --permission-mode mode token`: the session id; asserts exit 0. */
  detach(id: string, cwd: string, mode: string, token: string): Promise<string>;
  /** Any other CLI command as the person runs it. */
  cli(
    args: string[],
    env?: Record<string, string | undefined>,
  ): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** The worker process's standard error so far, raw. */
  workerStderr(): string;
  fake: Parameters<Parameters<typeof withAgent>[1]>[0]['fake'];
  /** The test's own client of the dev server: waiting on a session's state without a CLI process per look. */
  client: Parameters<Parameters<typeof withAgent>[1]>[0]['client'];
  /** The worker crashes: SIGKILL to its whole process group (what it started with it); resolves once it is gone. */
  crashWorker(): Promise<void>;
  /** The worker is stopped as a deploy stops it: SIGTERM to its process only; resolves once it has exited. */
  stopWorker(): Promise<void>;
  /** Another worker process with the same environment (the person restarts it after a crash). */
  startWorker(): Promise<void>;
}

/**
 * Runs `fn` with a worker process started with `workerEnv(base)` on top of the test's worker
 * environment (default: `npx durable-agent worker` in `npxProject`: npm's .bin first on PATH);
 * `env`: more variables of the worker's (bait of the row).
 */
export async function withOutsideSession(
  fx: ControlFixture,
  opts: { npxProject: string; pathPrefix?: string[]; env?: Record<string, string> },
  fn: (s: OutsideSession) => Promise<void>,
): Promise<void> {
  await withAgent({ noWorker: true }, async ({ env, fake, storeDir, taskQueue, client }) => {
    const scripts = new Map<string, Turn[]>();
    fake.script(scriptedAttacker(scripts));
    const cliEnv: Record<string, string> = {
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      DURABLE_AGENT_STORE_DIR: storeDir,
      DURABLE_AGENT_WORKER_HAS_CREDENTIALS: '1',
      HOME: fx.home,
      DURABLE_AGENT_HOME: path.join(fx.home, '.durable-agent'),
    };
    const procs: WorkerProc[] = [];
    let stderr = '';
    try {
      const npx = npxEnvironment(fx, opts.npxProject);
      const workerEnv = {
        ...(await workerProcessEnv({ env, fake, storeDir, taskQueue })),
        ...npx,
        ...MORE_BAIT,
        ...opts.env,
        PATH: [...(opts.pathPrefix ?? []), npx.PATH].join(path.delimiter),
      };
      const start = async () => {
        const p = await spawnWorker(`outside-worker-${procs.length}`, workerEnv, procs);
        p.child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('latin1')));
        return p;
      };
      let current = await start();
      const session: OutsideSession = {
        fx,
        scripts,
        taskQueue,
        cliEnv,
        fake,
        client,
        workerStderr: () => stderr,
        crashWorker: async () => {
          killGroup(current);
          await current.exited;
        },
        stopWorker: async () => {
          current.child.kill('SIGTERM');
          await current.exited;
        },
        startWorker: async () => {
          current = await start();
        },
        cli: (args, more = {}) => cli(args, { ...cliEnv, ...more }, 120_000),
        detach: async (id, cwd, mode, token) => {
          const r = await session.cli([
            'run',
            '--detach',
            '--id',
            id,
            '--cwd',
            cwd,
            '--model',
            'claude-test',
            '--permission-mode',
            mode,
            token,
          ]);
          assert.equal(r.code, 0, `run --detach ${token}: ${r.stdout}\n${r.stderr}`);
          return id;
        },
        run: async (cwd, mode, token, extra = [], o = {}) => {
          const r = await cli(
            ['run', '--cwd', cwd, '--model', 'claude-test', '--permission-mode', mode, ...extra, token],
            { ...cliEnv, ...o.env },
            120_000,
            o.input,
          );
          if (process.env.RED_L_DEBUG) process.stderr.write(`--- run ${token}\n${r.stdout}\n${r.stderr}\n`);
          if (!o.allowFail) assert.equal(r.code, 0, `run ${token}: ${r.stdout}\n${r.stderr}`);
          return r;
        },
      };
      await fn(session);
    } finally {
      for (const p of procs) killGroup(p);
      await Promise.all(procs.map((p) => p.exited));
    }
  });
}
