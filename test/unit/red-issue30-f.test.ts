// unit (red team, issue 30, round f: fresh eyes on the surfaces added since round e — turn children of
// many steps, the model gate, the store's step writes and shared results, the sandbox runtime's lock).
// The agent is assumed prompt-injected: it chooses tool_use inputs and runs sandboxed Bash within its
// mode's rules. Oracles: real files and directories, never the tool's words. A CONTAINED attack is a
// passing test; one that GETS THROUGH is a `todo` row naming the hole, with its working attack in a
// skipped test right under it (remove `skip` to see it fail).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createAgentActivities } from '../../src/temporal/activities';
import { LocalBlobStore, type BlobStore } from '../../src/stores/messageStore';
import { SharedResultStore } from '../../src/stores/sharedResultStore';
import { LocalResultStore } from '../../src/toolProtocol/resultStore';
import { SharedBackoff, backoffUntil } from '../../src/core/modelLimit';
import { initialContext } from '../../src/core/context';
import type { CallRuntime } from '../../src/runtime/runtime';
import type { PermissionMode } from '../../src/toolProtocol/permissionTypes';
import type { ToolUseContext } from '../../src/toolProtocol/Tool';
import { BashTool } from '../../src/tools/bash';
import { SandboxHost } from '../../src/sandbox/host';
import type { SandboxSettings } from '../../src/sandbox/settings';
import { sandboxSkip } from '../support/systemPackages';

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-red-f-')));

/** A shared store (what `DURABLE_AGENT_STORE=postgres://…` gives): anything that is not the local file store. */
class SharedStore implements BlobStore {
  constructor(private readonly inner: BlobStore) {}
  put(key: string, data: string): Promise<void> {
    return this.inner.put(key, data);
  }
  get(key: string): Promise<string | undefined> {
    return this.inner.get(key);
  }
}

function runtime(): CallRuntime {
  return {
    signal: new AbortController().signal,
    heartbeat: () => undefined,
    attempt: 1,
    callKey: 'wf/tool-x',
    warn: () => undefined,
  };
}

// ---------------------------------------------------------------------------------------------------
// Store: a large result kept in a shared store is "materialized" at the path a tool_use names.
// ---------------------------------------------------------------------------------------------------

/**
 * Host A kept a large result of session `s1` (its own earlier output: content the agent chose, e.g. a
 * Bash `printf`) in the shared store. On host B, one tool_use naming `<anywhere>/results/s1/<file>`
 * — any tool, even an unknown one, in a mode that denies it — makes the worker create that file.
 */
async function materializeAttack(
  mode: PermissionMode,
  toolName: string,
  opts: {
    payload?: string;
    /** The path the tool_use names (default: deep under the victim directory, outside the wall). */
    target?: (d: { project: string; victim: string; store: string }) => string;
    /** A local store (what a worker without DURABLE_AGENT_STORE has) instead of the shared one. */
    local?: boolean;
  } = {},
) {
  const dir = mkdtempSync(path.join(root, `mat-${mode}-`));
  const project = path.join(dir, 'project');
  const victim = path.join(dir, 'victim-outside-the-wall');
  mkdirSync(project, { recursive: true });
  mkdirSync(victim, { recursive: true });
  const shared = new SharedStore(new LocalBlobStore(path.join(dir, 'shared-blobs')));
  const payload = opts.payload ?? 'PAYLOAD-chosen-by-the-agent\n'.repeat(5000);
  // Host A: the session's earlier large result, kept whole (invariant 7) in the shared store.
  await new SharedResultStore(path.join(dir, 'storeA', 'results', 's1'), shared, 's1', 's1').put('toolu_big', payload);
  // Host B: the worker that runs the attacking call.
  const store = path.join(dir, 'storeB');
  const { runToolCall } = createAgentActivities({
    storeDir: store,
    blobStore: opts.local ? new LocalBlobStore(path.join(dir, 'local-blobs')) : shared,
  });
  const target =
    opts.target?.({ project, victim, store }) ??
    path.join(victim, 'made', 'by', 'the', 'worker', 'results', 's1', 'toolu_big.txt');
  const r = await runToolCall(
    {
      session: {
        sessionId: 's1',
        toolNames: ['Read', 'Glob', 'Grep'],
        permission: { mode, rules: { allow: [], ask: [], deny: [] }, workingDirectories: [project] },
      },
      block: { type: 'tool_use', id: 'toolu_attack_1', name: toolName, input: { file_path: target, path: target } },
      context: initialContext(project),
    },
    runtime(),
  );
  return { r, target, victim, payload, project, store };
}

for (const [mode, tool] of [
  ['dontAsk', 'Read'],
  ['default', 'NoSuchTool'],
] as const) {
  test(`store (${mode}, ${tool}): a tool_use naming <victim>/…/results/s1/toolu_big.txt creates nothing outside the working directories`, async () => {
    const { r, target, victim, payload } = await materializeAttack(mode, tool);
    assert.equal(r.kind, 'done');
    // The call itself is refused (permission, or unknown tool): the model is told no.
    assert.equal(r.kind === 'done' && r.record.status !== 'ok', true);
    const made = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
    assert.equal(made === payload, false, `the worker wrote the agent's bytes to ${target}`);
    assert.equal(existsSync(path.join(victim, 'made')), false, 'the worker made directories outside the wall');
  });
}

test('store (dontAsk, Read through a project symlink to $HOME/.bashrc.d): the worker writes no script a login shell runs', async () => {
  const home = mkdtempSync(path.join(root, 'home-'));
  mkdirSync(path.join(home, '.bashrc.d'));
  const marker = path.join(home, 'PWNED');
  // The session's own earlier large output: each line a command (what `printf` in Bash can print).
  const payload = `touch ${marker}\n` + ': padding\n'.repeat(20_000);
  const { target } = await materializeAttack('dontAsk', 'Read', {
    payload,
    target: ({ project }) => {
      // What sandboxed Bash may do in its own project: mkdir -p x/results && ln -s ~/.bashrc.d x/results/s1
      mkdirSync(path.join(project, 'x', 'results'), { recursive: true });
      symlinkSync(path.join(home, '.bashrc.d'), path.join(project, 'x', 'results', 's1'));
      return path.join(project, 'x', 'results', 's1', 'toolu_big.txt');
    },
  });
  assert.equal(existsSync(target), existsSync(path.join(home, '.bashrc.d', 'toolu_big.txt')));
  // The user's next interactive shell (Fedora's default ~/.bashrc sources every file in ~/.bashrc.d).
  execFileSync('bash', ['-c', 'for rc in "$HOME"/.bashrc.d/*; do [ -f "$rc" ] && . "$rc"; done; true'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
  });
  assert.equal(existsSync(marker), false, "the agent's script ran as the user, outside the sandbox");
});

// ---------------------------------------------------------------------------------------------------
// Sandbox runtime lock: one session's long command and another session's worker-wide settings.
// ---------------------------------------------------------------------------------------------------

const sandboxHost = new SandboxHost();
after(() => sandboxHost.close());

function bashCtx(sessionId: string, cwd: string, sandbox: SandboxSettings): ToolUseContext {
  return {
    sessionId,
    toolUseId: `toolu_${sessionId}`,
    idempotencyKey: `k-${sessionId}-${Math.random()}`,
    agent: { cwd, additionalDirectories: [], readFiles: {} },
    permission: { mode: 'dontAsk', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [cwd], sandbox },
    abortSignal: new AbortController().signal,
    sandboxHost,
  };
}

/** Polls `cond` every 100 ms for at most `ms`; true when it held. */
async function within(ms: number, cond: () => boolean): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 100) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return cond();
}

// Contained (was a HOLE): a call whose worker-wide configuration differs from the one a running
// command holds never waits for it — it gets a runtime of its own (src/sandbox/runtimePool.ts).
test("sandbox lock: while session A runs a long command, session B (another worker-wide setting) and A's next command both still run", async (t) => {
  const skip = await sandboxSkip(sandboxHost, 'the sandbox lock row');
  if (skip) return t.skip(skip);
  const dir = mkdtempSync(path.join(root, 'lock-'));
  const a = path.join(dir, 'a');
  const b = path.join(dir, 'b');
  mkdirSync(a);
  mkdirSync(b);
  // Session A (no sandbox settings): a command that runs until the test releases it (a dev server).
  const long = BashTool.call(
    { command: 'touch started; while [ ! -e release ]; do sleep 0.1; done; echo done', timeout: 600_000 },
    bashCtx('sess-a', a, {}),
    () => undefined,
  );
  try {
    assert.ok(await within(60_000, () => existsSync(path.join(a, 'started'))), 'A runs');
    // Session B, another project: its settings deny one domain (a worker-wide key of the runtime).
    const other = BashTool.call(
      { command: 'echo b > ran.txt' },
      bashCtx('sess-b', b, { network: { deniedDomains: ['evil.example'] } }),
      () => undefined,
    );
    const next = BashTool.call({ command: 'echo a > ran.txt' }, bashCtx('sess-a', a, {}), () => undefined);
    const bRan = await within(20_000, () => existsSync(path.join(b, 'ran.txt')));
    const aRan = await within(1_000, () => existsSync(path.join(a, 'ran.txt')));
    writeFileSync(path.join(a, 'release'), '');
    await Promise.all([other, next]);
    assert.deepEqual({ bRan, aRan }, { bRan: true, aRan: true }, "both ran while A's long command held the runtime");
  } finally {
    writeFileSync(path.join(a, 'release'), '');
    await long;
  }
});

// ---------------------------------------------------------------------------------------------------
// Contained: ids a hostile endpoint chooses, in result paths; a retry-after that would starve the queue.
// ---------------------------------------------------------------------------------------------------

test('store: tool_use ids chosen by the endpoint (.., slashes, NUL, a long id) keep every large result inside its session directory, each its own file', async () => {
  const dir = mkdtempSync(path.join(root, 'ids-'));
  const store = new LocalResultStore(path.join(dir, 'results', 's1'));
  const ids = ['../../escape', '..', '.', 'a/../../b', '/etc/passwd', 'x\u0000y', 'x_y', 'z'.repeat(300), ''];
  const files = await Promise.all(ids.map((id, i) => store.put(id, `content ${i}`)));
  for (const [i, f] of files.entries()) {
    assert.equal(path.dirname(f), store.dir, `id ${JSON.stringify(ids[i])} stays in the directory`);
    assert.equal(readFileSync(f, 'utf8'), `content ${i}`, 'no id overwrote another id’s result');
  }
  assert.equal(new Set(files).size, ids.length);
  assert.equal(existsSync(path.join(dir, 'escape')), false);
});

test('model gate: a refusal whose retry-after asks for years pushes the shared backoff out by a minute at most', () => {
  const now = 1_000_000;
  for (const ms of [1e15, Number.MAX_SAFE_INTEGER, Infinity]) assert.ok(backoffUntil(now, ms) <= now + 60_000);
  const gate = new SharedBackoff();
  gate.push(backoffUntil(now, 1e15));
  assert.ok(gate.waitMs(now) <= 60_000);
});
