// What a worktree's git isolation costs a Bash call (issue 19, src/sandbox/worktreeGit.ts): the
// same sandboxed commands in a repository's main checkout (no shadow) and in a linked worktree
// (its git redirected to the shadow before the command, the work brought in after), side by side
// in one run. Medians of R runs; the ratio is the worktree's over the main checkout's.
//
//   npm run build && node dist/bench/worktreeGit.js [R]     (R runs per row, default 15)
//
// Not a test: the figures vary with the machine's load (printed with them).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BashTool } from '../src/tools/bash';
import { SandboxHost } from '../src/sandbox/host';
import { prepareWorktreeGit, worktreeGitAccess } from '../src/worktree/git';
import type { ToolUseContext } from '../src/toolProtocol/Tool';
import { createOrReuseWorktree } from '../src/worktree/worktrees';

const R = Number(process.argv[2] ?? 15);
const host = new SandboxHost();

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

let n = 0;
function ctx(cwd: string, wt?: { commonDir: string; gitDir: string }): ToolUseContext {
  const access = wt ? worktreeGitAccess(wt.commonDir, wt.gitDir) : undefined;
  return {
    sessionId: `bench-wtgit-${process.pid}`,
    toolUseId: `toolu_${++n}`,
    idempotencyKey: `bench/${n}`,
    agent: { cwd, additionalDirectories: [], readFiles: {} },
    permission: {
      mode: 'default',
      rules: { allow: [], ask: [], deny: [] },
      workingDirectories: [cwd],
      sandbox: access
        ? {
            filesystem: { allowWrite: access.allowWrite, denyWrite: access.denyWrite },
            worktreeGit: [access.worktreeGit],
          }
        : {},
    },
    abortSignal: new AbortController().signal,
    sandboxHost: host,
  };
}

async function timed(c: () => ToolUseContext, command: (i: number) => string): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < R; i++) {
    const t = process.hrtime.bigint();
    const out = (await BashTool.call({ command: command(i) }, c(), () => undefined)).data;
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (out.exitCode !== 0) throw new Error(`${command(i)}: ${out.output}`);
  }
  return median(ms);
}

async function main(): Promise<void> {
  const a = await host.availability();
  if (!a.available) throw new Error(`the sandbox is unavailable here: ${a.reason}`);
  const root = mkdtempSync(join(tmpdir(), 'da-bench-wtgit-'));
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    for (let i = 0; i < 200; i++) writeFileSync(join(root, `f${i}.txt`), `${i}\n`.repeat(50));
    git('add', '.');
    git('-c', 'user.email=b@example.com', '-c', 'user.name=b', 'commit', '-qm', 'init');
    const wt = await createOrReuseWorktree(root, 'bench', { agentInvoked: true });
    await prepareWorktreeGit(wt, wt.branch);
    const ID = '-c user.email=b@example.com -c user.name=b';
    const rows: Array<[string, (i: number) => string]> = [
      ['git status', () => 'git status --short'],
      ['commit 1 file', (i) => `echo ${i} >> f1.txt && git add f1.txt && git ${ID} commit -qm c${i}`],
      [
        'commit 50 files',
        (i) => `for k in $(seq 0 49); do echo ${i} >> f$k.txt; done && git add . && git ${ID} commit -qm m${i}`,
      ],
    ];
    console.log(`worktree git isolation: medians of ${R} sandboxed Bash calls (load ${loadavg()[0]!.toFixed(2)})`);
    console.log('| command | main checkout ms | worktree ms | ratio |');
    console.log('|---|---:|---:|---:|');
    for (const [label, command] of rows) {
      const main = await timed(() => ctx(root), command);
      const inWt = await timed(() => ctx(wt.path, wt), command);
      console.log(`| ${label} | ${main.toFixed(0)} | ${inWt.toFixed(0)} | ${(inWt / main).toFixed(2)} |`);
    }
  } finally {
    await host.close();
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
