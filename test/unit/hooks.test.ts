import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { toolResultText } from '../../src/core/apiMessages';
import { runToolPipeline, type ToolUseOutcome } from '../../src/toolCall/pipeline';
import {
  matcherMatches,
  normalizeHooksConfig,
  runPreToolUseHooks,
  type HookInput,
  type HooksConfig,
} from '../../src/hooks';
import { calls, makeEnv, script, tempDir, use } from './pipelineFixtures';
import { waitFor } from '../support/wait';
import { applyContextModifiers } from '../../src/core/context';
import { EditTool, ReadTool, WriteTool } from '../../src/tools';

let cwd = '';
before(async () => {
  cwd = await tempDir('hooks-');
});
after(async () => {
  await fs.rm(cwd, { recursive: true, force: true });
});
beforeEach(() => {
  calls.length = 0;
});
/** Alive and not a zombie (a container's PID 1 may never reap the killed orphan). */
function isAlive(pid: number): boolean {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return !/^State:\s+Z/m.test(status);
  } catch {
    try {
      process.kill(pid, 0);
      return !existsSync('/proc/self');
    } catch {
      return false;
    }
  }
}
const text = (o: ToolUseOutcome) => toolResultText(o.result!);
const pre = (command: string, matcher = '*', timeout?: number): HooksConfig => ({
  PreToolUse: [
    { matcher, hooks: [timeout === undefined ? { type: 'command', command } : { type: 'command', command, timeout }] },
  ],
});
const preJson = async (name: string, json: unknown) =>
  script(cwd, name, `cat > /dev/null; printf '%s' '${JSON.stringify(json).replace(/'/g, "'\\''")}'`);

test('exit 0 without JSON: the call proceeds, nothing is recorded for the model', async () => {
  const cmd = await script(cwd, 'ok.sh', 'cat > /dev/null; echo "just some log text"; exit 0');
  const o = await runToolPipeline(use('Echo', { text: 'a' }), makeEnv(cwd, { hooks: pre(cmd) }));
  assert.equal(o.status, 'ok');
  assert.equal(text(o), 'a');
  assert.deepEqual(o.hookNotices, []);
  assert.equal(o.hookRuns?.[0]?.outcome, 'success');
  assert.equal(o.hookRuns?.[0]?.stdout, 'just some log text\n');
});

test('exit 0 with JSON: allow skips the mode’s ask, with the hook as the reason', async () => {
  const cmd = await preJson('allow.sh', {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: 'trusted',
    },
  });
  const o = await runToolPipeline(
    use('WriteFile', { file_path: 'h.txt', content: 'x' }),
    makeEnv(cwd, { hooks: pre(cmd, 'WriteFile') }),
  );
  assert.equal(o.status, 'ok');
  assert.deepEqual(o.permission?.decisionReason, { type: 'hook', hook: cmd, reason: 'trusted' });
});

test('a hook’s allow never overrides a deny or an ask rule', async () => {
  const cmd = await preJson('allow2.sh', { hookSpecificOutput: { permissionDecision: 'allow' } });
  const denied = await runToolPipeline(
    use('WriteFile', { file_path: 'd.txt', content: 'x' }),
    makeEnv(cwd, { hooks: pre(cmd), rules: { deny: ['WriteFile(d.txt)'] } }),
  );
  assert.equal(denied.status, 'denied');
  const asked = await runToolPipeline(
    use('WriteFile', { file_path: 'd.txt', content: 'x' }),
    makeEnv(cwd, { hooks: pre(cmd), rules: { ask: ['WriteFile'] } }),
  );
  assert.equal(asked.status, 'ask');
  assert.equal(calls.length, 0);
});

test('exit 2 blocks with the reason from stderr', async () => {
  const cmd = await script(cwd, 'block.sh', 'cat > /dev/null; echo "Use rg instead of grep" >&2; exit 2');
  const o = await runToolPipeline(use('Echo', { text: 'a' }), makeEnv(cwd, { hooks: pre(cmd, 'Echo') }));
  assert.equal(o.status, 'denied');
  assert.equal(o.failure?.stage, 'hook');
  assert.equal(o.result!.is_error, true);
  assert.match(text(o), /Use rg instead of grep/);
  assert.equal(calls.length, 0);
});

test('exit 1 is a non-blocking error: the call proceeds, with a notice', async () => {
  const cmd = await script(cwd, 'fail.sh', 'cat > /dev/null; echo "oops" >&2; exit 1');
  const o = await runToolPipeline(use('Echo', { text: 'a' }), makeEnv(cwd, { hooks: pre(cmd) }));
  assert.equal(o.status, 'ok');
  assert.equal(text(o), 'a');
  assert.equal(o.hookNotices.length, 1);
  assert.match(o.hookNotices[0]!, /exit code 1: oops/);
});

test('updatedInput replaces the input and is validated again', async () => {
  const good = await preJson('upd.sh', {
    hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { text: 'rewritten' } },
  });
  const o = await runToolPipeline(use('Echo', { text: 'original' }), makeEnv(cwd, { hooks: pre(good) }));
  assert.equal(o.status, 'ok');
  assert.equal(text(o), 'rewritten');
  assert.deepEqual(o.input, { text: 'rewritten', times: 1 });
  assert.deepEqual(calls[0]!.input, { text: 'rewritten', times: 1 });

  const bad = await preJson('upd-bad.sh', { hookSpecificOutput: { updatedInput: { text: 42 } } });
  const o2 = await runToolPipeline(use('Echo', { text: 'original' }), makeEnv(cwd, { hooks: pre(bad) }));
  assert.equal(o2.status, 'error');
  assert.equal(o2.failure?.stage, 'schema');
  assert.match(text(o2), /input replaced by a PreToolUse hook/);
  const semantic = await preJson('upd-sem.sh', { hookSpecificOutput: { updatedInput: { text: 'invalid' } } });
  const o3 = await runToolPipeline(use('Echo', { text: 'original' }), makeEnv(cwd, { hooks: pre(semantic) }));
  assert.equal(o3.failure?.stage, 'validate');
  assert.equal(calls.length, 1);
});

test('additionalContext reaches the result (Pre and Post), also on a block', async () => {
  const p1 = await preJson('ctx.sh', {
    hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'the repo uses tabs' },
  });
  const p2 = await preJson('ctx-post.sh', {
    hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'lint passed' },
  });
  const hooks: HooksConfig = {
    ...pre(p1),
    PostToolUse: [{ matcher: 'Echo', hooks: [{ type: 'command', command: p2 }] }],
  };
  const o = await runToolPipeline(use('Echo', { text: 'a' }), makeEnv(cwd, { hooks }));
  assert.equal(o.status, 'ok');
  assert.equal(
    text(o),
    'a\n\nPreToolUse hook additional context: the repo uses tabs\n\nPostToolUse hook additional context: lint passed',
  );
  const denyCtx = await preJson('ctx-deny.sh', {
    hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no', additionalContext: 'see docs' },
  });
  const o2 = await runToolPipeline(use('Echo', { text: 'a' }), makeEnv(cwd, { hooks: pre(denyCtx) }));
  assert.equal(o2.status, 'denied');
  assert.match(text(o2), /no[\s\S]*see docs/);
});

test('several hooks combine deny > ask > allow', async () => {
  const allow = await preJson('c-allow.sh', { hookSpecificOutput: { permissionDecision: 'allow' } });
  const ask = await preJson('c-ask.sh', {
    hookSpecificOutput: { permissionDecision: 'ask', permissionDecisionReason: 'double-check' },
  });
  const deny = await preJson('c-deny.sh', {
    hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'forbidden by policy' },
  });
  const cfg = (...cmds: string[]): HooksConfig => ({
    PreToolUse: cmds.map((c) => ({ matcher: 'Echo', hooks: [{ type: 'command' as const, command: c }] })),
  });
  const o1 = await runToolPipeline(
    use('Echo', { text: 'a' }),
    makeEnv(cwd, { hooks: cfg(allow, deny, ask), mode: 'bypassPermissions' }),
  );
  assert.equal(o1.status, 'denied');
  assert.equal(o1.failure?.stage, 'permission');
  assert.match(text(o1), /forbidden by policy/);
  assert.deepEqual(o1.permission?.decisionReason, { type: 'hook', hook: deny, reason: 'forbidden by policy' });
  const o2 = await runToolPipeline(use('Echo', { text: 'a' }), makeEnv(cwd, { hooks: cfg(ask, allow) }));
  assert.equal(o2.status, 'ask');
  assert.match(o2.ask!.message, /double-check/);
  const o3 = await runToolPipeline(
    use('WriteFile', { file_path: 'c.txt', content: '' }),
    makeEnv(cwd, { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: allow }] }] } }),
  );
  assert.equal(o3.status, 'ok');
  const o4 = await runToolPipeline(
    use('Echo', { text: 'a' }),
    makeEnv(cwd, { hooks: cfg(allow, ask), mode: 'dontAsk' }),
  );
  assert.equal(o4.status, 'denied', 'a hook ask in dontAsk mode is denied');
});

test('a hanging hook is killed (with its children) at its timeout and the call proceeds', async () => {
  const pidFile = path.join(cwd, 'sleep.pid');
  const cmd = await script(cwd, 'hang.sh', `sleep 30 & echo $! > ${pidFile}; wait`);
  const t0 = Date.now();
  const o = await runToolPipeline(use('Echo', { text: 'a' }), makeEnv(cwd, { hooks: pre(cmd, '*', 1) }));
  const elapsed = Date.now() - t0;
  // Correctness, not speed: killed at the 1 s timeout (not before), and the call did not wait for
  // the hook's 30 s sleep. The upper bound is far from both, so a loaded machine cannot trip it.
  assert.ok(elapsed >= 900 && elapsed < 20_000, `took ${elapsed} ms`);
  assert.equal(o.status, 'ok');
  assert.equal(text(o), 'a');
  assert.equal(o.hookRuns?.[0]?.outcome, 'timeout');
  assert.match(o.hookNotices[0]!, /timed out after 1s/);
  const pid = Number((await fs.readFile(pidFile, 'utf8')).trim());
  // The SIGKILL is delivered when the process is next scheduled: wait for it to be gone.
  await waitFor('the background sleep to die', async () => !isAlive(pid), 10_000, 20).catch(() => undefined);
  assert.equal(isAlive(pid), false, 'the background sleep was killed too');
});

test('stdin JSON carries what the reference says; PostToolUse adds tool_response', async () => {
  const preOut = path.join(cwd, 'pre-in.json');
  const postOut = path.join(cwd, 'post-in.json');
  const c1 = await script(
    cwd,
    'dump-pre.sh',
    `cat > ${preOut}; pwd > ${preOut}.cwd; printf '%s' "$CLAUDE_PROJECT_DIR" > ${preOut}.env`,
  );
  const c2 = await script(cwd, 'dump-post.sh', `cat > ${postOut}`);
  const hooks: HooksConfig = {
    PreToolUse: [{ matcher: 'WriteFile', hooks: [{ type: 'command', command: c1 }] }],
    PostToolUse: [{ matcher: 'WriteFile', hooks: [{ type: 'command', command: c2 }] }],
  };
  const b = use('WriteFile', { file_path: 'in.txt', content: 'hello' }, 'toolu_stdin');
  const o = await runToolPipeline(b, makeEnv(cwd, { hooks, mode: 'acceptEdits' }));
  assert.equal(o.status, 'ok');
  const preIn = JSON.parse(await fs.readFile(preOut, 'utf8'));
  assert.deepEqual(preIn, {
    session_id: 'sess-1',
    cwd,
    permission_mode: 'acceptEdits',
    tool_name: 'WriteFile',
    tool_input: { file_path: 'in.txt', content: 'hello' },
    tool_use_id: 'toolu_stdin',
    hook_event_name: 'PreToolUse',
  });
  assert.equal((await fs.readFile(`${preOut}.cwd`, 'utf8')).trim(), cwd, 'runs in the session cwd');
  assert.equal(await fs.readFile(`${preOut}.env`, 'utf8'), cwd);
  const postIn = JSON.parse(await fs.readFile(postOut, 'utf8'));
  assert.equal(postIn.hook_event_name, 'PostToolUse');
  assert.deepEqual(postIn.tool_response, { path: path.join(cwd, 'in.txt'), bytes: 5 });
  assert.equal(postIn.tool_use_id, 'toolu_stdin');
});

test('PostToolUse: decision block and exit 2 append feedback to the result', async () => {
  const c1 = await preJson('post-block.sh', { decision: 'block', reason: 'Format the file with prettier' });
  const c2 = await script(cwd, 'post-2.sh', 'cat >/dev/null; echo "tests now fail" >&2; exit 2');
  const o = await runToolPipeline(
    use('Echo', { text: 'a' }),
    makeEnv(cwd, {
      hooks: {
        PostToolUse: [
          {
            matcher: 'Echo',
            hooks: [
              { type: 'command', command: c1 },
              { type: 'command', command: c2 },
            ],
          },
        ],
      },
    }),
  );
  assert.equal(o.status, 'ok');
  assert.match(
    text(o),
    /^a\n\nPostToolUse hook feedback \(blocking\): Format the file with prettier\n\nPostToolUse hook feedback \(blocking\): tests now fail$/,
  );
});

test('top-level decision:block and continue:false block a PreToolUse; continue:false also asks to stop', async () => {
  const b1 = await preJson('blk.sh', { decision: 'block', reason: 'legacy block' });
  const o1 = await runToolPipeline(use('Echo', { text: 'a' }), makeEnv(cwd, { hooks: pre(b1) }));
  assert.equal(o1.status, 'denied');
  assert.match(text(o1), /legacy block/);
  const b2 = await preJson('stop.sh', { continue: false, stopReason: 'budget exhausted' });
  const o2 = await runToolPipeline(use('Echo', { text: 'a' }), makeEnv(cwd, { hooks: pre(b2) }));
  assert.equal(o2.status, 'denied');
  assert.deepEqual(o2.stop, { reason: 'budget exhausted', hook: b2 });
  assert.equal(calls.length, 0);
});

test('function hooks: same input/output; throwing is non-blocking; timeouts abort them', async () => {
  const seen: HookInput[] = [];
  let sawAbort = false;
  const hooks: HooksConfig = {
    PreToolUse: [
      {
        matcher: 'Echo',
        hooks: [
          {
            type: 'function',
            name: 'rewrite',
            fn: async (input) => {
              seen.push(input);
              return {
                hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { text: 'from fn', times: 2 } },
              };
            },
          },
          {
            type: 'function',
            fn: () => {
              throw new Error('fn broke');
            },
          },
          {
            type: 'function',
            name: 'slowpoke',
            timeout: 0.2,
            fn: (_i, { signal }) =>
              new Promise((resolve) =>
                signal.addEventListener('abort', () => {
                  sawAbort = true;
                  resolve(undefined);
                }),
              ),
          },
        ],
      },
    ],
  };
  const o = await runToolPipeline(use('Echo', { text: 'a' }), makeEnv(cwd, { hooks }));
  assert.equal(o.status, 'ok');
  assert.equal(text(o), 'from fnfrom fn');
  assert.equal(seen[0]!.hook_event_name, 'PreToolUse');
  assert.deepEqual(seen[0]!.tool_input, { text: 'a', times: 1 });
  assert.equal(sawAbort, true);
  assert.equal(o.hookNotices.length, 2);
  assert.ok(o.hookNotices.some((n) => /fn broke/.test(n)));
  assert.ok(o.hookNotices.some((n) => /slowpoke.*timed out/.test(n)));
  const blocked = await runToolPipeline(
    use('Echo', { text: 'a' }),
    makeEnv(cwd, {
      hooks: {
        PreToolUse: [{ hooks: [{ type: 'function', fn: () => ({ decision: 'block', reason: 'fn says no' }) }] }],
      },
    }),
  );
  assert.equal(blocked.status, 'denied');
  assert.match(text(blocked), /fn says no/);
});

test('matchers: lists, *, empty, regex, aliases', () => {
  assert.equal(matcherMatches('Edit|Write', 'Write'), true);
  assert.equal(matcherMatches('Edit|Write', 'WriteFile'), false);
  assert.equal(matcherMatches('*', 'Anything'), true);
  assert.equal(matcherMatches('', 'Anything'), true);
  assert.equal(matcherMatches(undefined, 'Anything'), true);
  assert.equal(matcherMatches('mcp__.*', 'mcp__github__create_issue'), true);
  assert.equal(matcherMatches('mcp__.*', 'Bash'), false);
  assert.equal(matcherMatches('Notebook.*', 'NotebookEdit'), true);
  assert.equal(matcherMatches('Say', 'Echo', ['Say']), true);
  assert.equal(matcherMatches('(unclosed', 'Bash'), false);
  // A regular expression is searched, not anchored (checked against Claude Code 2.1.197: `B.s`,
  // `as.` and `Ba*` fire a Bash hook; `Ba` is a plain name and does not).
  assert.equal(matcherMatches('B.s', 'Bash'), true);
  assert.equal(matcherMatches('as.', 'Bash'), true);
  assert.equal(matcherMatches('Ba*', 'Bash'), true);
  assert.equal(matcherMatches('Ba', 'Bash'), false);
  assert.equal(matcherMatches('bash', 'Bash'), false);
  assert.equal(matcherMatches('Read | Bash', 'Bash'), true);
  assert.equal(matcherMatches('^Bash$', 'Bash'), true);
  assert.equal(matcherMatches('Bash(echo:*)', 'Bash'), false);
  assert.equal(matcherMatches('mcp__github__.*', 'mcp__github__create_issue'), true);
  assert.equal(matcherMatches('mcp__github__.*', 'mcp__gitlab__create_issue'), false);
});

test('a non-matching hook does not run; identical commands run once', async () => {
  const counter = path.join(cwd, 'count.txt');
  const cmd = await script(cwd, 'count.sh', `cat >/dev/null; echo x >> ${counter}`);
  const r = await runPreToolUseHooks(
    { session_id: 's', cwd, permission_mode: 'default', tool_name: 'Echo', tool_input: {}, tool_use_id: 't' },
    {
      projectDir: cwd,
      config: {
        PreToolUse: [
          { matcher: 'Echo', hooks: [{ type: 'command', command: cmd }] },
          { matcher: '*', hooks: [{ type: 'command', command: cmd }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 2' }] },
        ],
      },
    },
  );
  assert.equal(r.runs.length, 1);
  assert.equal(r.block, undefined);
  assert.equal((await fs.readFile(counter, 'utf8')).trim(), 'x');
});

test('hooks config: reference format accepted, bad shapes rejected (and the pipeline fails closed)', async () => {
  const cfg = normalizeHooksConfig({
    hooks: {
      PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'true', timeout: 60 }] }],
      Stop: [{ hooks: [] }],
    },
  });
  assert.deepEqual(cfg, {
    PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'true', timeout: 60 }] }],
    Stop: [{ hooks: [] }],
  });
  assert.throws(() => normalizeHooksConfig({ PreToolUse: {} }), /hooks.PreToolUse must be an array/);
  assert.throws(
    () => normalizeHooksConfig({ PreToolUse: [{ hooks: [{ type: 'http', url: 'x' }] }] }),
    /type must be "command"/,
  );
  assert.throws(
    () => normalizeHooksConfig({ PreToolUse: [{ hooks: [{ type: 'command', command: 'x', timeout: -1 }] }] }),
    /positive number/,
  );
  const o = await runToolPipeline(
    use('Echo', { text: 'a' }),
    makeEnv(cwd, { hooks: { PreToolUse: 'nope' } as unknown as HooksConfig }),
  );
  assert.equal(o.status, 'error');
  assert.equal(o.failure?.stage, 'hook');
  assert.equal(calls.length, 0);
  const wrapped = await runToolPipeline(
    use('Echo', { text: 'a' }),
    makeEnv(cwd, {
      hooks: { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'echo no >&2; exit 2' }] }] } },
    }),
  );
  assert.equal(wrapped.status, 'denied');
});

test("PostToolUse: Write and Edit send the reference's tool_response (originalFile, structuredPatch); without a PostToolUse hook the tools skip that work", async () => {
  const seen: Record<string, unknown>[] = [];
  const hooks: HooksConfig = {
    PostToolUse: [
      {
        matcher: 'Write|Edit',
        hooks: [
          {
            type: 'function',
            fn: (input) => void seen.push((input as { tool_response: Record<string, unknown> }).tool_response),
          },
        ],
      },
    ],
  };
  const tools = [ReadTool, WriteTool, EditTool];
  const file = path.join(cwd, 'patch.txt');
  const rows = Array.from({ length: 12 }, (_, i) => `row ${i + 1}`).join('\n') + '\n';
  // Write creates: no original, no hunks.
  let env = makeEnv(cwd, { hooks, tools, mode: 'acceptEdits' });
  const created = await runToolPipeline(use('Write', { file_path: 'patch.txt', content: rows }), env);
  assert.equal(created.status, 'ok', text(created));
  assert.deepEqual(seen.pop(), {
    type: 'create',
    filePath: 'patch.txt',
    content: rows,
    structuredPatch: [],
    originalFile: null,
    userModified: false,
  });
  env = { ...env, agent: applyContextModifiers(env.agent, created.contextModifiers ?? []) };
  // Edit in the middle: one hunk with 3 lines of context each side.
  const edited = await runToolPipeline(
    use('Edit', { file_path: file, old_string: 'row 6\n', new_string: 'row six\nrow 6b\n' }),
    env,
  );
  assert.equal(edited.status, 'ok', text(edited));
  assert.deepEqual(seen.pop(), {
    filePath: file,
    oldString: 'row 6\n',
    newString: 'row six\nrow 6b\n',
    originalFile: rows,
    structuredPatch: [
      {
        oldStart: 3,
        oldLines: 7,
        newStart: 3,
        newLines: 8,
        lines: [' row 3', ' row 4', ' row 5', '-row 6', '+row six', '+row 6b', ' row 7', ' row 8', ' row 9'],
      },
    ],
    userModified: false,
    replaceAll: false,
  });
  env = { ...env, agent: applyContextModifiers(env.agent, edited.contextModifiers ?? []) };
  // Write overwrites without a final newline: the marker lines of a unified diff.
  const after = await fs.readFile(file, 'utf8');
  const rewritten = await runToolPipeline(
    use('Write', { file_path: file, content: after.replace('row 12\n', 'row 12') }),
    env,
  );
  assert.equal(rewritten.status, 'ok', text(rewritten));
  const w = seen.pop()!;
  assert.equal(w.type, 'update');
  assert.equal(w.originalFile, after);
  assert.deepEqual(w.structuredPatch, [
    {
      oldStart: 10,
      oldLines: 4,
      newStart: 10,
      newLines: 4,
      lines: [' row 9', ' row 10', ' row 11', '-row 12', '+row 12', '\\ No newline at end of file'],
    },
  ]);
  // The tools add the original and the hunks only for a hook: the tool's own data stays small.
  const plain = makeEnv(cwd, { tools, mode: 'acceptEdits' });
  const ctxSeen: boolean[] = [];
  const spy = {
    ...WriteTool,
    call: (input: unknown, ctx: { fileChangeForHooks?: boolean }, p?: unknown) => (
      ctxSeen.push(ctx.fileChangeForHooks === true),
      (WriteTool.call as (...a: unknown[]) => unknown)(input, ctx, p)
    ),
  };
  const o = await runToolPipeline(use('Write', { file_path: 'plain.txt', content: 'x\n' }), {
    ...plain,
    pool: makeEnv(cwd, { tools: [spy as typeof WriteTool], mode: 'acceptEdits' }).pool,
  });
  assert.equal(o.status, 'ok', text(o));
  assert.deepEqual(ctxSeen, [false]);
});
