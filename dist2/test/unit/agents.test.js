"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: agent definition files (frontmatter, loud errors naming file and key), loading order,
// the child's tool subset, and the Agent tool's pre/post pipeline phases.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const names_1 = require("../../src/mcp/names");
const definitions_1 = require("../../src/agents/definitions");
const context_1 = require("../../src/engine/context");
const subagents_1 = require("../../src/engine/subagents");
const toolPipeline_1 = require("../../src/pipeline/toolPipeline");
const agent_1 = require("../../src/tools/builtin/agent");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const runSession_1 = require("../../src/local/runSession");
const F = '/p/.claude/agents/reviewer.md';
(0, node_test_1.test)('unit: an agent file: name, description, tools (comma list), model, body = system prompt', () => {
    const d = (0, definitions_1.parseAgentDefinition)(F, '---\nname: reviewer\ndescription: Reviews diffs. Use after edits.\ntools: Read, Grep, Glob\nmodel: haiku\n---\nYou review code.\n\nBe terse.\n');
    strict_1.default.deepEqual(d, {
        name: 'reviewer',
        description: 'Reviews diffs. Use after edits.',
        tools: ['Read', 'Grep', 'Glob'],
        model: 'haiku',
        systemPrompt: 'You review code.\n\nBe terse.',
        source: F,
    });
});
(0, node_test_1.test)('unit: agent file variants: YAML lists, quoted values, block scalars, "*" and inherit, maxTurns, color', () => {
    const a = (0, definitions_1.parseAgentDefinition)(F, '---\nname: "a-1"\ndescription: >\n  folded\n  text\ntools:\n  - Read\n  - Bash\nmodel: inherit\nmaxTurns: 3\ncolor: blue\n---\nbody');
    strict_1.default.deepEqual([a.name, a.description, a.tools, a.model, a.maxTurns], ['a-1', 'folded text', ['Read', 'Bash'], undefined, 3]);
    const b = (0, definitions_1.parseAgentDefinition)(F, "---\nname: b\ndescription: 'it''s'\ntools: [Read, Grep]\ndisallowedTools: Bash\n---\nbody");
    strict_1.default.deepEqual([b.description, b.tools, b.disallowedTools], ["it's", ['Read', 'Grep'], ['Bash']]);
    const c = (0, definitions_1.parseAgentDefinition)(F, '---\nname: c\ndescription: d\ntools: "*"\n---\nbody');
    strict_1.default.equal(c.tools, undefined, '"*" means every tool of the parent');
});
(0, node_test_1.test)('unit: odd agent files the reference accepts work: CRLF, names with spaces, model aliases in any case and other ids, an empty body, colons in a plain description', () => {
    const crlf = (0, definitions_1.parseAgentDefinition)(F, '---\r\nname: crlf\r\ndescription: a CRLF file\r\ntools: Read\r\n---\r\nYou are I.\r\n');
    strict_1.default.deepEqual([crlf.name, crlf.description, crlf.tools, crlf.systemPrompt], ['crlf', 'a CRLF file', ['Read'], 'You are I.']);
    strict_1.default.equal((0, definitions_1.parseAgentDefinition)(F, '---\nname: Code Reviewer\ndescription: d\n---\nb').name, 'Code Reviewer');
    strict_1.default.equal((0, definitions_1.parseAgentDefinition)(F, '---\nname: x\ndescription: d\nmodel: Sonnet\n---\nb').model, 'sonnet');
    strict_1.default.equal((0, definitions_1.parseAgentDefinition)(F, '---\nname: x\ndescription: d\nmodel: INHERIT\n---\nb').model, undefined);
    strict_1.default.equal((0, definitions_1.parseAgentDefinition)(F, '---\nname: x\ndescription: d\nmodel: my-custom-model\n---\nb').model, 'my-custom-model');
    strict_1.default.equal((0, definitions_1.parseAgentDefinition)(F, '---\nname: x\ndescription: d\nmodel: us.anthropic.claude-sonnet-4-5-20250929-v1:0\n---\nb')
        .model, 'us.anthropic.claude-sonnet-4-5-20250929-v1:0');
    const empty = (0, definitions_1.parseAgentDefinition)(F, '---\nname: x\ndescription: d\n---\n');
    strict_1.default.equal(empty.systemPrompt, '');
    strict_1.default.equal((0, subagents_1.childSystemPrompt)(empty.systemPrompt, '/w'), 'The working directory is /w.');
    strict_1.default.equal((0, subagents_1.childSystemPrompt)('Be brief.', '/w'), 'Be brief.\n\nThe working directory is /w.');
    const colon = (0, definitions_1.parseAgentDefinition)(F, '---\nname: o\ndescription: Use this agent: when reviewing. Examples: <example>user: hi</example>\n---\nb');
    strict_1.default.equal(colon.description, 'Use this agent: when reviewing. Examples: <example>user: hi</example>');
    strict_1.default.equal((0, definitions_1.parseAgentDefinition)(F, '---\nname: p\ndescription: "first\\nsecond"\n---\nb').description, 'first\nsecond');
    strict_1.default.equal((0, definitions_1.parseAgentDefinition)(F, '---\nname: f\ndescription: |\n  line one\n  line two\n---\nb').description, 'line one\nline two');
});
(0, node_test_1.test)('unit: malformed agent files fail loudly, naming the file and the key', () => {
    const bad = [
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
        strict_1.default.throws(() => (0, definitions_1.parseAgentDefinition)(F, text), (e) => e instanceof definitions_1.AgentDefinitionError && re.test(e.message), text);
    }
});
(0, node_test_1.test)('unit: loading: general-purpose, then the user dir, then the project dir (project wins); a bad file names itself', async () => {
    const root = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'agents-'));
    const home = (0, node_path_1.join)(root, 'home');
    const proj = (0, node_path_1.join)(root, 'proj');
    await (0, promises_1.mkdir)((0, node_path_1.join)(home, 'agents'), { recursive: true });
    await (0, promises_1.mkdir)((0, node_path_1.join)(proj, '.claude', 'agents'), { recursive: true });
    await (0, promises_1.writeFile)((0, node_path_1.join)(home, 'agents', 'mine.md'), '---\nname: mine\ndescription: user agent\n---\nuser body');
    await (0, promises_1.writeFile)((0, node_path_1.join)(home, 'agents', 'shared.md'), '---\nname: shared\ndescription: user version\n---\nuser body');
    await (0, promises_1.writeFile)((0, node_path_1.join)(proj, '.claude', 'agents', 'shared.md'), '---\nname: shared\ndescription: project version\n---\nproject body');
    await (0, promises_1.writeFile)((0, node_path_1.join)(proj, '.claude', 'agents', 'notes.txt'), 'not an agent');
    // Subfolders are read too (the reference lists agents/team/*.md).
    await (0, promises_1.mkdir)((0, node_path_1.join)(proj, '.claude', 'agents', 'team', 'deep'), { recursive: true });
    await (0, promises_1.writeFile)((0, node_path_1.join)(proj, '.claude', 'agents', 'team', 'deep', 'nested.md'), '---\nname: nested\ndescription: in a subfolder\n---\nnested body');
    const defs = await (0, definitions_1.loadAgentDefinitions)(proj, home);
    strict_1.default.deepEqual(defs.map((d) => [d.name, d.description]), [
        ['general-purpose', definitions_1.GENERAL_PURPOSE_AGENT.description],
        ['Explore', definitions_1.EXPLORE_AGENT.description],
        ['Plan', definitions_1.PLAN_AGENT.description],
        ['mine', 'user agent'],
        ['shared', 'project version'],
        ['nested', 'in a subfolder'],
    ]);
    strict_1.default.deepEqual(await (0, definitions_1.loadAgentDefinitions)((0, node_path_1.join)(root, 'none'), (0, node_path_1.join)(root, 'nohome')), [...definitions_1.BUILT_IN_AGENTS]);
    await (0, promises_1.writeFile)((0, node_path_1.join)(proj, '.claude', 'agents', 'broken.md'), '---\nname: broken\ndescription: d\ntools: Read\nhooks: x\n---\nb');
    await strict_1.default.rejects((0, definitions_1.loadAgentDefinitions)(proj, home), /broken\.md: frontmatter key "hooks"/);
});
(0, node_test_1.test)('unit: the child tool subset never includes Agent; models resolve; the child id derives from the tool_use_id', () => {
    const parent = ['Read', 'Grep', 'Bash', 'Agent'];
    strict_1.default.deepEqual((0, definitions_1.subagentTools)(definitions_1.GENERAL_PURPOSE_AGENT, parent, subagents_1.AGENT_TOOL_NAMES), {
        tools: ['Read', 'Grep', 'Bash'],
        dropped: [],
    });
    const r = (0, definitions_1.parseAgentDefinition)(F, '---\nname: r\ndescription: d\ntools: Read, Agent, WebFetch\ndisallowedTools: Grep\n---\nb');
    strict_1.default.deepEqual((0, definitions_1.subagentTools)(r, parent, subagents_1.AGENT_TOOL_NAMES), { tools: ['Read'], dropped: ['Agent', 'WebFetch'] });
    // MCP names stay: they restrict the child to those MCP tools; disallowed MCP names become deny rules.
    const m = (0, definitions_1.parseAgentDefinition)(F, '---\nname: m\ndescription: d\ntools: Read, mcp__srv__echo, mcp__other\ndisallowedTools: mcp__srv__env\n---\nb');
    strict_1.default.deepEqual((0, definitions_1.subagentTools)(m, parent, subagents_1.AGENT_TOOL_NAMES), {
        tools: ['Read', 'mcp__srv__echo', 'mcp__other'],
        dropped: [],
    });
    strict_1.default.deepEqual((0, definitions_1.disallowedMcpRules)(m), ['mcp__srv__env']);
    const listed = [
        { name: 'mcp__srv__echo' },
        { name: 'mcp__srv__env' },
        { name: 'mcp__other__a' },
        { name: 'mcp__third__b' },
    ];
    strict_1.default.deepEqual((0, names_1.restrictMcpTools)(['Read', 'mcp__srv__echo', 'mcp__other'], listed).map((t) => t.name), ['mcp__srv__echo', 'mcp__other__a']);
    strict_1.default.deepEqual((0, names_1.restrictMcpTools)(['Read', 'mcp__third__*'], listed).map((t) => t.name), ['mcp__third__b']);
    strict_1.default.equal((0, names_1.restrictMcpTools)(['Read', 'Bash'], listed).length, 4, 'no MCP name listed: every MCP tool');
    strict_1.default.equal((0, definitions_1.resolveAgentModel)(undefined, 'claude-parent'), 'claude-parent');
    strict_1.default.equal((0, definitions_1.resolveAgentModel)('haiku', 'x', { ANTHROPIC_DEFAULT_HAIKU_MODEL: 'claude-h' }), 'claude-h');
    strict_1.default.equal((0, definitions_1.resolveAgentModel)('claude-custom-1', 'x'), 'claude-custom-1');
    // The ids the reference 2.1.197 sends for its aliases (captured from its requests).
    strict_1.default.equal((0, definitions_1.resolveAgentModel)('sonnet', 'x', {}), 'claude-sonnet-5');
    strict_1.default.equal((0, definitions_1.resolveAgentModel)('opus', 'x', {}), 'claude-opus-4-8');
    strict_1.default.equal((0, definitions_1.resolveAgentModel)('haiku', 'x', {}), 'claude-haiku-4-5-20251001');
    strict_1.default.equal((0, subagents_1.subagentSessionId)('s1', 'toolu_9'), 's1/agent-toolu_9');
});
(0, node_test_1.test)('unit: the Agent call in two pipeline phases: pre stops at "ready" after the checks, post maps the output and runs PostToolUse hooks', async () => {
    const dir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'agent-pipe-'));
    const env = {
        pool: [agent_1.AgentTool],
        sessionId: 's',
        agent: (0, context_1.initialContext)(dir, []),
        permission: { mode: 'default', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [dir] },
        agents: [definitions_1.GENERAL_PURPOSE_AGENT],
        hooks: {
            PostToolUse: [{ matcher: 'Agent', hooks: [{ type: 'command', command: 'echo post-ran >&2; exit 2' }] }],
        },
    };
    const block = {
        type: 'tool_use',
        id: 'toolu_1',
        name: 'Task',
        input: { description: 'look', prompt: 'find it' },
    };
    const pre = await (0, toolPipeline_1.runToolPipeline)(block, { ...env, phase: { kind: 'pre' } });
    strict_1.default.equal(pre.status, 'ready');
    strict_1.default.deepEqual(pre.ready?.input, { description: 'look', prompt: 'find it' });
    strict_1.default.equal(pre.permission?.behavior, 'allow');
    const unknown = await (0, toolPipeline_1.runToolPipeline)({ ...block, input: { description: 'x', prompt: 'y', subagent_type: 'nope' } }, { ...env, phase: { kind: 'pre' } });
    strict_1.default.equal(unknown.status, 'error');
    strict_1.default.match(String(unknown.result?.content), /Agent type 'nope' not found\. Available agents: general-purpose/);
    const extra = await (0, toolPipeline_1.runToolPipeline)({ ...block, input: { description: 'x', prompt: 'y', colour: 'red' } }, { ...env, phase: { kind: 'pre' } });
    strict_1.default.equal(extra.failure?.stage, 'schema');
    // isolation: "remote" is refused everywhere; "worktree" where the scheduler runs no durable session (this bare pipeline call, the in-process runner).
    const remote = await (0, toolPipeline_1.runToolPipeline)({ ...block, input: { description: 'x', prompt: 'y', isolation: 'remote' } }, { ...env, phase: { kind: 'pre' } });
    strict_1.default.equal(remote.failure?.stage, 'validate');
    strict_1.default.match(String(remote.result?.content), /isolation "remote" is not available in durable-agent/);
    const local = await (0, toolPipeline_1.runToolPipeline)({ ...block, input: { description: 'x', prompt: 'y', isolation: 'worktree' } }, { ...env, phase: { kind: 'pre' } });
    strict_1.default.equal(local.failure?.stage, 'validate');
    strict_1.default.match(String(local.result?.content), /isolation "worktree" needs a durable session/);
    const output = {
        agentType: 'general-purpose',
        sessionId: 's/agent-toolu_1',
        status: 'completed',
        endReason: 'done',
        text: 'found it in a.ts',
        turns: 2,
    };
    const post = await (0, toolPipeline_1.runToolPipeline)(block, { ...env, phase: { kind: 'post', resume: pre.ready, output } });
    strict_1.default.equal(post.status, 'ok');
    strict_1.default.match(JSON.stringify(post.result?.content), /found it in a\.ts/);
    strict_1.default.match(JSON.stringify(post.result?.content), /PostToolUse hook feedback \(blocking\): post-ran/);
    const failed = await (0, toolPipeline_1.runToolPipeline)(block, {
        ...env,
        phase: {
            kind: 'post',
            resume: pre.ready,
            output: { ...output, status: 'max_turns', endReason: 'reached the limit of 1 turns' },
        },
    });
    strict_1.default.equal(failed.status, 'error');
    strict_1.default.match(String(failed.result?.content), /did not finish \(max_turns: reached the limit of 1 turns\)/);
    // Without a scheduler that runs subagents, call() says so (an is_error result, not a hang).
    const direct = await (0, toolPipeline_1.runToolPipeline)(block, env);
    strict_1.default.equal(direct.status, 'error');
    strict_1.default.match(String(direct.result?.content), /cannot start subagents/);
});
(0, node_test_1.test)('unit: the in-process runner runs subagents too: two in parallel, their final texts as tool_results, an agent file from .claude/agents', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'agent-local-'));
        const store = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'agent-local-store-'));
        await (0, promises_1.mkdir)((0, node_path_1.join)(work, '.claude', 'agents'), { recursive: true });
        await (0, promises_1.writeFile)((0, node_path_1.join)(work, '.claude', 'agents', 'lister.md'), '---\nname: lister\ndescription: Lists things.\ntools: Glob\n---\nYou are MARKER-LISTER.\n');
        let release;
        const both = new Promise((r) => (release = r));
        let firsts = 0;
        fake.script(async (req) => {
            const sys = JSON.stringify(req.system ?? '');
            const child = sys.includes('MARKER-LISTER')
                ? 'lister'
                : sys.includes('on behalf of another agent')
                    ? 'general'
                    : undefined;
            if (child) {
                if (++firsts === 2)
                    release();
                await both; // parallel, or never
                return (0, fakeAnthropic_1.textResponse)(`${child} says hi`);
            }
            if (req.messages.length === 1) {
                return (0, fakeAnthropic_1.toolUseResponse)([
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
            return (0, fakeAnthropic_1.textResponse)('done');
        });
        const result = await (0, runSession_1.runLocalSession)({
            prompt: 'delegate',
            cwd: work,
            tools: ['Read', 'Glob', 'Agent'],
            permissionMode: 'default',
            model: { model: 'claude-test', maxTokens: 256 },
        }, { storeDir: store, anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) });
        strict_1.default.equal(result.status, 'completed', result.endReason);
        const parent = fake
            .messageRequests()
            .filter((r) => !/MARKER-LISTER|on behalf of another agent/.test(JSON.stringify(r.system ?? '')));
        const results = (0, fakeAnthropic_1.lastToolResults)(parent[1]);
        strict_1.default.deepEqual(results.map((r) => [
            r.tool_use_id,
            JSON.stringify(r.content).includes(r.tool_use_id === 'toolu_l1' ? 'lister says hi' : 'general says hi'),
        ]), [
            ['toolu_l1', true],
            ['toolu_g1', true],
        ]);
        const listerReq = fake.messageRequests().find((r) => JSON.stringify(r.system ?? '').includes('MARKER-LISTER'));
        strict_1.default.deepEqual((listerReq.tools ?? []).map((t) => t.name), ['Glob']);
        strict_1.default.equal(result.records.find((r) => r.toolUseId === 'toolu_l1')?.summary, 'Agent lister: list');
    }
    finally {
        await fake.close();
    }
});
(0, node_test_1.test)('unit: the Agent result as the reference sends it: the final text, then <usage>subagent_tokens/tool_uses/duration_ms</usage>; PostToolUse gets the reference tool_response keys', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'agent-usage-'));
        const store = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'agent-usage-store-'));
        await (0, promises_1.writeFile)((0, node_path_1.join)(work, 'a.txt'), 'hello\n');
        const capture = (0, node_path_1.join)(work, 'post.json');
        fake.script((req) => {
            const child = JSON.stringify(req.system ?? '').includes('on behalf of another agent');
            if (child) {
                if (req.messages.length === 1)
                    return (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_c_read', name: 'Read', input: { file_path: (0, node_path_1.join)(work, 'a.txt') } }]);
                return (0, fakeAnthropic_1.textResponse)('child done:\nline two');
            }
            if (req.messages.length === 1)
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_a',
                        name: 'Agent',
                        input: { description: 'read it', prompt: 'read a.txt', run_in_background: false },
                    },
                ]);
            return (0, fakeAnthropic_1.textResponse)('done');
        });
        const result = await (0, runSession_1.runLocalSession)({
            sessionId: 'usage-s1',
            prompt: 'delegate',
            cwd: work,
            tools: ['Read', 'Agent'],
            permissionMode: 'bypassPermissions',
            model: { model: 'claude-test', maxTokens: 256 },
            hooks: { PostToolUse: [{ matcher: 'Agent', hooks: [{ type: 'command', command: `cat > '${capture}'` }] }] },
        }, { storeDir: store, anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) });
        strict_1.default.equal(result.status, 'completed', result.endReason);
        const parent = fake
            .messageRequests()
            .filter((r) => !JSON.stringify(r.system ?? '').includes('on behalf of another agent'));
        const [r] = (0, fakeAnthropic_1.lastToolResults)(parent[1]);
        const blocks = r.content;
        strict_1.default.equal(blocks.length, 2, JSON.stringify(blocks));
        strict_1.default.equal(blocks[0].text, 'child done:\nline two');
        strict_1.default.match(blocks[1].text, /^<usage>subagent_tokens: [1-9]\d*\ntool_uses: 1\nduration_ms: \d+<\/usage>$/);
        const post = JSON.parse(await (0, promises_1.readFile)(capture, 'utf8'));
        const tr = post.tool_response;
        strict_1.default.deepEqual([tr.status, tr.prompt, tr.agentType, tr.content, tr.totalToolUseCount, tr.resolvedModel], [
            'completed',
            'read a.txt',
            'general-purpose',
            [{ type: 'text', text: 'child done:\nline two' }],
            1,
            'claude-test',
        ]);
        strict_1.default.match(String(tr.agentId), /agent-toolu_a$/);
        strict_1.default.equal(typeof tr.totalTokens, 'number');
        strict_1.default.equal(typeof tr.totalDurationMs, 'number');
    }
    finally {
        await fake.close();
    }
});
(0, node_test_1.test)('unit: deny rules Agent(name) / Task(name) turn one agent off: hidden from the Agent tool listing, a call naming it is denied (bypassPermissions too)', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'agent-deny-'));
        const store = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'agent-deny-store-'));
        await (0, promises_1.mkdir)((0, node_path_1.join)(work, '.claude', 'agents'), { recursive: true });
        for (const n of ['reviewer', 'helper', 'writer'])
            await (0, promises_1.writeFile)((0, node_path_1.join)(work, '.claude', 'agents', `${n}.md`), `---\nname: ${n}\ndescription: The ${n}.\n---\nYou are MARKER-${n}.\n`);
        fake.script((req) => {
            if (/MARKER-/.test(JSON.stringify(req.system ?? '')))
                return (0, fakeAnthropic_1.textResponse)('child ran');
            if (req.messages.length === 1) {
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_r',
                        name: 'Agent',
                        input: { description: 'r', prompt: 'p', subagent_type: 'reviewer', run_in_background: false },
                    },
                    { id: 'toolu_h', name: 'Task', input: { description: 'h', prompt: 'p', subagent_type: 'helper' } },
                    { id: 'toolu_w', name: 'Agent', input: { description: 'w', prompt: 'p', subagent_type: 'writer' } },
                ]);
            }
            return (0, fakeAnthropic_1.textResponse)('done');
        });
        const result = await (0, runSession_1.runLocalSession)({
            prompt: 'delegate',
            cwd: work,
            tools: ['Read', 'Agent'],
            permissionMode: 'bypassPermissions',
            rules: { allow: [], ask: [], deny: ['Agent(reviewer)', 'Task(helper)'] },
            model: { model: 'claude-test', maxTokens: 256 },
        }, { storeDir: store, anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) });
        strict_1.default.equal(result.status, 'completed', result.endReason);
        const parent = fake.messageRequests().filter((r) => !/MARKER-/.test(JSON.stringify(r.system ?? '')));
        const listing = (parent[0].tools ?? []).find((t) => t.name === 'Agent')
            ?.description ?? '';
        strict_1.default.match(listing, /- writer: The writer\./);
        strict_1.default.doesNotMatch(listing, /- reviewer:|- helper:/);
        const results = (0, fakeAnthropic_1.lastToolResults)(parent[1]);
        strict_1.default.deepEqual(results.map((r) => [r.tool_use_id, r.is_error === true]), [
            ['toolu_r', true],
            ['toolu_h', true],
            ['toolu_w', false],
        ]);
        strict_1.default.match(JSON.stringify(results[0].content), /denied by the rule Agent\(reviewer\)/);
        strict_1.default.match(JSON.stringify(results[1].content), /denied by the rule Task\(helper\)/);
        strict_1.default.equal(fake.messageRequests().filter((r) => /MARKER-(reviewer|helper)/.test(JSON.stringify(r.system ?? ''))).length, 0, 'no denied child ran');
    }
    finally {
        await fake.close();
    }
});
(0, node_test_1.test)("unit: in-process, a subagent started after a skill with `model` runs on the skill's model (as the reference); an agent's own model still wins", async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'agent-skill-model-'));
        const store = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'agent-skill-model-store-'));
        await (0, promises_1.mkdir)((0, node_path_1.join)(work, '.claude', 'skills', 'fast'), { recursive: true });
        await (0, promises_1.writeFile)((0, node_path_1.join)(work, '.claude', 'skills', 'fast', 'SKILL.md'), '---\ndescription: d\nmodel: claude-skill-model\n---\nGo fast.\n');
        await (0, promises_1.mkdir)((0, node_path_1.join)(work, '.claude', 'agents'), { recursive: true });
        await (0, promises_1.writeFile)((0, node_path_1.join)(work, '.claude', 'agents', 'pinned.md'), '---\nname: pinned\ndescription: Pinned model.\nmodel: claude-agent-model\n---\nYou are MARKER-PINNED.\n');
        let parentTurn = 0;
        fake.script((req) => {
            const sys = JSON.stringify(req.system ?? '');
            if (sys.includes('MARKER-PINNED') || sys.includes('on behalf of another agent'))
                return (0, fakeAnthropic_1.textResponse)('child done');
            parentTurn++;
            if (parentTurn === 1)
                return (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_sk', name: 'Skill', input: { skill: 'fast' } }]);
            if (parentTurn === 2)
                return (0, fakeAnthropic_1.toolUseResponse)([
                    { id: 'toolu_gp', name: 'Agent', input: { description: 'gp', prompt: 'hi' } },
                    { id: 'toolu_pin', name: 'Agent', input: { description: 'pin', prompt: 'hi', subagent_type: 'pinned' } },
                ]);
            return (0, fakeAnthropic_1.textResponse)('done');
        });
        const result = await (0, runSession_1.runLocalSession)({
            prompt: 'go',
            cwd: work,
            tools: ['Read', 'Skill', 'Agent'],
            permissionMode: 'bypassPermissions',
            model: { model: 'claude-test', maxTokens: 256 },
        }, { storeDir: store, anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) });
        strict_1.default.equal(result.status, 'completed', result.endReason);
        const modelOf = (marker) => fake.messageRequests().find((r) => marker.test(JSON.stringify(r.system ?? '')))?.model;
        strict_1.default.equal(modelOf(/on behalf of another agent/), 'claude-skill-model');
        strict_1.default.equal(modelOf(/MARKER-PINNED/), 'claude-agent-model');
    }
    finally {
        await fake.close();
    }
});
//# sourceMappingURL=agents.test.js.map