// unit: deferred tools and ToolSearch (docs/tools.md "Deferred tools and ToolSearch"): the search
// (select and keywords, the reference's scoring), the loaded set derived from the transcript, the
// request's tools and messages, the tool through the one pipeline, the edge's settings, and the
// fake Messages API's wire checks and token counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import {
  deferTools,
  referencedToolNames,
  searchTools,
  shapeMessages,
  TOOL_LOADED_TEXT,
  type RequestTool,
} from '../../src/toolProtocol/deferredTools';
import { ToolSearchTool } from '../../src/tools';
import { buildTool } from '../../src/toolProtocol/Tool';
import { runToolPipeline } from '../../src/toolCall/pipeline';
import type { Message } from '../../src/core/apiMessages';
import { estimateTokens } from '../../src/core/contextWindow';
import { sessionInput, toolSearchFromEnv, BUILTIN_TOOL_NAMES, sessionInputProblems } from '../../src/sessionInput';
import { applyCacheBreakpoints } from '../../src/core/promptCache';
import { fakeClient, startFakeAnthropic, textResponse } from '../support/fakeAnthropic';
import { makeEnv, tempDir, use } from './pipelineFixtures';
import { LocalBlobStore, TranscriptStore } from '../../src/stores/messageStore';
import { deferredNotLoaded, recordOfferedTools } from '../../src/toolCall/offeredTools';

const tool = (name: string, description: string, deferrable = true): RequestTool => ({
  name,
  description,
  input_schema: { type: 'object', properties: { x: { type: 'string', description: description.repeat(4) } } },
  ...(deferrable ? { deferrable: true } : {}),
});

const DEFERRED = [
  { name: 'WebFetch', description: 'Fetches a URL and answers a prompt about the page' },
  { name: 'WebSearch', description: 'Searches the web' },
  { name: 'CronCreate', description: 'Schedules a prompt on a cron expression' },
  { name: 'CronList', description: 'Lists the cron jobs' },
  { name: 'CronDelete', description: 'Deletes a cron job' },
  { name: 'mcp__t__ping', description: 'Answers pong with the message' },
  { name: 'mcp__t__pid', description: 'The process id of the server' },
  { name: 'mcp__t__extra_000', description: 'Looks up a record of the catalogue' },
  { name: 'mcp__t__extra_001', description: 'Looks up a record of the catalogue' },
  { name: 'mcp__t__extra_002', description: 'Looks up a record of the catalogue' },
];
const ALL = [...DEFERRED, { name: 'Read', description: 'Reads a file' }, { name: 'ToolSearch', description: 'x' }];
const search = (q: string, max?: number): string[] =>
  searchTools(q, { deferred: DEFERRED, all: ALL, ...(max !== undefined ? { maxResults: max } : {}) });

test('unit: select: loads tools by name, in query order, ignoring case and unknown names', () => {
  assert.deepEqual(search('select:mcp__t__ping,WebFetch'), ['mcp__t__ping', 'WebFetch']);
  assert.deepEqual(search('select: webfetch , Nope ,mcp__t__pid'), ['WebFetch', 'mcp__t__pid']);
  assert.deepEqual(search('SELECT:Read'), ['Read'], 'an up-front tool is selectable (the reference answers it too)');
  assert.deepEqual(search('select:Nope'), []);
  assert.deepEqual(search('select:WebFetch,WebFetch'), ['WebFetch']);
});

test('unit: keyword search scores names and descriptions as the reference does', () => {
  assert.deepEqual(search('ping'), ['mcp__t__ping']);
  assert.deepEqual(search('WEBSEARCH'), ['WebSearch'], 'a tool name, any case');
  assert.deepEqual(search('mcp__t__ext'), ['mcp__t__extra_000', 'mcp__t__extra_001', 'mcp__t__extra_002']);
  assert.deepEqual(search('extra record', 2), ['mcp__t__extra_000', 'mcp__t__extra_001'], 'max_results');
  assert.deepEqual(
    search('+cron list'),
    ['CronList', 'CronCreate', 'CronDelete'],
    'a required word, ranked by the rest',
  );
  assert.deepEqual(search('web'), ['WebSearch', 'WebFetch'], "WebSearch's description says web too");
  assert.deepEqual(search('zzzunknown'), []);
  assert.deepEqual(search('+zzz web'), [], 'nothing has the required word');
  assert.deepEqual(search('   '), []);
});

test('unit: the loaded set is the tool_reference blocks of the transcript, in order of first appearance', () => {
  const full: Message[] = [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ToolSearch', input: { query: 'x' } }] },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 't1',
          content: [
            { type: 'tool_reference', tool_name: 'B' },
            { type: 'tool_reference', tool_name: 'A' },
          ],
        },
      ],
    },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'ToolSearch', input: { query: 'y' } }] },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't2', content: [{ type: 'tool_reference', tool_name: 'A' }] },
        { type: 'tool_result', tool_use_id: 't3', content: 'No matching deferred tools found' },
      ],
    },
  ];
  assert.deepEqual(referencedToolNames(full), ['B', 'A']);
  assert.deepEqual(referencedToolNames(full.slice(0, 2)), []);
});

/** A conversation whose ToolSearch call loaded `names`. */
function loadedConversation(names: string[]): Message[] {
  return [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'ts1', name: 'ToolSearch', input: { query: 'q' } }] },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'ts1',
          content: names.map((tool_name) => ({ type: 'tool_reference' as const, tool_name })),
        },
      ],
    },
  ];
}

const defined: RequestTool[] = [
  tool('Read', 'Reads a file', false),
  tool('ToolSearch', 'Loads deferred tools', false),
  tool('WebFetch', 'Fetches a URL'),
  ...Array.from({ length: 50 }, (_, i) => tool(`mcp__big__t${i}`, `Tool ${i} of a big server`)),
];
const settings = (mode: 'on' | 'off' | 'auto', window = 200_000) => ({
  mode,
  pct: 10,
  window,
  estimate: estimateTokens,
});

test('unit: on: up-front tools, a deferred placeholder, the loaded tools with defer_loading; names in the note', () => {
  const full = loadedConversation(['mcp__big__t3', 'Nope']);
  const r = deferTools(defined, full, full, settings('on'));
  assert.equal(r.active, true);
  assert.deepEqual(
    r.tools.map((t) => `${t.name}${t.defer_loading ? '*' : ''}`),
    ['Read', 'ToolSearch', 'DeferredToolPlaceholder*', 'mcp__big__t3*'],
  );
  assert.ok(
    r.tools.every((t) => !('deferrable' in t)),
    'our flag is never sent',
  );
  assert.match(r.note ?? '', /select:/);
  assert.ok(r.note?.includes('\nmcp__big__t49') && r.note.includes('\nWebFetch'), 'every deferred tool is named');
  // Nothing loaded yet: only the placeholder is deferred.
  const first = deferTools(defined, full.slice(0, 1), full.slice(0, 1), settings('on'));
  assert.deepEqual(
    first.tools.map((t) => t.name),
    ['Read', 'ToolSearch', 'DeferredToolPlaceholder'],
  );
});

test('unit: a tool loaded before a compaction stays loaded, sent whole (its reference is summarised away)', () => {
  const full = loadedConversation(['mcp__big__t7']);
  const view: Message[] = [{ role: 'user', content: 'summary of the earlier conversation' }];
  const r = deferTools(defined, full, view, settings('on'));
  const t7 = r.tools.find((t) => t.name === 'mcp__big__t7');
  assert.ok(t7, 'still offered');
  assert.equal(t7.defer_loading, undefined, 'whole: the model has no reference to expand');
});

test('unit: off sends every schema up front and no ToolSearch; auto defers only above the threshold, then stays on', () => {
  const off = deferTools(defined, [], [], settings('off'));
  assert.equal(off.active, false);
  assert.equal(off.note, undefined);
  assert.deepEqual(
    off.tools.map((t) => t.name),
    defined.filter((t) => t.name !== 'ToolSearch').map((t) => t.name),
  );
  const tokens = estimateTokens(defined.filter((t) => t.deferrable));
  // The 51 deferrable schemas are above 10% of a small window, below 10% of a big one.
  assert.equal(deferTools(defined, [], [], settings('auto', tokens * 5)).active, true);
  const below = deferTools(defined, [], [], settings('auto', tokens * 20));
  assert.equal(below.active, false);
  assert.ok(!below.tools.some((t) => t.name === 'ToolSearch'));
  // Once the model called ToolSearch the conversation keeps it (the reference's "held" auto mode).
  const used = loadedConversation(['WebFetch']);
  assert.equal(deferTools(defined, used, used, settings('auto', tokens * 20)).active, true);
  // No ToolSearch in the session (an explicit tool list without it): nothing is deferred.
  const without = defined.filter((t) => t.name !== 'ToolSearch');
  assert.equal(deferTools(without, [], [], settings('on')).active, false);
});

test('unit: the messages as sent: Tool loaded. after each result that loaded tools; a reference to a missing tool becomes text', () => {
  const full = loadedConversation(['A', 'Gone']);
  const [, , results] = shapeMessages(full, new Set(['A']));
  assert.ok(results && results.role === 'user' && Array.isArray(results.content));
  assert.deepEqual(results.content, [
    {
      type: 'tool_result',
      tool_use_id: 'ts1',
      content: [
        { type: 'tool_reference', tool_name: 'A' },
        { type: 'text', text: 'Tool Gone is not available in this request.' },
      ],
    },
    { type: 'text', text: TOOL_LOADED_TEXT },
  ]);
  assert.deepEqual(shapeMessages(full.slice(0, 2), new Set()), full.slice(0, 2), 'untouched without references');
});

test('unit: the cache breakpoint goes on the last tool sent whole, not on a deferred one', () => {
  const shaped = applyCacheBreakpoints({
    tools: [
      { name: 'Read', defer_loading: false },
      { name: 'X', defer_loading: true },
    ],
    messages: [{ role: 'user', content: 'hi' }],
  });
  assert.deepEqual(shaped.tools[0], { name: 'Read', defer_loading: false, cache_control: { type: 'ephemeral' } });
  assert.deepEqual(shaped.tools[1], { name: 'X', defer_loading: true });
});

test('unit: ToolSearch through the pipeline: tool_reference blocks for the deferred tools of the pool, no permission asked', async () => {
  const cwd = await tempDir();
  const mk = (name: string, description: string, shouldDefer: boolean) =>
    buildTool({
      name,
      inputSchema: z.object({}),
      ...(shouldDefer ? { shouldDefer: true } : {}),
      prompt: () => description,
      async call() {
        return { data: 'ok' };
      },
      mapToolResultToToolResultBlockParam: (d: string, id: string) => ({
        type: 'tool_result' as const,
        tool_use_id: id,
        content: d,
      }),
    });
  const tools = [
    ToolSearchTool,
    mk('Echo', 'Echoes its input', false),
    mk('mcp__cal__create_event', 'Creates a calendar event', true),
    mk('mcp__cal__list_events', 'Lists calendar events', true),
    mk('mcp__mail__send', 'Sends an email', true),
  ];
  const env = makeEnv(cwd, { tools, mode: 'default' });
  const k = await runToolPipeline(use('ToolSearch', { query: 'calendar event' }), env);
  assert.equal(k.status, 'ok');
  assert.deepEqual(k.result!.content, [
    { type: 'tool_reference', tool_name: 'mcp__cal__create_event' },
    { type: 'tool_reference', tool_name: 'mcp__cal__list_events' },
  ]);
  const s = await runToolPipeline(use('ToolSearch', { query: 'select:mcp__mail__send', max_results: 1 }), env);
  assert.deepEqual(s.result!.content, [{ type: 'tool_reference', tool_name: 'mcp__mail__send' }]);
  const none = await runToolPipeline(use('ToolSearch', { query: 'echo' }), env);
  assert.deepEqual(none.result!.content, [{ type: 'tool_reference', tool_name: 'Echo' }], 'a name finds any tool');
  const miss = await runToolPipeline(use('ToolSearch', { query: 'weather forecast' }), env);
  assert.equal(miss.status, 'ok');
  assert.equal(miss.result!.content, 'No matching deferred tools found');
  assert.ok(!miss.result!.is_error);
  const bad = await runToolPipeline(use('ToolSearch', { max_results: 3 }), env);
  assert.equal(bad.status, 'error');
  assert.equal(bad.result!.is_error, true);
});

test('unit: ENABLE_TOOL_SEARCH and the session input: default auto with ToolSearch in the default tools; off drops it; bad values are refused', () => {
  assert.deepEqual(toolSearchFromEnv(undefined), { toolSearch: 'auto' });
  assert.deepEqual(toolSearchFromEnv('true'), { toolSearch: 'on' });
  assert.deepEqual(toolSearchFromEnv('0'), { toolSearch: 'off' });
  assert.deepEqual(toolSearchFromEnv('auto:25'), { toolSearch: 'auto', toolSearchPct: 25 });
  assert.deepEqual(toolSearchFromEnv('auto:0'), { toolSearch: 'on' });
  assert.deepEqual(toolSearchFromEnv('auto:100'), { toolSearch: 'off' });
  assert.throws(() => toolSearchFromEnv('sometimes'), /ENABLE_TOOL_SEARCH.*true, false, auto or auto:N/);
  const saved = process.env.ENABLE_TOOL_SEARCH;
  try {
    delete process.env.ENABLE_TOOL_SEARCH;
    const dflt = sessionInput({ prompt: 'x', cwd: '/tmp' });
    assert.deepEqual(dflt.tools, [...BUILTIN_TOOL_NAMES, 'ToolSearch']);
    assert.equal(dflt.contextManagement?.toolSearch, 'auto');
    process.env.ENABLE_TOOL_SEARCH = 'false';
    const off = sessionInput({ prompt: 'x', cwd: '/tmp' });
    assert.deepEqual(off.tools, BUILTIN_TOOL_NAMES);
    assert.equal(off.contextManagement?.toolSearch, 'off');
    const explicit = sessionInput({ prompt: 'x', cwd: '/tmp', contextManagement: { toolSearch: 'on' } });
    assert.equal(explicit.contextManagement?.toolSearch, 'on', 'an explicit option beats the env var');
    assert.ok(explicit.tools.includes('ToolSearch'));
  } finally {
    if (saved === undefined) delete process.env.ENABLE_TOOL_SEARCH;
    else process.env.ENABLE_TOOL_SEARCH = saved;
  }
  const problems = sessionInputProblems({
    ...sessionInput({ prompt: 'x', cwd: '/tmp' }),
    contextManagement: { toolSearch: 'maybe', toolSearchPct: 300 },
  });
  assert.ok(problems.some((p) => /toolSearch must be/.test(p)));
  assert.ok(problems.some((p) => /toolSearchPct must be/.test(p)));
});

test('unit: the fake Messages API checks tool_reference blocks and counts deferred tools only once referenced', async () => {
  const server = await startFakeAnthropic();
  try {
    server.script(() => textResponse('ok'));
    const client = fakeClient(server);
    const big = { type: 'object', properties: { q: { type: 'string', description: 'x'.repeat(4000) } } };
    const base = {
      model: 'claude-test',
      max_tokens: 10,
      tools: [
        { name: 'Read', description: 'r', input_schema: { type: 'object' as const } },
        { name: 'mcp__s__big', description: 'big', input_schema: big, defer_loading: true },
      ],
    };
    const plain = await client.messages.create({ ...base, messages: [{ role: 'user', content: 'hi' }] } as never);
    const withRef = await client.messages.create({
      ...base,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'ToolSearch', input: {} }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              content: [{ type: 'tool_reference', tool_name: 'mcp__s__big' }],
            },
          ],
        },
      ],
    } as never);
    assert.ok(
      plain.usage.input_tokens < 100,
      `the unreferenced deferred tool is not counted (${plain.usage.input_tokens})`,
    );
    assert.ok(withRef.usage.input_tokens > 1000, `the referenced one is (${withRef.usage.input_tokens})`);
    await assert.rejects(
      client.messages.create({
        ...base,
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'ToolSearch', input: {} }] },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'tool_reference', tool_name: 'Nope' }] },
            ],
          },
        ],
      } as never),
      (e: { status?: number; message?: string }) =>
        e.status === 400 && /tool reference 'Nope' not found/.test(e.message ?? ''),
    );
    await assert.rejects(
      client.messages.create({
        model: 'claude-test',
        max_tokens: 10,
        tools: [{ name: 'X', description: 'x', input_schema: { type: 'object' }, defer_loading: true }],
        messages: [{ role: 'user', content: 'hi' }],
      } as never),
      (e: { status?: number }) => e.status === 400,
    );
  } finally {
    await server.close();
  }
});

test('unit: a schema error of a deferred tool the request did not load says how to load it (pipeline); nothing else does', async () => {
  const cwd = await tempDir();
  const Deferred = buildTool({
    name: 'mcp__cal__create_event',
    inputSchema: z.strictObject({ title: z.string(), at: z.number() }),
    shouldDefer: true,
    prompt: () => 'Creates a calendar event',
    async call() {
      return { data: 'ok' };
    },
    mapToolResultToToolResultBlockParam: (d: string, id: string) => ({
      type: 'tool_result' as const,
      tool_use_id: id,
      content: d,
    }),
  });
  const asked: string[] = [];
  const env = (notLoaded: boolean | undefined) =>
    makeEnv(cwd, {
      tools: [Deferred],
      mode: 'bypassPermissions',
      ...(notLoaded === undefined
        ? {}
        : {
            deferredNotLoaded: async (name: string) => {
              asked.push(name);
              return notLoaded;
            },
          }),
    });
  const bad = { title: 'standup', at: '9' };
  const hinted = await runToolPipeline(use('mcp__cal__create_event', bad), env(true));
  assert.equal(hinted.status, 'error');
  const text = String(hinted.result!.content);
  assert.match(
    text,
    /^<tool_use_error>InputValidationError: mcp__cal__create_event failed due to the following issue:\nThe parameter `at`/,
  );
  assert.ok(
    text.includes(
      "\n\nThis tool's schema was not sent to the API — it was not in the discovered-tool set derived from message history. ",
    ),
    text,
  );
  assert.ok(
    text.includes(
      'Load the tool first: call ToolSearch with query "select:mcp__cal__create_event", then retry this call.',
    ),
  );
  assert.ok(text.endsWith('</tool_use_error>'), 'the hint is inside the tags');
  const after = text.split("For reference, this tool's input schema is: ")[1]?.replace(/<\/tool_use_error>$/, '');
  const schema = JSON.parse(after ?? 'null') as {
    properties?: Record<string, unknown>;
  };
  assert.deepEqual(Object.keys(schema.properties ?? {}), ['title', 'at'], 'the tool schema, whole');
  assert.deepEqual(asked, ['mcp__cal__create_event']);
  // Loaded (or no tool search), no answer, a valid input: no hint, and a valid call does not ask.
  for (const e of [env(false), env(undefined)]) {
    const plain = await runToolPipeline(use('mcp__cal__create_event', bad), e);
    assert.equal(plain.status, 'error');
    assert.ok(!String(plain.result!.content).includes('select:'), String(plain.result!.content));
  }
  asked.length = 0;
  const ok = await runToolPipeline(use('mcp__cal__create_event', { title: 'standup', at: 9 }), env(true));
  assert.equal(ok.status, 'ok');
  assert.deepEqual(asked, [], 'asked only when the input fails the schema');
  // A failing question leaves the schema error alone.
  const failing = makeEnv(cwd, {
    tools: [Deferred],
    mode: 'bypassPermissions',
    deferredNotLoaded: async () => {
      throw new Error('store down');
    },
  });
  const alone = await runToolPipeline(use('mcp__cal__create_event', bad), failing);
  assert.equal(alone.status, 'error');
  assert.ok(!String(alone.result!.content).includes('select:'));
});

test('unit: the model call records what a deferring request carried; a tool call finds it by its message node', async () => {
  const transcripts = new TranscriptStore(new LocalBlobStore(await tempDir()));
  const sent = await transcripts.append(null, [{ role: 'user', content: 'hi' }]);
  const answer = await transcripts.append(sent, [
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'WebFetch', input: {} }] },
  ]);
  assert.ok(sent && answer);
  // No record (a request made without deferring, or before records existed): never a hint.
  assert.equal(await deferredNotLoaded(transcripts, answer, 'WebFetch'), false);
  // A request without the placeholder deferred nothing: nothing recorded.
  await recordOfferedTools(transcripts, sent, [{ name: 'Read' }, { name: 'WebFetch' }]);
  assert.equal(await deferredNotLoaded(transcripts, answer, 'WebFetch'), false);
  await recordOfferedTools(transcripts, sent, [
    { name: 'Read' },
    { name: 'ToolSearch' },
    { name: 'DeferredToolPlaceholder', defer_loading: true },
    { name: 'CronList', defer_loading: true },
  ]);
  assert.equal(await deferredNotLoaded(transcripts, answer, 'WebFetch'), true, 'deferred, not loaded');
  assert.equal(await deferredNotLoaded(transcripts, answer, 'CronList'), false, 'loaded');
  assert.equal(await deferredNotLoaded(transcripts, answer, 'Read'), false, 'sent up front');
  // A tool_use block handed over while streaming is a node of its own after the same request.
  const streamed = await transcripts.append(sent, [
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'WebFetch', input: { url: 5 } }] },
  ]);
  assert.equal(await deferredNotLoaded(transcripts, streamed as string, 'WebFetch'), true);
});
