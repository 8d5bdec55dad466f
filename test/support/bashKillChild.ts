// A process that runs one Bash tool call and SIGKILLs itself at a chosen moment, for the reaper
// tests: `node dist/test/support/bashKillChild.js <cwd> <command> <when>` where <when> is
//   spawn+<ms>  that many ms after the call's `bash` is spawned (0: synchronously, inside spawn)
//   file:<path> once <path> exists (the command inside has started)
// Env SANDBOX=1 runs the call in the OS sandbox with a network allowlist (so the runtime starts its
// proxies, host bridges and in-sandbox socat relays). Prints "spawned <pid>" when the call spawns.
import type * as ChildProcessModule from 'node:child_process';
import { existsSync } from 'node:fs';
import { BashTool } from '../../src/tools/bash';
import { SandboxHost } from '../../src/sandbox/host';

const [cwd, command, when] = process.argv.slice(2) as [string, string, string];
const die = (): void => {
  process.kill(process.pid, 'SIGKILL');
};

if (when.startsWith('spawn+')) {
  const ms = Number(when.slice('spawn+'.length));
  // The module object itself (bash.ts calls child_process.spawn through it), not an import copy.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const cp = require('node:child_process') as typeof ChildProcessModule;
  const original = cp.spawn;
  cp.spawn = function (this: unknown, ...args: unknown[]) {
    const child = (original as (...a: unknown[]) => ChildProcessModule.ChildProcess).apply(this, args);
    const argv = args[1] as string[] | undefined;
    // The call's own `bash -c` (not the sandbox probe's, not the guardian's).
    // The door resolves `bash` on the trusted PATH (an absolute path since issue 30's I-3 fix).
    if (typeof args[0] === 'string' && /(^|\/)bash$/.test(args[0]) && argv?.[1]?.includes(command)) {
      if (ms === 0) die();
      setTimeout(die, ms);
    }
    return child;
  } as typeof cp.spawn;
} else if (when.startsWith('file:')) {
  const file = when.slice('file:'.length);
  const timer = setInterval(() => {
    if (existsSync(file)) die();
  }, 20);
  timer.unref();
}

const sandbox = process.env.SANDBOX === '1' ? { network: { allowedDomains: ['example.com'] } } : undefined;
BashTool.call(
  { command },
  {
    sessionId: `reaper-test-${process.pid}`,
    toolUseId: 'toolu_reaper',
    idempotencyKey: 'k',
    agent: { cwd, additionalDirectories: [], readFiles: {} },
    permission: {
      mode: 'bypassPermissions',
      rules: { allow: [], ask: [], deny: [] },
      workingDirectories: [cwd],
      ...(sandbox ? { sandbox } : {}),
    },
    abortSignal: new AbortController().signal,
    sandboxHost: new SandboxHost(),
  },
  () => undefined,
).then(
  (r) => {
    console.log(`finished ${JSON.stringify(r.data.exitCode)}`);
    process.exit(0);
  },
  (err: unknown) => {
    console.error(String(err));
    process.exit(1);
  },
);
