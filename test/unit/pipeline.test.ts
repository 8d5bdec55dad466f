import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { toolResultText } from '../../src/core/apiMessages';
import { describeToolUse, runToolPipeline, REJECT_MESSAGE, type ToolUseOutcome } from '../../src/toolCall/pipeline';
import { buildTool } from '../../src/toolProtocol/Tool';
import { LocalResultStore } from '../../src/toolProtocol/resultStore';
import { createToolPool } from '../../src/permissions/toolPool';
import { Big, Echo, FAKE_TOOLS, Slow, calls, makeEnv, script, tempDir, use } from './pipelineFixtures';

let cwd = '';
before(async () => {
  cwd = await tempDir();
});
after(async () => {
  await fs.rm(cwd, { recursive: true, force: true });
});
beforeEach(() => {
  calls.length = 0;
});

function assertWellFormed(o: ToolUseOutcome, id: string) {
  assert.equal(o.toolUseId, id);
  assert.ok(o.result, 'has a result');
  assert.equal(o.result!.type, 'tool_result');
  assert.equal(o.result!.tool_use_id, id);
  assert.ok(o.endedAt >= o.startedAt);
}
const text = (o: ToolUseOutcome) => toolResultText(o.result!);

test('ok: the call runs with the idempotency key and its result is mapped', async () => {
  const b = use('Echo', { text: 'hi', times: 2 });
  const o = await runToolPipeline(b, makeEnv(cwd));
  assertWellFormed(o, b.id);
  assert.equal(o.status, 'ok');
  assert.equal(text(o), 'hihi');
  assert.equal(o.result!.is_error, undefined);
  assert.equal(calls.length, 1);
  assert.equal(calls[0]!.ctx.idempotencyKey, `sess-1/${b.id}`);
  assert.equal(calls[0]!.ctx.toolUseId, b.id);
  assert.deepEqual(o.permission, { behavior: 'allow', decisionReason: { type: 'mode', mode: 'default' } });
});

test('ok: the idempotency key is scoped to the session run, so a session reusing an id gets new keys', async () => {
  const b = use('Echo', { text: 'hi' });
  await runToolPipeline(b, { ...makeEnv(cwd), idempotencyScope: 'run-a' });
  await runToolPipeline(b, { ...makeEnv(cwd), idempotencyScope: 'run-b' });
  assert.deepEqual(
    calls.map((c) => c.ctx.idempotencyKey),
    [`sess-1/run-a/${b.id}`, `sess-1/run-b/${b.id}`],
  );
});

test('aliases resolve; context modifiers come back as data', async () => {
  assert.equal((await runToolPipeline(use('Say', { text: 'a' }), makeEnv(cwd))).status, 'ok');
  const o = await runToolPipeline(
    use('WriteFile', { file_path: 'f.txt', content: 'abc' }),
    makeEnv(cwd, { mode: 'acceptEdits' }),
  );
  assert.equal(o.status, 'ok');
  assert.deepEqual(o.contextModifiers, [{ type: 'fileWritten', path: path.join(cwd, 'f.txt'), mtimeMs: 1 }]);
  assert.equal(await fs.readFile(path.join(cwd, 'f.txt'), 'utf8'), 'abc');
});

// ---- the failure table ------------------------------------------------------------------------
test('failure: unknown tool (also a tool outside the pool)', async () => {
  const b = use('Nope', {});
  const o = await runToolPipeline(b, makeEnv(cwd));
  assertWellFormed(o, b.id);
  assert.equal(o.status, 'error');
  assert.equal(o.failure?.stage, 'unknown_tool');
  assert.equal(o.result!.is_error, true);
  // The reference's text in its <tool_use_error> tags, then the session's tools.
  assert.match(
    text(o),
    /^<tool_use_error>Error: No such tool available: Nope\. Available tools: [^\n]*<\/tool_use_error>$/,
  );
  const narrow = makeEnv(cwd, { rules: { deny: ['Echo'] } });
  const o2 = await runToolPipeline(use('Echo', { text: 'x' }), narrow);
  assert.equal(o2.failure?.stage, 'unknown_tool');
  assert.equal(calls.length, 0);
});

test('failure: schema — missing field, wrong type, extra field, null input', async () => {
  const o = await runToolPipeline(use('Echo', { times: 'two', extra: 1 }), makeEnv(cwd));
  assert.equal(o.status, 'error');
  assert.equal(o.failure?.stage, 'schema');
  // The reference's format: in <tool_use_error> tags, missing keys, then unexpected ones, then wrong types.
  assert.equal(
    text(o),
    '<tool_use_error>InputValidationError: Echo failed due to the following issues:\n' +
      'The required parameter `text` is missing\n' +
      'An unexpected parameter `extra` was provided\n' +
      'The parameter `times` type is expected as `number` but provided as `string`</tool_use_error>',
  );
  const o2 = await runToolPipeline(use('Echo', null), makeEnv(cwd));
  assert.equal(
    text(o2),
    '<tool_use_error>InputValidationError: Echo failed due to the following issue:\n' +
      'The parameter `` type is expected as `object` but provided as `null`</tool_use_error>',
  );
  // Only another kind of problem: zod's own message (its issues as JSON), as the reference sends it.
  const o3 = await runToolPipeline(use('Echo', { text: 'x', times: 0 }), makeEnv(cwd));
  assert.match(
    text(o3),
    /^<tool_use_error>InputValidationError: \[\n  \{\n[\s\S]*"too_small"[\s\S]*\]<\/tool_use_error>$/,
  );
  // Listed after the first three kinds when one of those is there too.
  const o4 = await runToolPipeline(use('Echo', { times: 0 }), makeEnv(cwd));
  assert.match(
    text(o4),
    /^<tool_use_error>InputValidationError: Echo failed due to the following issues:\nThe required parameter `text` is missing\nThe parameter `times` is invalid: Too small/,
  );
  assert.equal(calls.length, 0);
});

test('failure: validateInput — the tool’s own message', async () => {
  const o = await runToolPipeline(use('Echo', { text: 'invalid' }), makeEnv(cwd));
  assert.equal(o.status, 'error');
  assert.equal(o.failure?.stage, 'validate');
  assert.equal(text(o), '<tool_use_error>Echo refuses the text "invalid".</tool_use_error>');
  assert.equal(calls.length, 0);
});

test('failure: hook block — the hook’s reason', async () => {
  const cmd = await script(cwd, 'block.sh', 'echo "no echoing today" >&2; exit 2');
  const o = await runToolPipeline(
    use('Echo', { text: 'x' }),
    makeEnv(cwd, { hooks: { PreToolUse: [{ matcher: 'Echo', hooks: [{ type: 'command', command: cmd }] }] } }),
  );
  assert.equal(o.status, 'denied');
  assert.equal(o.failure?.stage, 'hook');
  assert.match(text(o), /no echoing today/);
  assert.equal(o.result!.is_error, true);
  assert.equal(calls.length, 0);
});

test('failure: permission deny — rule and mode reasons', async () => {
  const o = await runToolPipeline(
    use('WriteFile', { file_path: 'x', content: '' }),
    makeEnv(cwd, { mode: 'bypassPermissions', rules: { deny: ['WriteFile(x)'] } }),
  );
  assert.equal(o.status, 'denied');
  assert.equal(o.failure?.stage, 'permission');
  assert.match(text(o), /denied by the rule WriteFile\(x\)/);
  assert.deepEqual(o.permission?.decisionReason, { type: 'rule', rule: 'WriteFile(x)', behavior: 'deny' });
  const o2 = await runToolPipeline(use('WriteFile', { file_path: 'x', content: '' }), makeEnv(cwd, { mode: 'plan' }));
  assert.equal(o2.status, 'denied');
  assert.match(text(o2), /plan mode/);
  const o3 = await runToolPipeline(
    use('WriteFile', { file_path: 'x', content: '' }),
    makeEnv(cwd, { mode: 'dontAsk' }),
  );
  assert.equal(o3.status, 'denied');
  assert.match(text(o3), /dontAsk/);
  assert.equal(calls.length, 0);
});

test('failure: call() throws — Error calling tool', async () => {
  const o = await runToolPipeline(use('Thrower', {}), makeEnv(cwd));
  assert.equal(o.status, 'error');
  assert.equal(o.failure?.stage, 'call');
  assert.equal(text(o), 'Error calling tool Thrower: disk on fire');
});

test('failure: aborted before the call — interrupted, never called', async () => {
  const ac = new AbortController();
  ac.abort();
  const b = use('Echo', { text: 'x' });
  const o = await runToolPipeline(b, makeEnv(cwd, { abortSignal: ac.signal }));
  assertWellFormed(o, b.id);
  assert.equal(o.status, 'interrupted');
  assert.equal(o.failure?.stage, 'aborted');
  assert.match(text(o), /^Interrupted by user/);
  assert.match(text(o), /did not complete/);
  assert.equal(calls.length, 0);
});

test('abort during a slow call: interrupted promptly; progress forwarded', async () => {
  const ac = new AbortController();
  const progress: unknown[] = [];
  const t0 = Date.now();
  const o = await runToolPipeline(
    use('Slow', { ms: 60_000 }),
    makeEnv(cwd, {
      abortSignal: ac.signal,
      onProgress: (p) => {
        progress.push(p);
        // The abort comes while the call runs (not before it started, whatever the machine's load).
        if ((p as { stage?: string }).stage === 'started') setImmediate(() => ac.abort());
      },
    }),
  );
  // Not a speed check: the call was interrupted, not waited for (60 s).
  assert.ok(Date.now() - t0 < 30_000, 'the pipeline waited for the slow call');
  assert.equal(o.status, 'interrupted');
  assert.equal(o.result!.is_error, true);
  assert.deepEqual(progress, [{ stage: 'started' }]);
  assert.equal(calls[0]!.ctx.abortSignal.aborted, true, 'the tool saw the abort');

  const p2: unknown[] = [];
  const ok = await runToolPipeline(
    use('Slow', { ms: 5 }),
    makeEnv(cwd, {
      onProgress: (p) => {
        p2.push(p);
        throw new Error('observer bug');
      },
    }),
  );
  assert.equal(ok.status, 'ok');
  assert.deepEqual(p2, [{ stage: 'started' }, { stage: 'done' }]);
});

test('a tool that ignores the abort signal still yields an interrupted result', async () => {
  let stubbornStarted = (): void => undefined;
  const started = new Promise<void>((r) => (stubbornStarted = r));
  const Stubborn = buildTool({
    name: 'Stubborn',
    inputSchema: z.object({}),
    prompt: () => '',
    call: () =>
      new Promise<{ data: string }>((r) => {
        stubbornStarted();
        setTimeout(() => r({ data: 'late' }), 60_000).unref();
      }),
    mapToolResultToToolResultBlockParam: (d: string, id: string) => ({
      type: 'tool_result',
      tool_use_id: id,
      content: d,
    }),
  });
  const ac = new AbortController();
  // The abort comes once the call runs (an abort before it would not reach the stubborn tool).
  void started.then(() => ac.abort());
  const t0 = Date.now();
  const o = await runToolPipeline(
    use('Stubborn', {}),
    makeEnv(cwd, { tools: [Stubborn], mode: 'bypassPermissions', abortSignal: ac.signal }),
  );
  assert.equal(o.status, 'interrupted');
  // Not a speed check: the pipeline did not wait for the tool's 60 s answer.
  assert.ok(Date.now() - t0 < 30_000, 'the pipeline waited for the stubborn tool');
});

// ---- ask and approvals ------------------------------------------------------------------------
test('ask is returned without calling; approval approve runs, deny rejects', async () => {
  const b = use('WriteFile', { file_path: 'asked.txt', content: 'v' });
  const o = await runToolPipeline(b, makeEnv(cwd));
  assert.equal(o.status, 'ask');
  assert.equal(o.result, undefined);
  assert.match(o.ask!.message, /needs approval/);
  assert.deepEqual(o.ask!.decisionReason, { type: 'mode', mode: 'default' });
  assert.equal(calls.length, 0);

  const yes = await runToolPipeline(
    b,
    makeEnv(cwd, { approval: { decision: 'approve', by: 'alice', source: 'human' } }),
  );
  assert.equal(yes.status, 'ok');
  assert.deepEqual(yes.permission, {
    behavior: 'allow',
    decisionReason: { type: 'human', decision: 'approve', by: 'alice' },
  });
  assert.equal(calls.length, 1);

  const no = await runToolPipeline(
    use('WriteFile', { file_path: 'no.txt', content: 'v' }),
    makeEnv(cwd, { approval: { decision: 'deny', reason: 'not now', source: 'human' } }),
  );
  assert.equal(no.status, 'denied');
  assert.equal(no.failure?.stage, 'permission');
  assert.equal(text(no), `${REJECT_MESSAGE} Reason: not now`);
  assert.equal(calls.length, 1);
  await assert.rejects(fs.stat(path.join(cwd, 'no.txt')));

  const timeout = await runToolPipeline(
    use('WriteFile', { file_path: 'no.txt', content: 'v' }),
    makeEnv(cwd, { approval: { decision: 'deny', source: 'timeout', afterMs: 1000 } }),
  );
  assert.equal(timeout.status, 'denied');
  assert.equal(text(timeout), REJECT_MESSAGE);
  assert.deepEqual(timeout.permission?.decisionReason, { type: 'timeout', afterMs: 1000 });
});

test('an approval never overrides a deny', async () => {
  const o = await runToolPipeline(
    use('WriteFile', { file_path: 'x', content: '' }),
    makeEnv(cwd, { rules: { deny: ['WriteFile'] }, tools: FAKE_TOOLS, approval: { decision: 'approve' } }),
  );
  // a blanket deny removes the tool from the pool altogether
  assert.equal(o.failure?.stage, 'unknown_tool');
  const o2 = await runToolPipeline(
    use('WriteFile', { file_path: 'x', content: '' }),
    makeEnv(cwd, { rules: { deny: ['WriteFile(x)'] }, approval: { decision: 'approve' } }),
  );
  assert.equal(o2.status, 'denied');
  assert.equal(calls.length, 0);
});

// ---- size policy ------------------------------------------------------------------------------
test('size policy: a 50,000-char result becomes a preview plus a stored file', async () => {
  const store = new LocalResultStore(path.join(cwd, 'tool-results'));
  const b = use('Big', { size: 50_000 }, 'toolu_big01');
  const o = await runToolPipeline(b, makeEnv(cwd, { resultStore: store }));
  assert.equal(o.status, 'ok');
  const file = path.join(cwd, 'tool-results', 'toolu_big01.txt');
  assert.equal(o.persistedTo, file);
  const stored = await fs.readFile(file, 'utf8');
  assert.equal(stored.length, 50_000);
  const c = text(o);
  assert.ok(
    c.startsWith(
      '<persisted-output>\nOutput too large (48.8KB). Full output saved to: ' +
        file +
        '\n\nPreview (first 2KB):\nline 0 ',
    ),
  );
  assert.ok(c.endsWith('\n...\n</persisted-output>'));
  assert.ok(c.length < 2300);
  assert.ok(stored.startsWith(c.split('Preview (first 2KB):\n')[1]!.split('\n...\n')[0]!));
  // idempotent for the same id
  const again = await runToolPipeline(b, makeEnv(cwd, { resultStore: store }));
  assert.equal(again.persistedTo, file);
  // under the limit: untouched
  const small = await runToolPipeline(use('Big', { size: 20_000 }), makeEnv(cwd, { resultStore: store }));
  assert.equal(text(small).length, 20_000);
  assert.equal(small.persistedTo, undefined);
});

test('size policy: a storage failure keeps the original result', async () => {
  const failing = {
    put: async () => {
      throw new Error('disk full');
    },
  };
  const o = await runToolPipeline(use('Big', { size: 50_000 }), makeEnv(cwd, { resultStore: failing }));
  assert.equal(o.status, 'ok');
  assert.equal(text(o).length, 50_000);
  assert.equal(o.persistedTo, undefined);
  assert.ok(o.hookNotices.some((n) => /disk full/.test(n)));
});

// ---- describeToolUse --------------------------------------------------------------------------
test('describeToolUse: conservative on unknown tools, bad input and throwing predicates', () => {
  const Weird = buildTool({
    name: 'Weird',
    inputSchema: z.object({}),
    prompt: () => '',
    isConcurrencySafe: () => {
      throw new Error('x');
    },
    isReadOnly: () => true,
    call: async () => ({ data: '' }),
    mapToolResultToToolResultBlockParam: (d: string, id: string) => ({
      type: 'tool_result',
      tool_use_id: id,
      content: d,
    }),
  });
  const pool = createToolPool([...FAKE_TOOLS, Weird], {
    mode: 'default',
    rules: { allow: [], ask: [], deny: [] },
    workingDirectories: [cwd],
  });
  assert.deepEqual(describeToolUse(use('Echo', { text: 'a' }), pool), {
    known: true,
    concurrencySafe: true,
    readOnly: true,
    idempotent: true,
    summary: 'Echo a',
  });
  assert.deepEqual(describeToolUse(use('Nope', {}), pool), {
    known: false,
    concurrencySafe: false,
    readOnly: false,
    idempotent: false,
    summary: 'Nope (unknown tool)',
  });
  assert.equal(describeToolUse(use('Echo', { text: 5 }), pool).concurrencySafe, false);
  assert.deepEqual(describeToolUse(use('Weird', {}), pool), {
    known: true,
    concurrencySafe: false,
    readOnly: true,
    idempotent: false,
    summary: 'Weird {}',
  });
  const w = describeToolUse(use('WriteFile', { file_path: 'a', content: 'b' }), pool);
  assert.deepEqual([w.concurrencySafe, w.readOnly, w.idempotent], [false, false, false]);
});

test('runToolPipeline never throws, even for malformed blocks and hostile tools', async () => {
  const Hostile = buildTool({
    name: 'Hostile',
    inputSchema: z.object({}),
    prompt: () => '',
    isReadOnly: () => {
      throw new Error('pred');
    },
    call: async () => ({ data: 1 }),
    mapToolResultToToolResultBlockParam: () => {
      throw new Error('map');
    },
  });
  const env = makeEnv(cwd, { tools: [Hostile], mode: 'bypassPermissions' });
  const o = await runToolPipeline(use('Hostile', {}), env);
  assert.equal(o.status, 'error');
  assert.match(text(o), /the tool ran, but its result could not be converted: map/);
  const bad = await runToolPipeline(
    { type: 'tool_use', id: 'x', name: undefined as unknown as string, input: undefined },
    env,
  );
  assert.equal(bad.result!.tool_use_id, 'x');
  assert.equal(bad.failure?.stage, 'unknown_tool');
});

test('Echo schema exposes defaults to the call', async () => {
  const o = await runToolPipeline(use('Echo', { text: 'z' }), makeEnv(cwd));
  assert.deepEqual(o.input, { text: 'z', times: 1 });
  assert.equal(Echo.name, 'Echo');
  assert.equal(Slow.name, 'Slow');
  assert.equal(Big.maxResultSizeChars, 20_000);
});
