// Deferred tools (issue 20.5): the input tokens of a session's first model request with 200 MCP
// tools, tool search off (every schema up front) and on (`auto`: the schemas pass 10% of the
// window, so they are deferred behind ToolSearch). One run prints both figures and the ratio.
//
//   npm run build && node dist/bench/toolSearch.js [N]     (N MCP tools, default 200)
//
// The figures are the fake Messages API's usage.input_tokens: an estimate (each tool, system block
// and message block's JSON length / 4; a `defer_loading` tool counts only once a tool_reference
// names it, as the API expands it), the same for both runs. The second run also checks that the
// deferred tools work: the model loads one with ToolSearch and calls it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { runLocalSession } from '../src/inprocess/runSession';
import {
  promptSegments,
  promptTokens,
  startFakeAnthropic,
  textResponse,
  toolUseResponse,
} from '../src/testing/fakeAnthropic';

interface Measured {
  firstInputTokens: number;
  firstTools: number;
  deferredInFirst: number;
  afterLoadInputTokens?: number;
  pong?: string;
}

async function measure(n: number, toolSearch: 'off' | 'auto'): Promise<Measured> {
  const root = await mkdtemp(join(tmpdir(), 'da-bench-toolsearch-'));
  const fake = await startFakeAnthropic();
  let calls = 0;
  fake.script(() => {
    const i = calls++;
    if (toolSearch === 'off' || i > 1) return textResponse('done');
    return i === 0
      ? toolUseResponse([{ id: 'toolu_load', name: 'ToolSearch', input: { query: 'select:mcp__big__extra_042' } }])
      : toolUseResponse([{ id: 'toolu_call', name: 'mcp__big__extra_042', input: { id: 'r1' } }]);
  });
  try {
    const r = await runLocalSession(
      {
        prompt: 'look up record r1',
        cwd: root,
        permissionMode: 'bypassPermissions',
        model: { model: 'claude-test', maxTokens: 1024 },
        contextManagement: { toolSearch },
        mcpServers: {
          big: {
            command: process.execPath,
            args: [join(__dirname, '..', 'test', 'support', 'mcpServer.js')],
            env: { MCP_TEST_EXTRA_TOOLS: String(n) },
          },
        },
      },
      {
        storeDir: join(root, 'store'),
        anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }),
      },
    );
    if (r.status !== 'completed') throw new Error(`session ${r.status}: ${r.endReason}`);
    // The fake's input-token estimate of each request (its usage: input + cache creation + cache read).
    const tokens = fake.messageRequests().map((q) => promptTokens(promptSegments(q)));
    const first = fake.messageRequests()[0];
    const tools = (first?.tools ?? []) as Array<{ defer_loading?: boolean }>;
    const third = fake.messageRequests()[2];
    const pong = JSON.stringify(third?.messages.at(-1)?.content ?? '').match(/extra_042 r1/)?.[0];
    return {
      firstInputTokens: tokens[0] ?? NaN,
      firstTools: tools.length,
      deferredInFirst: tools.filter((t) => t.defer_loading).length,
      ...(toolSearch === 'auto' ? { afterLoadInputTokens: tokens[1] ?? NaN } : {}),
      ...(pong ? { pong } : {}),
    };
  } finally {
    await fake.close();
    await rm(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 200);
  const off = await measure(n, 'off');
  const on = await measure(n, 'auto');
  if (!on.pong) throw new Error('the deferred MCP tool was not called successfully after ToolSearch loaded it');
  console.log(`MCP tools: ${n} (+ 8 of the test server), default built-in tools`);
  console.log(
    `tool search off : first request ${off.firstInputTokens} input tokens (${off.firstTools} tools sent whole)`,
  );
  console.log(
    `tool search auto: first request ${on.firstInputTokens} input tokens (${on.firstTools} tools, ${on.deferredInFirst} deferred placeholder); after ToolSearch loaded one tool: ${on.afterLoadInputTokens}`,
  );
  console.log(`ratio off/auto: ${(off.firstInputTokens / on.firstInputTokens).toFixed(1)}x`);
  process.exit(0);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : String(err));
  process.exit(1);
});
