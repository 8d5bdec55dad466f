// unit: agent definition files (frontmatter, loud errors naming file and key), loading order,
// the child's tool subset, and the Agent tool's pre/post pipeline phases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { restrictMcpTools } from '../../src/mcp/names';
import {
  AgentDefinitionError,
  BUILT_IN_AGENTS,
  disallowedMcpRules,
  EXPLORE_AGENT,
  PLAN_AGENT,
  GENERAL_PURPOSE_AGENT,
  loadAgentDefinitions,
  parseAgentDefinition,
  resolveAgentModel,
  subagentTools,
} from '../../src/agents/definitions';
import { initialContext } from '../../src/core/context';
import { AGENT_TOOL_NAMES, childSystemPrompt, subagentSessionId } from '../../src/core/subagents';
import { runToolPipeline } from '../../src/toolCall/pipeline/toolPipeline';
import { AgentTool } from '../../src/tools/agent';
import Anthropic from '@anthropic-ai/sdk';
import { lastToolResults, startFakeAnthropic, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { runLocalSession } from '../../src/inprocess/runSession';

const F = '/p/.claude/agents/reviewer.md';

test('unit: an agent file: name, description, tools (comma list), model, body = system prompt', () => {
  const d = parseAgentDefinition(
    F,
    '---\nname: reviewer\ndescription: Reviews diffs. Use after edits.\ntools: Read, Grep, Glob\nmodel: haiku\n---\nYou review code.\n\nBe terse.\n',
  );
  assert.deepEqual(d, {
    name: 'reviewer',
    description: 'Reviews diffs. Use after edits.',
    tools: ['Read', 'Grep', 'Glob'],
    model: 'haiku',
    systemPrompt: 'You review code.\n\nBe terse.',
    source: F,
  });
});

test('unit: agent file variants: YAML lists, quoted values, block scalars, "*" and inherit, maxTurns, color', () => {
  const a = parseAgentDefinition(
    F,
    '---\nname: "a-1"\ndescription: >\n  folded\n  text\ntools:\n  - Read\n  - Bash\nmodel: inherit\nmaxTurns: 3\ncolor: blue\n---\nbody',
  );
  assert.deepEqual(
    [a.name, a.description, a.tools, a.model, a.maxTurns],
    ['a-1', 'folded text', ['Read', 'Bash'], undefined, 3],
  );
  const b = parseAgentDefinition(
    F,
    "---\nname: b\ndescription: 'it''s'\ntools: [Read, Grep]\ndisallowedTools: Bash\n---\nbody",
  );
  assert.deepEqual([b.description, b.tools, b.disallowedTools], ["it's", ['Read', 'Grep'], ['Bash']]);
  const c = parseAgentDefinition(F, '---\nname: c\ndescription: d\ntools: "*"\n---\nbody');
  assert.equal(c.tools, undefined, '"*" means every tool of the parent');
});

test('unit: odd agent files the reference accepts work: CRLF, names with spaces, model aliases in any case and other ids, an empty body, colons in a plain description', () => {
  const crlf = parseAgentDefinition(
    F,
    '---\r\nname: crlf\r\ndescription: a CRLF file\r\ntools: Read\r\n---\r\nYou are I.\r\n',
  );
  assert.deepEqual(
    [crlf.name, crlf.description, crlf.tools, crlf.systemPrompt],
    ['crlf', 'a CRLF file', ['Read'], 'You are I.'],
  );
  assert.equal(parseAgentDefinition(F, '---\nname: Code Reviewer\ndescription: d\n---\nb').name, 'Code Reviewer');
  assert.equal(parseAgentDefinition(F, '---\nname: x\ndescription: d\nmodel: Sonnet\n---\nb').model, 'sonnet');
  assert.equal(parseAgentDefinition(F, '---\nname: x\ndescription: d\nmodel: INHERIT\n---\nb').model, undefined);
  assert.equal(
    parseAgentDefinition(F, '---\nname: x\ndescription: d\nmodel: my-custom-model\n---\nb').model,
    'my-custom-model',
  );
  assert.equal(
    parseAgentDefinition(F, '---\nname: x\ndescription: d\nmodel: us.anthropic.claude-sonnet-4-5-20250929-v1:0\n---\nb')
      .model,
    'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
  );
  const empty = parseAgentDefinition(F, '---\nname: x\ndescription: d\n---\n');
  assert.equal(empty.systemPrompt, '');
  assert.equal(childSystemPrompt(empty.systemPrompt, '/w'), 'The working directory is /w.');
  assert.equal(childSystemPrompt('Be brief.', '/w'), 'Be brief.\n\nThe working directory is /w.');
  const colon = parseAgentDefinition(
    F,
    '---\nname: o\ndescription: Use this agent: when reviewing. Examples: <example>user: hi</example>\n---\nb',
  );
  assert.equal(colon.description, 'Use this agent: when reviewing. Examples: <example>user: hi</example>');
  assert.equal(
    parseAgentDefinition(F, '---\nname: p\ndescription: "first\\nsecond"\n---\nb').description,
    'first\nsecond',
  );
  assert.equal(
    parseAgentDefinition(F, '---\nname: f\ndescription: |\n  line one\n  line two\n---\nb').description,
    'line one\nline two',
  );
});

test('unit: malformed agent files fail loudly, naming the file and the key', () => {
  const bad: Array<[string, RegExp]> = [
    ['---\nname: x\ndescription: d\nbogus: 1\n---\nb', /reviewer\.md: unknown frontmatter key "bogus"/],
    [
      '---\nname: x\ndescription: d\npermissionMode: plan\n---\nb',
      /reviewer\.md: frontmatter key "permissionMode" is not supported/,
    ],
    ['---\ndescription: d\n---\nb', /reviewer\.md: frontmatter key "name" is required/],
    ['---\nname: x\n---\nb', /"description" is required/],
    ['name: x\n', /must start with a "---" frontmatter block/],
    ['---\nname: x\ndescription: d\n', /not closed/],
    ['---\nname: "two\\nlines"\ndescription: d\n---\nb', /key "name"/],
    ['---\nname: x\ndescription: d\nmodel: "claude x"\n---\nb', /key "model": "claude x"/],
    ['---\nname: x\ndescription: d\nmaxTurns: zero\n---\nb', /key "maxTurns"/],
    ['---\nname: x\ndescription: d\ntools: Bash(git:*)\n---\nb', /key "tools"/],
    ['---\nname: x\nname: y\ndescription: d\n---\nb', /key "name" appears twice/],
    ['---\nname: x\ndescription: d\njust text\n---\nb', /line 4: expected "key: value"/],
  ];
  for (const [text, re] of bad) {
    assert.throws(
      () => parseAgentDefinition(F, text),
      (e: unknown) => e instanceof AgentDefinitionError && re.test(e.message),
      text,
    );
  }
});

test('unit: loading: general-purpose, then the user dir, then the project dir (project wins); a bad file names itself', async () => {
  const root = await mkdtemp(join(tmpdir(), 'agents-'));
  const home = join(root, 'home');
  const proj = join(root, 'proj');
  await mkdir(join(home, 'agents'), { recursive: true });
  await mkdir(join(proj, '.claude', 'agents'), { recursive: true });
  await writeFile(join(home, 'agents', 'mine.md'), '---\nname: mine\ndescription: user agent\n---\nuser body');
  await writeFile(join(home, 'agents', 'shared.md'), '---\nname: shared\ndescription: user version\n---\nuser body');
  await writeFile(
    join(proj, '.claude', 'agents', 'shared.md'),
    '---\nname: shared\ndescription: project version\n---\nproject body',
  );
  await writeFile(join(proj, '.claude', 'agents', 'notes.txt'), 'not an agent');
  // Subfolders are read too (the reference lists agents/team/*.md).
  await mkdir(join(proj, '.claude', 'agents', 'team', 'deep'), { recursive: true });
  await writeFile(
    join(proj, '.claude', 'agents', 'team', 'deep', 'nested.md'),
    '---\nname: nested\ndescription: in a subfolder\n---\nnested body',
  );
  const defs = await loadAgentDefinitions(proj, home);
  assert.deepEqual(
    defs.map((d) => [d.name, d.description]),
    [
      ['general-purpose', GENERAL_PURPOSE_AGENT.description],
      ['Explore', EXPLORE_AGENT.description],
      ['Plan', PLAN_AGENT.description],
      ['mine', 'user agent'],
      ['shared', 'project version'],
      ['nested', 'in a subfolder'],
    ],
  );
  assert.deepEqual(await loadAgentDefinitions(join(root, 'none'), join(root, 'nohome')), [...BUILT_IN_AGENTS]);
  await writeFile(
    join(proj, '.claude', 'agents', 'broken.md'),
    '---\nname: broken\ndescription: d\ntools: Read\nhooks: x\n---\nb',
  );
  await assert.rejects(loadAgentDefinitions(proj, home), /broken\.md: frontmatter key "hooks"/);
});

test('unit: the child tool subset never includes Agent; models resolve; the child id derives from the tool_use_id', () => {
  const parent = ['Read', 'Grep', 'Bash', 'Agent'];
  assert.deepEqual(subagentTools(GENERAL_PURPOSE_AGENT, parent, AGENT_TOOL_NAMES), {
    tools: ['Read', 'Grep', 'Bash'],
    dropped: [],
  });
  const r = parseAgentDefinition(
    F,
    '---\nname: r\ndescription: d\ntools: Read, Agent, WebFetch\ndisallowedTools: Grep\n---\nb',
  );
  assert.deepEqual(subagentTools(r, parent, AGENT_TOOL_NAMES), { tools: ['Read'], dropped: ['Agent', 'WebFetch'] });
  // MCP names stay: they restrict the child to those MCP tools; disallowed MCP names become deny rules.
  const m = parseAgentDefinition(
    F,
    '---\nname: m\ndescription: d\ntools: Read, mcp__srv__echo, mcp__other\ndisallowedTools: mcp__srv__env\n---\nb',
  );
  assert.deepEqual(subagentTools(m, parent, AGENT_TOOL_NAMES), {
    tools: ['Read', 'mcp__srv__echo', 'mcp__other'],
    dropped: [],
  });
  assert.deepEqual(disallowedMcpRules(m), ['mcp__srv__env']);
  const listed = [
    { name: 'mcp__srv__echo' },
    { name: 'mcp__srv__env' },
    { name: 'mcp__other__a' },
    { name: 'mcp__third__b' },
  ];
  assert.deepEqual(
    restrictMcpTools(['Read', 'mcp__srv__echo', 'mcp__other'], listed).map((t) => t.name),
    ['mcp__srv__echo', 'mcp__other__a'],
  );
  assert.deepEqual(
    restrictMcpTools(['Read', 'mcp__third__*'], listed).map((t) => t.name),
    ['mcp__third__b'],
  );
  assert.equal(restrictMcpTools(['Read', 'Bash'], listed).length, 4, 'no MCP name listed: every MCP tool');
  assert.equal(resolveAgentModel(undefined, 'claude-parent'), 'claude-parent');
  assert.equal(resolveAgentModel('haiku', 'x', { ANTHROPIC_DEFAULT_HAIKU_MODEL: 'claude-h' }), 'claude-h');
  assert.equal(resolveAgentModel('claude-custom-1', 'x'), 'claude-custom-1');
  // The ids the reference 2.1.197 sends for its aliases (captured from its requests).
  assert.equal(resolveAgentModel('sonnet', 'x', {}), 'claude-sonnet-5');
  assert.equal(resolveAgentModel('opus', 'x', {}), 'claude-opus-4-8');
  assert.equal(resolveAgentModel('haiku', 'x', {}), 'claude-haiku-4-5-20251001');
  assert.equal(subagentSessionId('s1', 'toolu_9'), 's1/agent-toolu_9');
});

test('unit: the Agent call in two pipeline phases: pre stops at "ready" after the checks, post maps the output and runs PostToolUse hooks', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agent-pipe-'));
  const env = {
    pool: [AgentTool],
    sessionId: 's',
    agent: initialContext(dir, []),
    permission: { mode: 'default' as const, rules: { allow: [], ask: [], deny: [] }, workingDirectories: [dir] },
    agents: [GENERAL_PURPOSE_AGENT],
    hooks: {
      PostToolUse: [{ matcher: 'Agent', hooks: [{ type: 'command' as const, command: 'echo post-ran >&2; exit 2' }] }],
    },
  };
  const block = {
    type: 'tool_use' as const,
    id: 'toolu_1',
    name: 'Task',
    input: { description: 'look', prompt: 'find it' },
  };
  const pre = await runToolPipeline(block, { ...env, phase: { kind: 'pre' } });
  assert.equal(pre.status, 'ready');
  assert.deepEqual(pre.ready?.input, { description: 'look', prompt: 'find it' });
  assert.equal(pre.permission?.behavior, 'allow');
  const unknown = await runToolPipeline(
    { ...block, input: { description: 'x', prompt: 'y', subagent_type: 'nope' } },
    { ...env, phase: { kind: 'pre' } },
  );
  assert.equal(unknown.status, 'error');
  assert.match(String(unknown.result?.content), /Agent type 'nope' not found\. Available agents: general-purpose/);
  const extra = await runToolPipeline(
    { ...block, input: { description: 'x', prompt: 'y', colour: 'red' } },
    { ...env, phase: { kind: 'pre' } },
  );
  assert.equal(extra.failure?.stage, 'schema');
  // isolation: "remote" is refused everywhere; "worktree" where the scheduler runs no durable session (this bare pipeline call, the in-process runner).
  const remote = await runToolPipeline(
    { ...block, input: { description: 'x', prompt: 'y', isolation: 'remote' } },
    { ...env, phase: { kind: 'pre' } },
  );
  assert.equal(remote.failure?.stage, 'validate');
  assert.match(String(remote.result?.content), /isolation "remote" is not available in durable-agent/);
  const local = await runToolPipeline(
    { ...block, input: { description: 'x', prompt: 'y', isolation: 'worktree' } },
    { ...env, phase: { kind: 'pre' } },
  );
  assert.equal(local.failure?.stage, 'validate');
  assert.match(String(local.result?.content), /isolation "worktree" needs a durable session/);
  const output = {
    agentType: 'general-purpose',
    sessionId: 's/agent-toolu_1',
    status: 'completed',
    endReason: 'done',
    text: 'found it in a.ts',
    turns: 2,
  };
  const post = await runToolPipeline(block, { ...env, phase: { kind: 'post', resume: pre.ready!, output } });
  assert.equal(post.status, 'ok');
  assert.match(JSON.stringify(post.result?.content), /found it in a\.ts/);
  assert.match(JSON.stringify(post.result?.content), /PostToolUse hook feedback \(blocking\): post-ran/);
  const failed = await runToolPipeline(block, {
    ...env,
    phase: {
      kind: 'post',
      resume: pre.ready!,
      output: { ...output, status: 'max_turns', endReason: 'reached the limit of 1 turns' },
    },
  });
  assert.equal(failed.status, 'error');
  assert.match(String(failed.result?.content), /did not finish \(max_turns: reached the limit of 1 turns\)/);
  // Without a scheduler that runs subagents, call() says so (an is_error result, not a hang).
  const direct = await runToolPipeline(block, env);
  assert.equal(direct.status, 'error');
  assert.match(String(direct.result?.content), /cannot start subagents/);
});

test('unit: the in-process runner runs subagents too: two in parallel, their final texts as tool_results, an agent file from .claude/agents', async () => {
  const fake = await startFakeAnthropic();
  try {
    const work = await mkdtemp(join(tmpdir(), 'agent-local-'));
    const store = await mkdtemp(join(tmpdir(), 'agent-local-store-'));
    await mkdir(join(work, '.claude', 'agents'), { recursive: true });
    await writeFile(
      join(work, '.claude', 'agents', 'lister.md'),
      '---\nname: lister\ndescription: Lists things.\ntools: Glob\n---\nYou are MARKER-LISTER.\n',
    );
    let release!: () => void;
    const both = new Promise<void>((r) => (release = r));
    let firsts = 0;
    fake.script(async (req) => {
      const sys = JSON.stringify(req.system ?? '');
      const child = sys.includes('MARKER-LISTER')
        ? 'lister'
        : sys.includes('on behalf of another agent')
          ? 'general'
          : undefined;
      if (child) {
        if (++firsts === 2) release();
        await both; // parallel, or never
        return textResponse(`${child} says hi`);
      }
      if (req.messages.length === 1) {
        return toolUseResponse([
          {
            id: 'toolu_l1',
            name: 'Agent',
            input: { description: 'list', prompt: 'list files', subagent_type: 'lister', run_in_background: false },
          },
          {
            id: 'toolu_g1',
            name: 'Agent',
            input: { description: 'general', prompt: 'say hi', run_in_background: false },
          },
        ]);
      }
      return textResponse('done');
    });
    const result = await runLocalSession(
      {
        prompt: 'delegate',
        cwd: work,
        tools: ['Read', 'Glob', 'Agent'],
        permissionMode: 'default',
        model: { model: 'claude-test', maxTokens: 256 },
      },
      { storeDir: store, anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
    );
    assert.equal(result.status, 'completed', result.endReason);
    const parent = fake
      .messageRequests()
      .filter((r) => !/MARKER-LISTER|on behalf of another agent/.test(JSON.stringify(r.system ?? '')));
    const results = lastToolResults(parent[1]!);
    assert.deepEqual(
      results.map((r) => [
        r.tool_use_id,
        JSON.stringify(r.content).includes(r.tool_use_id === 'toolu_l1' ? 'lister says hi' : 'general says hi'),
      ]),
      [
        ['toolu_l1', true],
        ['toolu_g1', true],
      ],
    );
    const listerReq = fake.messageRequests().find((r) => JSON.stringify(r.system ?? '').includes('MARKER-LISTER'))!;
    assert.deepEqual(
      ((listerReq.tools ?? []) as Array<{ name: string }>).map((t) => t.name),
      ['Glob'],
    );
    assert.equal(result.records.find((r) => r.toolUseId === 'toolu_l1')?.summary, 'Agent lister: list');
  } finally {
    await fake.close();
  }
});

test('unit: the Agent result as the reference sends it: the final text, then <usage>subagent_tokens/tool_uses/duration_ms</usage>; PostToolUse gets the reference tool_response keys', async () => {
  const fake = await startFakeAnthropic();
  try {
    const work = await mkdtemp(join(tmpdir(), 'agent-usage-'));
    const store = await mkdtemp(join(tmpdir(), 'agent-usage-store-'));
    await writeFile(join(work, 'a.txt'), 'hello\n');
    const capture = join(work, 'post.json');
    fake.script((req) => {
      const child = JSON.stringify(req.system ?? '').includes('on behalf of another agent');
      if (child) {
        if (req.messages.length === 1)
          return toolUseResponse([{ id: 'toolu_c_read', name: 'Read', input: { file_path: join(work, 'a.txt') } }]);
        return textResponse('child done:\nline two');
      }
      if (req.messages.length === 1)
        return toolUseResponse([
          {
            id: 'toolu_a',
            name: 'Agent',
            input: { description: 'read it', prompt: 'read a.txt', run_in_background: false },
          },
        ]);
      return textResponse('done');
    });
    const result = await runLocalSession(
      {
        sessionId: 'usage-s1',
        prompt: 'delegate',
        cwd: work,
        tools: ['Read', 'Agent'],
        permissionMode: 'bypassPermissions',
        model: { model: 'claude-test', maxTokens: 256 },
        hooks: { PostToolUse: [{ matcher: 'Agent', hooks: [{ type: 'command', command: `cat > '${capture}'` }] }] },
      } as never,
      { storeDir: store, anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
    );
    assert.equal(result.status, 'completed', result.endReason);
    const parent = fake
      .messageRequests()
      .filter((r) => !JSON.stringify(r.system ?? '').includes('on behalf of another agent'));
    const [r] = lastToolResults(parent[1]!);
    const blocks = r!.content as Array<{ type: string; text: string }>;
    assert.equal(blocks.length, 2, JSON.stringify(blocks));
    assert.equal(blocks[0]!.text, 'child done:\nline two');
    assert.match(blocks[1]!.text, /^<usage>subagent_tokens: [1-9]\d*\ntool_uses: 1\nduration_ms: \d+<\/usage>$/);
    const post = JSON.parse(await readFile(capture, 'utf8')) as { tool_response: Record<string, unknown> };
    const tr = post.tool_response;
    assert.deepEqual(
      [tr.status, tr.prompt, tr.agentType, tr.content, tr.totalToolUseCount, tr.resolvedModel],
      [
        'completed',
        'read a.txt',
        'general-purpose',
        [{ type: 'text', text: 'child done:\nline two' }],
        1,
        'claude-test',
      ],
    );
    assert.match(String(tr.agentId), /agent-toolu_a$/);
    assert.equal(typeof tr.totalTokens, 'number');
    assert.equal(typeof tr.totalDurationMs, 'number');
  } finally {
    await fake.close();
  }
});

test('unit: deny rules Agent(name) / Task(name) turn one agent off: hidden from the Agent tool listing, a call naming it is denied (bypassPermissions too)', async () => {
  const fake = await startFakeAnthropic();
  try {
    const work = await mkdtemp(join(tmpdir(), 'agent-deny-'));
    const store = await mkdtemp(join(tmpdir(), 'agent-deny-store-'));
    await mkdir(join(work, '.claude', 'agents'), { recursive: true });
    for (const n of ['reviewer', 'helper', 'writer'])
      await writeFile(
        join(work, '.claude', 'agents', `${n}.md`),
        `---\nname: ${n}\ndescription: The ${n}.\n---\nYou are MARKER-${n}.\n`,
      );
    fake.script((req) => {
      if (/MARKER-/.test(JSON.stringify(req.system ?? ''))) return textResponse('child ran');
      if (req.messages.length === 1) {
        return toolUseResponse([
          {
            id: 'toolu_r',
            name: 'Agent',
            input: { description: 'r', prompt: 'p', subagent_type: 'reviewer', run_in_background: false },
          },
          { id: 'toolu_h', name: 'Task', input: { description: 'h', prompt: 'p', subagent_type: 'helper' } },
          { id: 'toolu_w', name: 'Agent', input: { description: 'w', prompt: 'p', subagent_type: 'writer' } },
        ]);
      }
      return textResponse('done');
    });
    const result = await runLocalSession(
      {
        prompt: 'delegate',
        cwd: work,
        tools: ['Read', 'Agent'],
        permissionMode: 'bypassPermissions',
        rules: { allow: [], ask: [], deny: ['Agent(reviewer)', 'Task(helper)'] },
        model: { model: 'claude-test', maxTokens: 256 },
      },
      { storeDir: store, anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
    );
    assert.equal(result.status, 'completed', result.endReason);
    const parent = fake.messageRequests().filter((r) => !/MARKER-/.test(JSON.stringify(r.system ?? '')));
    const listing =
      ((parent[0]!.tools ?? []) as Array<{ name: string; description?: string }>).find((t) => t.name === 'Agent')
        ?.description ?? '';
    assert.match(listing, /- writer: The writer\./);
    assert.doesNotMatch(listing, /- reviewer:|- helper:/);
    const results = lastToolResults(parent[1]!);
    assert.deepEqual(
      results.map((r) => [r.tool_use_id, r.is_error === true]),
      [
        ['toolu_r', true],
        ['toolu_h', true],
        ['toolu_w', false],
      ],
    );
    assert.match(JSON.stringify(results[0]!.content), /denied by the rule Agent\(reviewer\)/);
    assert.match(JSON.stringify(results[1]!.content), /denied by the rule Task\(helper\)/);
    assert.equal(
      fake.messageRequests().filter((r) => /MARKER-(reviewer|helper)/.test(JSON.stringify(r.system ?? ''))).length,
      0,
      'no denied child ran',
    );
  } finally {
    await fake.close();
  }
});

test("unit: in-process, a subagent started after a skill with `model` runs on the skill's model (as the reference); an agent's own model still wins", async () => {
  const fake = await startFakeAnthropic();
  try {
    const work = await mkdtemp(join(tmpdir(), 'agent-skill-model-'));
    const store = await mkdtemp(join(tmpdir(), 'agent-skill-model-store-'));
    await mkdir(join(work, '.claude', 'skills', 'fast'), { recursive: true });
    await writeFile(
      join(work, '.claude', 'skills', 'fast', 'SKILL.md'),
      '---\ndescription: d\nmodel: claude-skill-model\n---\nGo fast.\n',
    );
    await mkdir(join(work, '.claude', 'agents'), { recursive: true });
    await writeFile(
      join(work, '.claude', 'agents', 'pinned.md'),
      '---\nname: pinned\ndescription: Pinned model.\nmodel: claude-agent-model\n---\nYou are MARKER-PINNED.\n',
    );
    let parentTurn = 0;
    fake.script((req) => {
      const sys = JSON.stringify(req.system ?? '');
      if (sys.includes('MARKER-PINNED') || sys.includes('on behalf of another agent'))
        return textResponse('child done');
      parentTurn++;
      if (parentTurn === 1) return toolUseResponse([{ id: 'toolu_sk', name: 'Skill', input: { skill: 'fast' } }]);
      if (parentTurn === 2)
        return toolUseResponse([
          { id: 'toolu_gp', name: 'Agent', input: { description: 'gp', prompt: 'hi' } },
          { id: 'toolu_pin', name: 'Agent', input: { description: 'pin', prompt: 'hi', subagent_type: 'pinned' } },
        ]);
      return textResponse('done');
    });
    const result = await runLocalSession(
      {
        prompt: 'go',
        cwd: work,
        tools: ['Read', 'Skill', 'Agent'],
        permissionMode: 'bypassPermissions',
        model: { model: 'claude-test', maxTokens: 256 },
      },
      { storeDir: store, anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
    );
    assert.equal(result.status, 'completed', result.endReason);
    const modelOf = (marker: RegExp): string | undefined =>
      (
        fake.messageRequests().find((r) => marker.test(JSON.stringify(r.system ?? ''))) as
          { model?: string } | undefined
      )?.model;
    assert.equal(modelOf(/on behalf of another agent/), 'claude-skill-model');
    assert.equal(modelOf(/MARKER-PINNED/), 'claude-agent-model');
  } finally {
    await fake.close();
  }
});
