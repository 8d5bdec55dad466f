// integration: WebFetch, WebSearch and NotebookEdit in sessions on the real dev server, the real
// SDK against the fake Messages API (the main model and the tools' own model calls), a real local
// HTTP server that counts its requests. A finished fetch is never fetched again: not when the
// model's stream fails and the fallback repeats the tool_use_id, not when the worker is SIGKILLed
// during a later fetch (the fetch in flight runs again on the next worker; the finished one not).
import { after, test } from 'node:test';
import { turnResultFromHistory } from '../../src/core/payloads';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  lastToolResults,
  textResponse,
  toolUseResponse,
  type MessageSpec,
  type MessagesRequest,
} from '../../src/testing/fakeAnthropic';
import { buildAudit, formatAuditText } from '../../src/audit';
import type { TurnWorkflowResult } from '../../src/temporal/workflows/definitions';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';
import { killGroup, spawnWorker, type WorkerProc, workerProcessEnv } from '../support/workerProcs';

after(closeTestEnv);

/**
 * A local site: /page answers at once; /slow never answers its first request (a fetch in flight until
 * the test kills the worker: an event, not a delay the kill had to beat), later ones at once. Every
 * request is counted by path.
 */
async function startSite(): Promise<{ base: string; hits: Map<string, number>; close(): Promise<void> }> {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const send = (): void => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<h1>${path}</h1><p>The answer is 42.</p>`);
    };
    if (path !== '/slow' || hits.get(path) !== 1) send();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The tools' own model calls: no client tools (WebFetch reads a page) or only the server web search. */
function isSideRequest(req: MessagesRequest): 'fetch' | 'search' | undefined {
  const tools = (req.tools ?? []) as Array<{ type?: string }>;
  if (tools.length === 0) return 'fetch';
  if (tools.every((t) => t.type?.startsWith('web_search_'))) return 'search';
  return undefined;
}

const SEARCH_ANSWER: MessageSpec = {
  content: [
    { type: 'server_tool_use', input: { query: 'durable execution' } },
    {
      type: 'web_search_tool_result',
      results: [{ url: 'https://temporal.io/', title: 'Temporal', page_age: '2 days ago' }],
    },
    { type: 'text', text: 'Temporal runs durable workflows.' },
  ],
};

const rules = {
  allow: ['WebFetch(domain:127.0.0.1)', 'WebSearch'],
  ask: [],
  deny: [],
};

test(
  'integration: WebFetch and WebSearch in a session; a stream that fails after the fetch started falls back, and the repeated id is not fetched again; NotebookEdit after Read',
  { timeout: 120_000 },
  async () => {
    const site = await startSite();
    try {
      await withAgent({}, async ({ fake, start, workDir, client }) => {
        const nb = join(workDir, 'n.ipynb');
        await writeFile(
          nb,
          JSON.stringify({
            cells: [{ cell_type: 'code', id: 'a1', source: 'x = 1', metadata: {}, outputs: [] }],
            nbformat: 4,
            nbformat_minor: 5,
          }),
        );
        const fetch = {
          type: 'tool_use' as const,
          id: 'toolu_fetch',
          name: 'WebFetch',
          input: { url: `${site.base}/page`, prompt: 'What is the answer?' },
        };
        let main = 0;
        fake.script((req) => {
          const side = isSideRequest(req);
          if (side === 'fetch') return textResponse('The page says the answer is 42.');
          if (side === 'search') return SEARCH_ANSWER;
          main++;
          if (main === 1)
            // The fetch starts while the message streams; then the stream dies.
            return { content: [{ ...fetch, pauseAfterMs: 1500 }], dropAfterBlocks: 1 };
          if (main === 2) return { content: [fetch] }; // the non-streamed fallback: the same id
          if (main === 3)
            return toolUseResponse([
              { id: 'toolu_search', name: 'WebSearch', input: { query: 'durable execution' } },
              { id: 'toolu_read', name: 'Read', input: { file_path: nb } },
            ]);
          if (main === 4)
            return toolUseResponse([
              {
                id: 'toolu_nb',
                name: 'NotebookEdit',
                input: { notebook_path: nb, cell_id: 'a1', new_source: 'x = 2' },
              },
            ]);
          return textResponse('Done.');
        });
        // acceptEdits: NotebookEdit in the working directory runs unasked; the web tools only by their rules.
        const handle = await start({ prompt: 'look it up', rules, permissionMode: 'acceptEdits' });
        const result = await handle.result();
        assert.equal(result.status, 'completed', result.endReason);

        assert.equal(site.hits.get('/page'), 1, 'the page was fetched once');
        const reqs = fake.messageRequests();
        const mainReqs = reqs.filter((r) => !isSideRequest(r));
        const [fetchResult] = lastToolResults(mainReqs[2]!);
        assert.equal(fetchResult?.tool_use_id, 'toolu_fetch');
        assert.notEqual(fetchResult?.is_error, true, JSON.stringify(fetchResult));
        assert.match(JSON.stringify(fetchResult?.content), /answer is 42/);
        // The side model saw the page as text and the prompt.
        const sideFetch = reqs.find((r) => isSideRequest(r) === 'fetch');
        assert.match(
          JSON.stringify(sideFetch?.messages),
          /# \/page[\s\S]*The answer is 42\.[\s\S]*What is the answer\?/,
        );
        // The search: the server tool in the request, its blocks in the result.
        const sideSearch = reqs.find((r) => isSideRequest(r) === 'search');
        assert.deepEqual(sideSearch?.tools, [{ type: 'web_search_20250305', name: 'web_search', max_uses: 8 }]);
        assert.deepEqual(sideSearch?.tool_choice, { type: 'tool', name: 'web_search' });
        const results = lastToolResults(mainReqs[3]!);
        const search = results.find((r) => r.tool_use_id === 'toolu_search');
        assert.match(
          JSON.stringify(search?.content),
          /Links: \[\{\\"title\\":\\"Temporal\\",\\"url\\":\\"https:\/\/temporal.io\/\\"\}\]/,
        );
        const nbResult = lastToolResults(mainReqs[4]!)[0];
        assert.equal(nbResult?.content, 'Updated cell a1 with x = 2');
        assert.equal(
          (JSON.parse(await readFile(nb, 'utf8')) as { cells: Array<{ source: string }> }).cells[0]?.source,
          'x = 2',
        );

        const turn = turnResultFromHistory(
          (await client.workflow.getHandle(`${handle.workflowId}/turn-1`).result()) as TurnWorkflowResult,
        );
        assert.equal(turn.fallback, true);
        // The child ran every step (issue 33): the fetch has one record, made early, never a second.
        assert.deepEqual(
          turn.records
            .filter((r) => r.toolUseId === 'toolu_fetch')
            .map((r) => [r.toolUseId, r.status, r.early ?? false]),
          [['toolu_fetch', 'ok', true]],
        );
        // The audit names the URL, the address and the bytes fetched.
        const text = formatAuditText(await buildAudit(client, handle.workflowId));
        assert.match(text, new RegExp(`WebFetch ${site.base.replace(/[.]/g, '\\.')}/page`));
        assert.match(text, /fetched \d+ bytes: http:\/\/127\.0\.0\.1:\d+\/page \(127\.0\.0\.1\) 200/);
      });
    } finally {
      await site.close();
    }
  },
);

test(
  'integration: SIGKILL the worker during a slow WebFetch; the next worker fetches it again, the finished fetch never runs twice',
  { timeout: 180_000 },
  async () => {
    const site = await startSite();
    const procs: WorkerProc[] = [];
    try {
      await withAgent({ noWorker: true }, async ({ env, fake, start, storeDir, taskQueue }) => {
        const workerEnv = await workerProcessEnv({ env, fake, storeDir, taskQueue });
        let main = 0;
        fake.script((req) => {
          if (isSideRequest(req)) return textResponse('42.');
          main++;
          if (main === 1)
            return toolUseResponse([
              { id: 'toolu_fast', name: 'WebFetch', input: { url: `${site.base}/page`, prompt: 'answer?' } },
            ]);
          if (main === 2)
            return toolUseResponse([
              { id: 'toolu_slow', name: 'WebFetch', input: { url: `${site.base}/slow`, prompt: 'answer?' } },
            ]);
          return textResponse('Both read.');
        });
        const worker = await spawnWorker('worker-1', workerEnv, procs);
        const handle = await start({
          prompt: 'read two pages',
          rules,
          permissionMode: 'default',
          toolHeartbeatTimeoutMs: 2000,
        });
        await waitFor('the slow fetch to reach the site', async () => (site.hits.get('/slow') ?? 0) >= 1, 60_000);
        assert.equal(site.hits.get('/page'), 1);
        killGroup(worker);
        await worker.exited;
        await spawnWorker('worker-2', workerEnv, procs); // killed in finally
        const result = await handle.result();
        assert.equal(result.status, 'completed', result.endReason);
        assert.equal(site.hits.get('/page'), 1, 'the finished fetch was not fetched again');
        assert.equal(site.hits.get('/slow'), 2, 'the fetch in flight ran again, once, on the next worker');
        const last = fake
          .messageRequests()
          .filter((r) => !isSideRequest(r))
          .at(-1)!;
        const [slow] = lastToolResults(last);
        assert.equal(slow?.tool_use_id, 'toolu_slow');
        assert.notEqual(slow?.is_error, true, JSON.stringify(slow));
      });
    } finally {
      for (const p of procs) killGroup(p);
      await site.close();
    }
  },
);
