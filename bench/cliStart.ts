// CPU per `durable-agent` command-line run (issue 32: the integration tests start the CLI hundreds
// of times, and a person pays it at every command): the CPU of the CLI process and everything it
// started and reaped (git, which, the bwrap probe), from this process's /proc/self/stat cutime +
// cstime, median of N runs of each command after one warm-up. A real dev server, the fake Messages
// API and an agent worker in this process (its CPU is not counted); HOME and DURABLE_AGENT_HOME of
// their own; the session's working directory a git project with one commit.
//
//   npm run build && node dist/bench/cliStart.js [N] [--release DIR]...
//     --release DIR: the same commands through another build's CLI too (DIR/dist/src/cli/main.js,
//       e.g. ~/.cache/durable-agent/releases/<commit> or a built worktree of main), in the same run
//       (repeatable);
//     --prof DIR: each CLI process writes a CPU profile to DIR (node --cpu-prof), one run each.
//
// Not a test: prints the figures and the load average beside them.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { startFakeAnthropic, textResponse } from '../src/testing/fakeAnthropic';
import { startDevServer } from '../src/temporal/service/devServer';
import { bundleAgentWorkflows, createAgentWorker } from '../src/temporal/worker';

const flag = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const PROF = flag('--prof');
const N = PROF
  ? 0
  : Number(process.argv.slice(2).find((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--')) ?? 5);
/** Every --release DIR, in order. */
const RELEASES = process.argv.flatMap((a, i, all) => (a === '--release' && all[i + 1] ? [all[i + 1] as string] : []));
const OURS = join(__dirname, '..', 'src', 'cli', 'main.js');

/** This process's reaped children's CPU in ms (/proc/self/stat cutime + cstime, USER_HZ 100). */
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[13]) + Number(f[14])) * 10;
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** One run of the CLI: its exit code, stdout, and the CPU it and its children took. */
function runCli(
  main: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  profDir?: string,
): Promise<{ code: number | null; out: string; cpu: number }> {
  const before = childrenCpuMs();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), main, ...args],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 && !args.includes('bogus')) reject(new Error(`${args.join(' ')}: exit ${code}: ${err}`));
      else resolve({ code, out, cpu: childrenCpuMs() - before });
    });
  });
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const tmp = mkdtempSync(join(tmpdir(), 'da-bench-cli-'));
  const work = join(tmp, 'project');
  execFileSync('git', ['init', '-q', work]);
  writeFileSync(join(work, 'README.md'), 'a project\n');
  execFileSync('git', ['-C', work, 'add', '.']);
  execFileSync('git', ['-C', work, '-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-qm', 'one']);
  const fake = await startFakeAnthropic({ script: () => textResponse('done') });
  const server = await startDevServer({});
  const connection = await NativeConnection.connect({ address: server.address });
  const taskQueue = 'bench-cli';
  const worker = await createAgentWorker({
    connection,
    taskQueue,
    anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }),
    storeDir: join(tmp, 'store'),
    workflowBundle: await bundleAgentWorkflows(),
  });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: mkdtempSync(join(tmp, 'home-')),
    DURABLE_AGENT_HOME: mkdtempSync(join(tmp, 'data-')),
    DURABLE_AGENT_STORE_DIR: join(tmp, 'store'),
    TEMPORAL_ADDRESS: server.address,
    DURABLE_AGENT_TASK_QUEUE: taskQueue,
    ANTHROPIC_API_KEY: 'test-key',
  };
  const builds: Array<[string, string]> = [['this build', OURS]];
  for (const r of RELEASES)
    builds.push([r.replace(/\/+$/, '').replace(/.*\//, '').slice(0, 12), join(r, 'dist', 'src', 'cli', 'main.js')]);
  const rows: string[] = [];
  await worker.runUntil(async () => {
    const first = await runCli(OURS, ['run', '--detach', '--json', '--cwd', work, '--model', 'm', 'hi'], env);
    const id = (JSON.parse(first.out.split('\n')[0] as string) as { session: string }).session;
    const commands: Array<[string, string[]]> = [
      ['--help', ['--help']],
      ['bogus (usage error)', ['bogus']],
      ['status ID --json', ['status', id, '--json']],
      ['ls --json', ['ls', '--json']],
      ['audit ID --json', ['audit', id, '--json']],
      ['run --detach', ['run', '--detach', '--json', '--cwd', work, '--model', 'm', 'hi']],
      ['run -p', ['run', '-p', '--cwd', work, '--model', 'm', 'hi']],
    ];
    for (const [name, args] of commands) {
      const cells: string[] = [];
      for (const [, main] of builds) {
        // A warm-up (the page cache, the server's caches), profiled with --prof.
        await runCli(main, args, env, PROF && join(PROF, name.replace(/\W+/g, '_')));
        const cpu: number[] = [];
        for (let i = 0; i < N; i++) cpu.push((await runCli(main, args, env)).cpu);
        cells.push(`${median(cpu).toFixed(0).padStart(5)} ms (${Math.min(...cpu)}–${Math.max(...cpu)})`);
      }
      rows.push(`${name.padEnd(22)} ${cells.join('   ')}`);
    }
  });
  await connection.close();
  await server.stop();
  await fake.close();
  rmSync(tmp, { recursive: true, force: true });
  console.log(
    `CPU per CLI run (the CLI and its children), median of ${N} (min–max); load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(`${''.padEnd(22)} ${builds.map(([b]) => b.padEnd(21)).join('   ')}`);
  for (const r of rows) console.log(r);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
