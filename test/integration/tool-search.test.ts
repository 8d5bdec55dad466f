// integration: deferred tools and ToolSearch on the real dev server. A session with 200 MCP tools
// (test/support/mcpServer MCP_TEST_EXTRA_TOOLS) sends them deferred (tool search `auto`: their
// schemas pass 10% of the window); the model loads one with ToolSearch; the worker is SIGKILLed
// while the rest of that turn runs, and the next worker's request carries the loaded tool (the
// loaded set is derived from the transcript, not from a worker's memory); calling it works.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lastToolResults, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { turnProgressQuery } from '../../src/temporal/workflows/definitions';
import { workflowsPath } from '../../src/temporal/worker';
import { closeTestEnv, getWorkflowBundle } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';
import { killGroup, spawnWorker, type WorkerProc } from '../support/workerProcs';

after(closeTestEnv);

const testServer = join(__dirname, '..', 'support', 'mcpServer.js');
const LOADED = 'mcp__big__extra_042';

type Tool = { name?: string; input_schema?: unknown; defer_loading?: boolean };
const toolsOf = (r: { tools?: unknown[] }): Tool[] => (r.tools ?? []) as Tool[];

test(
  'integration: 200 MCP tools go deferred; ToolSearch loads one; after a worker SIGKILL the next request still carries it and calling it works',
  { timeout: 240_000 },
  async () => {
    const procs: WorkerProc[] = [];
    try {
      await withAgent({ noWorker: true }, async ({ env, client, fake, start, storeDir, taskQueue }) => {
        const bundlePath = join(storeDir, 'workflow-bundle.js');
        await writeFile(bundlePath, (await getWorkflowBundle(workflowsPath)).code);
        const workerEnv: NodeJS.ProcessEnv = {
          TEMPORAL_TEST_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS ?? env.address,
          TEMPORAL_TEST_NAMESPACE: env.namespace ?? 'default',
          TASK_QUEUE: taskQueue,
          STORE_DIR: storeDir,
          FAKE_ANTHROPIC_URL: fake.baseURL,
          WORKFLOW_BUNDLE_PATH: bundlePath,
        };
        fake.enqueue(
          // Turn 1: load one deferred tool, and (same message) a slow call during which the worker dies.
          toolUseResponse([
            { id: 'toolu_load', name: 'ToolSearch', input: { query: `select:${LOADED}` } },
            { id: 'toolu_wait', name: 'mcp__big__wait', input: { ms: 8000, tag: 'slow' } },
          ]),
          // Turn 2 (the next worker): call the loaded tool.
          toolUseResponse([{ id: 'toolu_call', name: LOADED, input: { id: 'r1' } }]),
          textResponse('done'),
        );
        const worker = await spawnWorker('worker-1', workerEnv, procs);
        const handle = await start({
          prompt: 'look up record r1',
          tools: ['Read', 'Bash', 'ToolSearch'],
          mcpServers: {
            big: { command: process.execPath, args: [testServer], env: { MCP_TEST_EXTRA_TOOLS: '200' } },
          },
          contextManagement: { toolSearch: 'auto' },
          toolHeartbeatTimeoutMs: 2000,
        });
        const turn = client.workflow.getHandle(`${handle.workflowId}/turn-1`);
        await waitFor(
          'ToolSearch done and the slow call running',
          async () => {
            const p = await turn.query(turnProgressQuery);
            return (
              p.done.some((r) => r.toolUseId === 'toolu_load') && p.running.some((r) => r.toolUseId === 'toolu_wait')
            );
          },
          90_000,
        );
        killGroup(worker);
        await worker.exited;
        await spawnWorker('worker-2', workerEnv, procs); // killed in finally
        const result = await handle.result();
        assert.equal(result.status, 'completed', result.endReason);

        const [first, second, third] = fake.messageRequests();
        assert.ok(first && second && third, 'three model requests');
        // The first request: no MCP schema whole, one defer_loading placeholder; the extras only named.
        const firstTools = toolsOf(first);
        assert.equal(firstTools.filter((t) => t.name?.startsWith('mcp__big__extra_')).length, 0);
        assert.equal(firstTools.filter((t) => t.defer_loading === true).length, 1);
        assert.ok(firstTools.some((t) => t.name === 'ToolSearch' && t.input_schema));
        assert.match(JSON.stringify(first.system ?? '') + JSON.stringify(first.messages), new RegExp(LOADED));
        // ToolSearch's result is the tool_reference block.
        const loadResult = lastToolResults(second).find((r) => r.tool_use_id === 'toolu_load');
        assert.deepEqual(loadResult?.content, [{ type: 'tool_reference', tool_name: LOADED }]);
        // The request the second worker built carries the loaded tool whole (deferred), and no other extra.
        for (const r of [second, third]) {
          const loaded = toolsOf(r).filter((t) => t.name?.startsWith('mcp__big__extra_'));
          assert.deepEqual(
            loaded.map((t) => [t.name, t.defer_loading, !!t.input_schema]),
            [[LOADED, true, true]],
          );
        }
        // Calling it works.
        const callResult = lastToolResults(third).find((r) => r.tool_use_id === 'toolu_call');
        assert.notEqual(callResult?.is_error, true, JSON.stringify(callResult));
        assert.match(JSON.stringify(callResult?.content), /extra_042 r1/);
        fake.assertDone();
      });
    } finally {
      for (const p of procs) killGroup(p);
    }
  },
);

test(
  "integration: a malformed call of a deferred tool not loaded gets the hint to load it (the tool activity finds the model call's record); once loaded, the schema error alone",
  { timeout: 120_000 },
  async () => {
    await withAgent({}, async ({ fake, start }) => {
      fake.enqueue(
        toolUseResponse([
          { id: 'toolu_wf_unloaded', name: 'WebFetch', input: { url: 5, prompt: 'x' } },
          { id: 'toolu_nb_unloaded', name: 'NotebookEdit', input: { notebook_path: 'a.ipynb', cell: 1 } },
        ]),
        toolUseResponse([{ id: 'toolu_select', name: 'ToolSearch', input: { query: 'select:WebFetch' } }]),
        toolUseResponse([{ id: 'toolu_wf_loaded', name: 'WebFetch', input: { url: 5, prompt: 'x' } }]),
        textResponse('done'),
      );
      const handle = await start({
        prompt: 'fetch it',
        tools: ['Read', 'WebFetch', 'NotebookEdit', 'ToolSearch'],
        contextManagement: { toolSearch: 'on' },
      });
      const result = await handle.result();
      assert.equal(result.status, 'completed', result.endReason);
      const reqs = fake.messageRequests();
      const resultOf = (id: string) =>
        reqs.flatMap((r) => lastToolResults(r)).find((r) => r.tool_use_id === id) as
          { content?: unknown; is_error?: boolean } | undefined;
      const text = (id: string) => String(resultOf(id)?.content);
      const hint =
        /\n\nThis tool's schema was not sent to the API .*call ToolSearch with query "select:(\w+)", then retry this call\. For reference, this tool's input schema is: \{/s;
      assert.equal(resultOf('toolu_wf_unloaded')?.is_error, true);
      assert.equal(hint.exec(text('toolu_wf_unloaded'))?.[1], 'WebFetch', text('toolu_wf_unloaded'));
      assert.match(text('toolu_nb_unloaded'), /^<tool_use_error>InputValidationError: NotebookEdit failed/);
      assert.equal(hint.exec(text('toolu_nb_unloaded'))?.[1], 'NotebookEdit', text('toolu_nb_unloaded'));
      assert.match(text('toolu_nb_unloaded'), /<\/tool_use_error>$/);
      assert.equal(resultOf('toolu_wf_loaded')?.is_error, true);
      assert.match(
        text('toolu_wf_loaded'),
        /^<tool_use_error>InputValidationError: WebFetch failed[\s\S]*<\/tool_use_error>$/,
      );
      assert.doesNotMatch(text('toolu_wf_loaded'), /select:/, 'loaded: no hint');
      fake.assertDone();
    });
  },
);
