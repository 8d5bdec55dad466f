// unit (issue 30 round g, G-H1/G-H2): a subagent's large results live INSIDE its parent's results
// directory (`results/<parent>/agents/agent-<tool_use_id>`), so "a parent reads its children" is "a
// path inside my own directory" and no top-level session name can land there; a start with a
// subagent's id form is refused. Real in-process sessions against the fake Messages API, a real
// store on disk. Oracles: which files exist where, and what each Read returned to the model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { lastToolResults, startFakeAnthropic, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import type { MessagesRequest } from '../../src/testing/fakeAnthropic/types';
import { runLocalSession, startLocalSession } from '../../src/inprocess/runSession';
import { prepareSessionStart } from '../../src/temporal/client';
import { InvalidSessionInputError } from '../../src/sessionInput';
import { topLevelSessionIdProblem } from '../../src/core/subagents';
import { buildTool } from '../../src/toolProtocol/Tool';

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-results-nesting-')));

/** A tool whose result is over its size limit: the pipeline stores it in the session's results directory. */
const BigOut = buildTool({
  name: 'BigOut',
  inputSchema: z.strictObject({ tag: z.string(), lines: z.number() }),
  maxResultSizeChars: 200,
  prompt: () => 'Prints numbered lines.',
  summary: (i) => `BigOut ${i.tag}`,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  async call(i) {
    return { data: Array.from({ length: i.lines }, (_, n) => `${i.tag}-MARK line ${n + 1}`).join('\n') };
  },
  mapToolResultToToolResultBlockParam: (data: string, toolUseId) => ({
    type: 'tool_result',
    tool_use_id: toolUseId,
    content: data,
  }),
});

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

const firstText = (req: MessagesRequest): string => JSON.stringify(req.messages[0]?.content ?? '');
const resultText = (req: MessagesRequest): string => JSON.stringify(lastToolResults(req)[0] ?? '');

test('results: a foreground and a background agent store inside their parent’s directory; the parent reads both, a child reads neither its parent nor its sibling', async () => {
  const fake = await startFakeAnthropic();
  const work = mkdtempSync(path.join(root, 'work-'));
  const store = mkdtempSync(path.join(root, 'store-'));
  const results = path.join(store, 'results');
  const parentDir = path.join(results, 'rn-parent');
  const fgDir = path.join(parentDir, 'agents', 'agent-toolu_p_fg');
  const bgDir = path.join(parentDir, 'agents', 'agent-toolu_p_bg');
  const seen: Record<string, string> = {};
  const steps = new Map<string, number>();
  const step = (who: string) => {
    const n = (steps.get(who) ?? 0) + 1;
    steps.set(who, n);
    return n;
  };
  try {
    fake.script((req) => {
      const first = firstText(req);
      if (first.includes('CHILD-FG')) {
        const n = step('fg');
        if (n === 1) return toolUseResponse([{ id: 'toolu_c_big', name: 'BigOut', input: { tag: 'FG', lines: 400 } }]);
        if (n === 2)
          return toolUseResponse([
            { id: 'toolu_c_read_parent', name: 'Read', input: { file_path: path.join(parentDir, 'toolu_p_big.txt') } },
          ]);
        seen.fgReadParent = resultText(req);
        return textResponse('child fg done');
      }
      if (first.includes('CHILD-BG')) {
        const n = step('bg');
        if (n === 1) return toolUseResponse([{ id: 'toolu_b_big', name: 'BigOut', input: { tag: 'BG', lines: 400 } }]);
        if (n === 2)
          return toolUseResponse([
            { id: 'toolu_b_read_sibling', name: 'Read', input: { file_path: path.join(fgDir, 'toolu_c_big.txt') } },
          ]);
        seen.bgReadSibling = resultText(req);
        return textResponse('child bg done');
      }
      const n = step('parent');
      if (n === 1) return toolUseResponse([{ id: 'toolu_p_big', name: 'BigOut', input: { tag: 'P', lines: 400 } }]);
      if (n === 2)
        return toolUseResponse([
          {
            id: 'toolu_p_fg',
            name: 'Agent',
            input: { description: 'fg', prompt: 'CHILD-FG', run_in_background: false },
          },
          {
            id: 'toolu_p_bg',
            name: 'Agent',
            input: { description: 'bg', prompt: 'CHILD-BG', run_in_background: true },
          },
        ]);
      if (n === 3)
        return toolUseResponse([
          {
            id: 'toolu_p_read_fg',
            name: 'Read',
            input: { file_path: path.join(fgDir, 'toolu_c_big.txt'), offset: 399 },
          },
        ]);
      if (n === 4) {
        seen.parentReadFg = resultText(req);
        return textResponse('waiting for the background agent');
      }
      if (n === 5)
        return toolUseResponse([
          {
            id: 'toolu_p_read_bg',
            name: 'Read',
            input: { file_path: path.join(bgDir, 'toolu_b_big.txt'), offset: 399 },
          },
        ]);
      if (n === 6) seen.parentReadBg = resultText(req);
      return textResponse('done');
    });
    const r = await runLocalSession(
      {
        sessionId: 'rn-parent',
        prompt: 'delegate',
        cwd: work,
        tools: ['Read', 'Agent', 'BigOut'],
        permissionMode: 'bypassPermissions',
        model: { model: 'claude-test', maxTokens: 256 },
      },
      {
        storeDir: store,
        tools: [BigOut],
        anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }),
      },
    );
    assert.equal(r.status, 'completed', r.endReason);
    // The layout on disk: every stored result of the tree lies inside the parent's directory.
    assert.deepEqual(filesUnder(results), [
      path.join('rn-parent', 'agents', 'agent-toolu_p_bg', 'toolu_b_big.txt'),
      path.join('rn-parent', 'agents', 'agent-toolu_p_fg', 'toolu_c_big.txt'),
      path.join('rn-parent', 'toolu_p_big.txt'),
    ]);
    // The parent read both children's results (the last line of each).
    assert.match(seen.parentReadFg ?? '', /FG-MARK line 400/, seen.parentReadFg);
    assert.match(seen.parentReadBg ?? '', /BG-MARK line 400/, seen.parentReadBg);
    // A child reads neither its parent's results nor its sibling's.
    assert.ok(seen.fgReadParent !== undefined && !seen.fgReadParent.includes('P-MARK'), seen.fgReadParent);
    assert.ok(seen.bgReadSibling !== undefined && !seen.bgReadSibling.includes('FG-MARK'), seen.bgReadSibling);
    assert.match(seen.bgReadSibling, /denied/, 'refused, not missing: the sibling stored it before');
    assert.match(seen.fgReadParent ?? '', /denied/, 'refused, not missing');
  } finally {
    await fake.close();
  }
});

test('results: a session started on its own with a subagent’s id form is refused at the start, before anything runs', async () => {
  const fake = await startFakeAnthropic();
  const store = mkdtempSync(path.join(root, 'store-'));
  try {
    fake.script(() => textResponse('ran'));
    const opts = (sessionId: string) => ({
      sessionId,
      prompt: 'hello',
      cwd: mkdtempSync(path.join(root, 'work-')),
      tools: ['Read'],
      model: { model: 'claude-test', maxTokens: 64 },
    });
    const worker = {
      storeDir: store,
      anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }),
    };
    for (const id of ['p/agent-x', 'a/b/agent-toolu_1', 'p/agent-']) {
      assert.throws(
        () => startLocalSession(opts(id), worker),
        (err: unknown) =>
          err instanceof InvalidSessionInputError && /form of a subagent's session id/.test(err.message),
        id,
      );
      // Temporal's start: the same refusal, before the client is used at all.
      await assert.rejects(
        prepareSessionStart({} as never, { id, prompt: 'hello', model: { model: 'claude-test', maxTokens: 64 } }),
        InvalidSessionInputError,
        id,
      );
    }
    // A turn workflow's id form would take the place of session p's turn.
    for (const id of ['p/turn-3', 'a/b/turn-12']) {
      assert.match(topLevelSessionIdProblem(id) ?? '', /form of a turn's workflow id/, id);
      await assert.rejects(
        prepareSessionStart({} as never, { id, prompt: 'hello', model: { model: 'claude-test', maxTokens: 64 } }),
        InvalidSessionInputError,
        id,
      );
    }
    assert.equal(fake.messageRequests().length, 0, 'no model call was made');
    assert.deepEqual(filesUnder(store), [], 'nothing was stored');
    // Ids of other forms start as before (one runs here to its end).
    for (const id of ['p/agentx', 'p/agent-x/y', 'p_agent-x', 'my job/1', 'p/turn-x', 'p/turn-3/y'])
      assert.equal(topLevelSessionIdProblem(id), undefined, id);
    const ok = await runLocalSession(opts('p_agent-x'), worker);
    assert.equal(ok.status, 'completed', ok.endReason);
  } finally {
    await fake.close();
  }
});
