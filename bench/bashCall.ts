// CPU per sandboxed Bash call (issue 32: the suite's red-team and attack files spend their CPU
// here): N Bash calls through the tool pipeline (runToolPipeline, as test/unit/red-issue30-m's
// rows make them: default mode, no allow rule, a git project as the working directory, a HOME of
// its own), real bubblewrap. Per call: this process's CPU (process.cpuUsage) and the CPU of the
// processes it started and reaped (bwrap, bash, git: /proc/self/stat cutime + cstime), median of N
// after one warm-up call. CPU, not wall time: on this shared machine only CPU is reproducible.
//
//   npm run build && node dist/bench/bashCall.js [N] [--command 'true'] [--files F] [--release DIR]
//     --files F: a typical project instead of one file: F tracked files in nested directories, a
//       node_modules of F/2 untracked (ignored) files, a .husky/ and a package.json;
//     --packed: the project's objects packed after its commit (a clone's repository: no loose
//       objects for the object screen to look at, movedObjects.ts) instead of 1.1 loose per file;
//     --release DIR: the same calls through a previous release's build (DIR/dist/src, e.g.
//       ~/.cache/durable-agent/releases/<commit>), to compare in the same run;
//   node --cpu-prof --cpu-prof-dir=/tmp/x dist/bench/bashCall.js …   (profile the worker's side).
//
// Not a test: prints the figures and the load average beside them.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { initialContext } from '../src/core/context';
import { toolResultText } from '../src/core/apiMessages';
import { SandboxHost } from '../src/sandbox/host';
import { runToolPipeline } from '../src/toolCall/pipeline';
import { createToolPool } from '../src/permissions/toolPool';
import { BUILTIN_TOOLS } from '../src/tools';
import type { ResultStore } from '../src/toolProtocol/Tool';
import { sessionPermission } from '../src/toolCall/toolSession';

const OURS = {
  initialContext,
  toolResultText,
  SandboxHost,
  runToolPipeline,
  createToolPool,
  BUILTIN_TOOLS,
  sessionPermission,
};
type Modules = typeof OURS;

/**
 * The same entry points from another build: a previous release's (0.2.0's rooms: engine/, calls/,
 * pipeline/), or another checkout of this one's (a worktree of main, to compare a change).
 */
function releaseModules(dir: string): Modules {
  const r = (m: string): Record<string, unknown> =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(path.join(dir, 'dist', 'src', m)) as Record<string, unknown>;
  if (existsSync(path.join(dir, 'dist', 'src', 'toolCall')))
    return {
      initialContext: r('core/context').initialContext,
      toolResultText: r('core/apiMessages').toolResultText,
      SandboxHost: r('sandbox/host').SandboxHost,
      runToolPipeline: r('toolCall/pipeline').runToolPipeline,
      createToolPool: r('permissions/toolPool').createToolPool,
      BUILTIN_TOOLS: r('tools').BUILTIN_TOOLS,
      sessionPermission: r('toolCall/toolSession').sessionPermission,
    } as Modules;
  return {
    initialContext: r('engine/context').initialContext,
    toolResultText: r('engine/messages').toolResultText,
    SandboxHost: r('sandbox/host').SandboxHost,
    runToolPipeline: r('pipeline/toolPipeline').runToolPipeline,
    createToolPool: r('permissions/toolPool').createToolPool,
    BUILTIN_TOOLS: r('tools/builtin/index').BUILTIN_TOOLS,
    sessionPermission: r('calls/toolSession').sessionPermission,
  } as Modules;
}

const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--command');
const N = Number(positional[0] ?? 20);
const ci = process.argv.indexOf('--command');
const COMMAND = ci >= 0 ? (process.argv[ci + 1] ?? 'true') : 'true';
const flag = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const FILES = Number(flag('--files') ?? 0);
const PACKED = process.argv.includes('--packed');
const RELEASE = flag('--release');
const M: Modules = RELEASE ? releaseModules(RELEASE) : OURS;

/** This process's children's CPU in ms (reaped ones: /proc/self/stat cutime + cstime, USER_HZ 100). */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[13]) + Number(f[14])) * 10;
  } catch {
    return 0;
  }
}
const ownCpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** FILES tracked files (10 a directory, 10 directories a level), node_modules ignored, hook configs. */
function typical(root: string): void {
  const tree = (top: string, n: number, ext: string): void => {
    for (let i = 0; i < n; i++) {
      const dir = path.join(top, `d${Math.floor(i / 100)}`, `e${Math.floor(i / 10) % 10}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `f${i}.${ext}`), `export const v${i} = ${i};\n`);
    }
  };
  tree(path.join(root, 'src', 'lib'), FILES, 'ts');
  tree(path.join(root, 'node_modules', 'pkg'), Math.floor(FILES / 2), 'js');
  mkdirSync(path.join(root, '.husky'), { recursive: true });
  writeFileSync(path.join(root, '.husky', 'pre-commit'), 'npm test\n');
  writeFileSync(path.join(root, 'package.json'), '{"name":"p","scripts":{"test":"true"}}\n');
  writeFileSync(path.join(root, '.gitignore'), 'node_modules/\n');
}

function project(base: string): string {
  const root = path.join(base, 'p');
  mkdirSync(path.join(root, 'src', 'app'), { recursive: true });
  writeFileSync(path.join(root, 'src', 'app', 'a.txt'), 'hello\n');
  if (FILES > 0) typical(root);
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  const g = (...a: string[]) =>
    execFileSync('git', ['-c', 'user.email=b@example.com', '-c', 'user.name=b', ...a], { cwd: root, env });
  g('init', '-q', '-b', 'main');
  g('add', '.');
  g('commit', '-qm', 'init');
  if (PACKED) g('repack', '-adq'); // -d: the loose objects now in the pack go (git prune-packed)
  return root;
}

async function main(): Promise<void> {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-bench-bash-')));
  const home = path.join(base, 'home');
  mkdirSync(path.join(home, '.ssh'), { recursive: true });
  writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'not a key\n');
  writeFileSync(path.join(home, '.gitconfig'), '[user]\n\tname = b\n');
  const savedHome = process.env.HOME;
  process.env.HOME = home;
  const host = new M.SandboxHost();
  try {
    const a = await host.availability();
    if (!a.available) throw new Error(`sandbox unavailable: ${a.reason}`);
    const root = project(base);
    // A project is not made the instant before its commands: its directories' change times are
    // older than the listings' margin (src/sandbox/stampedListing.ts) in a real one.
    await new Promise((r) => setTimeout(r, 2_500));
    let n = 0;
    const call = async (): Promise<string> => {
      // Per call, as the red-team files' `tool()` and an activity build it.
      const permission = M.sessionPermission(
        { mode: 'default', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [root], sandbox: {} },
        {} as ResultStore,
        {},
        root,
      );
      const o = await M.runToolPipeline(
        { type: 'tool_use', id: `toolu_bench_${++n}`, name: 'Bash', input: { command: COMMAND } },
        {
          pool: M.createToolPool(M.BUILTIN_TOOLS, permission),
          sessionId: `bench-bash-${process.pid}`,
          agent: M.initialContext(root),
          permission,
          sandboxHost: host,
        } as Parameters<typeof runToolPipeline>[1],
      );
      return o.result ? M.toolResultText(o.result) : `(${o.status})`;
    };
    const load0 = loadavg()[0]!.toFixed(1);
    console.log(`warm-up: ${JSON.stringify((await call()).slice(0, 200))}`);
    const own: number[] = [];
    const kids: number[] = [];
    const wall: number[] = [];
    for (let i = 0; i < N; i++) {
      const [o0, c0, t0] = [ownCpuMs(), childrenCpuMs(), Date.now()];
      await call();
      own.push(ownCpuMs() - o0);
      kids.push(childrenCpuMs() - c0);
      wall.push(Date.now() - t0);
    }
    const total = own.map((o, i) => o + kids[i]!);
    console.log(
      `${RELEASE ? `build ${RELEASE}` : 'ours'}: Bash ${JSON.stringify(COMMAND)} x${N}${FILES ? ` (project of ${FILES} files${PACKED ? ', packed' : ''})` : ''} (median per call): CPU ${median(total).toFixed(0)} ms = this process ${median(own).toFixed(0)} ms + children ${median(kids).toFixed(0)} ms; wall ${median(wall)} ms; load average ${load0} → ${loadavg()[0]!.toFixed(1)}`,
    );
  } finally {
    await host.close();
    process.env.HOME = savedHome;
    rmSync(base, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
