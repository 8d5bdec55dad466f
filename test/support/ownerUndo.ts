// Run as the worker's own (non-root) user by test/unit/undo-owner.test.ts: sandboxed Bash commands
// that take their own rights away from what they made (chmod 555, 311, 000) before the worker's
// undo. As root the kernel ignores those modes, so the suite's other rows (run as root in CI) never
// see this. Prints one JSON line: what is left, and each command's exit code.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BashTool } from '../../src/tools/bash';
import { SandboxHost } from '../../src/sandbox/host';
import type { ToolUseContext } from '../../src/toolProtocol/Tool';

/**
 * Each attack: a command (the live guard may undo a write before the chmod: each ends with `true`),
 * then the paths (relative to the project) that must not be left — or, with a pattern, must not
 * hold it.
 */
export const OWNER_ATTACKS: Array<{ name: string; command: string; gone: Array<string | [string, RegExp]> }> = [
  {
    name: 'a new .claude made read-only (555)',
    command: 'mkdir -p p/x/.claude && echo \'{"hooks":{}}\' > p/x/.claude/settings.json && chmod 555 p/x/.claude',
    gone: ['p/x/.claude/settings.json'],
  },
  {
    name: 'a new repository whose hooks directory lost its read right (311)',
    command:
      'git init -q r && printf "#!/bin/sh\\ntouch /tmp/x\\n" > r/.git/hooks/pre-commit && chmod +x r/.git/hooks/pre-commit && chmod 311 r/.git/hooks',
    gone: ['r/.git/hooks/pre-commit'],
  },
  {
    name: 'a .claude below a directory made unsearchable (000)',
    command: 'mkdir -p q/y/.claude && echo "{}" > q/y/.claude/settings.json && chmod 000 q',
    gone: ['q/y/.claude/settings.json'],
  },
  {
    name: 'a new config with fsmonitor, made unreadable, in a read-only git directory',
    command:
      'git init -q s && printf "[core]\\n\\tfsmonitor = touch /tmp/x\\n" > s/.git/config && chmod 000 s/.git/config && chmod 555 s/.git',
    gone: [['s/.git/config', /fsmonitor/]],
  },
];

/** One sandboxed Bash call in `proj` (dontAsk, no rule), as the worker makes it for a session there. */
export async function bashIn(host: SandboxHost, proj: string, command: string) {
  const ctx: ToolUseContext = {
    sessionId: 'owner',
    toolUseId: 'toolu_owner',
    idempotencyKey: 'k',
    agent: { cwd: proj, additionalDirectories: [], readFiles: {} },
    permission: {
      mode: 'dontAsk',
      rules: { allow: [], ask: [], deny: [] },
      workingDirectories: [proj],
      sandbox: {},
    },
    abortSignal: new AbortController().signal,
    sandboxHost: host,
  };
  return BashTool.call({ command }, ctx, () => undefined);
}

async function main(): Promise<void> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'da-owner-')));
  const proj = path.join(root, 'proj');
  fs.mkdirSync(proj);
  fs.mkdirSync(path.join(root, 'home'));
  process.env.HOME = path.join(root, 'home');
  spawnSync('git', ['init', '-q', proj]);
  const host = new SandboxHost();
  const out: { uid: number | undefined; available: boolean; reason?: string; results: unknown[] } = {
    uid: process.getuid?.(),
    available: false,
    results: [],
  };
  try {
    const a = await host.availability();
    out.available = a.available;
    if ('reason' in a && typeof a.reason === 'string') out.reason = a.reason;
    if (a.available)
      for (const attack of OWNER_ATTACKS) {
        const r = await bashIn(host, proj, `${attack.command} 2>/dev/null; true`);
        // Looked at as the person would: with their rights back on the way (the check's own view aside).
        spawnSync('chmod', ['-R', 'u+rwx', proj]);
        const left = attack.gone
          .filter((g) => {
            const [rel, holds] = typeof g === 'string' ? [g, undefined] : g;
            const f = path.join(proj, rel);
            return fs.existsSync(f) && (!holds || holds.test(fs.readFileSync(f, 'utf8')));
          })
          .map((g) => (typeof g === 'string' ? g : g[0]));
        out.results.push({ name: attack.name, exitCode: r.data.exitCode, left, output: r.data.output.slice(0, 400) });
      }
  } finally {
    await host.close();
    spawnSync('chmod', ['-R', 'u+rwx', root]);
    fs.rmSync(root, { recursive: true, force: true });
  }
  console.log(JSON.stringify(out));
}

if (require.main === module)
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
