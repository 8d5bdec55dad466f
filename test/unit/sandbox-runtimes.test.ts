// unit: sessions whose worker-wide sandbox settings differ (network.deniedDomains) run side by side
// on one worker, each under exactly its own policy — never another session's, never waiting for
// another session's long command (src/sandbox/runtimePool.ts: the worker's runtime, and runtimes in
// processes of their own). Real bwrap, the runtime's real proxy, a local HTTP server; oracles: what
// reached the server and which files exist.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { BashTool, type BashOutput } from '../../src/tools/bash';
import { SandboxHost } from '../../src/sandbox/host';
import type { SandboxSettings } from '../../src/sandbox/settings';
import type { ToolResult, ToolUseContext } from '../../src/toolProtocol/Tool';
import { sandboxSkip } from '../support/systemPackages';
import { makeTmpDir, removeDir } from './tools-harness';

const sandboxHost = new SandboxHost();
let skip: string | false = false;
let root = '';
let server: http.Server;
let port = 0;
/** Requests that reached the server, by the session that sent them (its `?from=` query). */
const reached: string[] = [];

before(async () => {
  skip = await sandboxSkip(sandboxHost, 'the sandbox runtimes test');
  if (skip) return;
  root = await makeTmpDir('da-rt-');
  server = http.createServer((req, res) => {
    reached.push(new URL(req.url ?? '/', 'http://x').searchParams.get('from') ?? '?');
    res.end('HOST-SECRET\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as { port: number }).port;
});

after(async () => {
  server?.close();
  await sandboxHost.close();
  if (root) await removeDir(root);
});

function ctx(session: string, sandbox: SandboxSettings): ToolUseContext {
  const cwd = path.join(root, session);
  mkdirSync(cwd, { recursive: true });
  return {
    sessionId: `rt-${session}`,
    toolUseId: `toolu_${session}`,
    idempotencyKey: `k-${session}-${Math.random()}`,
    agent: { cwd, additionalDirectories: [], readFiles: {} },
    permission: { mode: 'dontAsk', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [cwd], sandbox },
    abortSignal: new AbortController().signal,
    sandboxHost,
  };
}

function bash(session: string, sandbox: SandboxSettings, command: string): Promise<ToolResult<BashOutput>> {
  return BashTool.call({ command, timeout: 600_000 }, ctx(session, sandbox), () => undefined);
}

/** Reaches the server through the sandbox's proxy, then tries to write into every session's directory. */
function probe(session: string): string {
  const writes = ['a', 'b', 'c'].map(
    (s) => `echo ${session} > ${path.join(root, s, `from-${session}.txt`)} 2>/dev/null`,
  );
  return `curl -fsS --max-time 5 --noproxy '' "http://localhost:${port}/?from=${session}"; ${writes.join('; ')}; true`;
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !cond(); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(cond(), 'the long command started');
}

async function notForever<T>(p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("the sessions waited for the holder's long command")), 120_000);
  });
  try {
    return await Promise.race([p, stalled]);
  } finally {
    clearTimeout(timer);
  }
}

// Both may reach localhost; B's own deny list takes it away again, C denies something else.
const A: SandboxSettings = { network: { allowedDomains: ['localhost'] } };
const B: SandboxSettings = { network: { allowedDomains: ['localhost'], deniedDomains: ['localhost'] } };
const C: SandboxSettings = { network: { allowedDomains: ['localhost'], deniedDomains: ['evil.example'] } };

for (const holder of ['a', 'b'] as const) {
  test(`unit: while session ${holder.toUpperCase()}'s long command holds a runtime, sessions with other deny lists run at once, each under its own policy`, async (t) => {
    if (skip) return t.skip(skip);
    const settings = { a: A, b: B, c: C };
    const dir = (s: string) => path.join(root, s);
    for (const s of ['a', 'b', 'c']) mkdirSync(dir(s), { recursive: true });
    const release = path.join(dir(holder), 'release');
    const long = bash(
      holder,
      settings[holder],
      'touch started; while [ ! -e release ]; do sleep 0.1; done; echo long-done',
    );
    try {
      await until(() => existsSync(path.join(dir(holder), 'started')));
      reached.length = 0;
      // Bounded only so that a stall fails instead of hanging the run (it waited for `long` before).
      const [ra, rb, rc] = await notForever(
        Promise.all([bash('a', A, probe('a')), bash('b', B, probe('b')), bash('c', C, probe('c'))]),
      );
      // Network: each session's own lists, none of another's.
      assert.deepEqual([...reached].sort(), ['a', 'c'], `reached the server: ${reached.join(', ')}`);
      assert.match(ra.data.output, /HOST-SECRET/);
      assert.match(rc.data.output, /HOST-SECRET/);
      assert.doesNotMatch(rb.data.output, /HOST-SECRET/);
      assert.ok(
        rb.sandbox?.violations?.some((v) => /deny network-outbound localhost:\d+/.test(v)),
        `B's refusal is reported to B: ${JSON.stringify(rb.sandbox)}`,
      );
      // Filesystem: each writes its own working directory only.
      for (const s of ['a', 'b', 'c'])
        for (const w of ['a', 'b', 'c'])
          assert.equal(existsSync(path.join(dir(w), `from-${s}.txt`)), s === w, `${s} wrote into ${w}'s directory?`);
    } finally {
      writeFileSync(release, '');
      assert.match((await long).data.output, /long-done/);
      for (const s of ['a', 'b', 'c'])
        for (const w of ['a', 'b', 'c']) await removeDir(path.join(dir(w), `from-${s}.txt`)).catch(() => undefined);
      await removeDir(path.join(dir(holder), 'started')).catch(() => undefined);
      await removeDir(release).catch(() => undefined);
    }
  });
}

test("unit: a session's ignoreViolations silences its own reports only, whatever runtime it shares", async (t) => {
  if (skip) return t.skip(skip);
  const quiet: SandboxSettings = { ignoreViolations: { '*': ['network-outbound'] } };
  const curl = `curl -fsS --max-time 5 --noproxy '' "http://localhost:${port}/?from=q"; true`;
  const [q, loud] = await Promise.all([bash('a', quiet, curl), bash('b', {}, curl)]);
  assert.doesNotMatch(q.data.output + loud.data.output, /HOST-SECRET/);
  assert.equal(
    (q.sandbox?.violations ?? []).some((v) => v.includes('network-outbound')),
    false,
    JSON.stringify(q.sandbox),
  );
  assert.ok(
    loud.sandbox?.violations?.some((v) => /deny network-outbound localhost:\d+/.test(v)),
    `the other session still sees its report: ${JSON.stringify(loud.sandbox)}`,
  );
});
