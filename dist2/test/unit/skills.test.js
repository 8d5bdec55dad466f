"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: skills (src/agents/skills.ts, src/tools/builtin/skill.ts): SKILL.md parsing with loud
// errors naming the file and key, discovery in the user and project scopes (project wins), the
// listing, argument substitution as the reference fills it in, the Skill tool's result, errors and
// permissions, the grants a loaded skill gives (allowed-tools, model), and the built-in read-only
// agent types (Explore, Plan).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const skills_1 = require("../../src/agents/skills");
const definitions_1 = require("../../src/agents/definitions");
const subagents_1 = require("../../src/engine/subagents");
const context_1 = require("../../src/engine/context");
const toolPipeline_1 = require("../../src/pipeline/toolPipeline");
const builtin_1 = require("../../src/tools/builtin");
const agent_1 = require("../../src/tools/builtin/agent");
const sessionInput_1 = require("../../src/sessionInput");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const runSession_1 = require("../../src/local/runSession");
const F = '/p/.claude/skills/greet/SKILL.md';
const D = '/p/.claude/skills/greet';
function put(path, text) {
    (0, node_fs_1.mkdirSync)((0, node_path_1.join)(path, '..'), { recursive: true });
    (0, node_fs_1.writeFileSync)(path, text);
}
(0, node_test_1.test)('unit: a SKILL.md: frontmatter keys honoured, the body kept as written, the directory is the name', () => {
    const s = (0, skills_1.parseSkill)(F, '---\nname: greet\ndescription: Say hello\nwhen_to_use: when greeting\nargument-hint: <who>\nallowed-tools: Bash(echo:*), Read\nmodel: Haiku\narguments: [who, mood]\nlicense: MIT\n---\nGreet $ARGUMENTS.\n', D, 'project');
    strict_1.default.deepEqual(s, {
        name: 'greet',
        description: 'Say hello',
        whenToUse: 'when greeting',
        argumentHint: '<who>',
        argumentNames: ['who', 'mood'],
        allowedTools: ['Bash(echo:*)', 'Read'],
        model: 'haiku',
        body: 'Greet $ARGUMENTS.\n',
        dir: D,
        scope: 'project',
        source: F,
    });
    // allowed-tools as a YAML list, or space-separated (parentheses keep a rule together).
    strict_1.default.deepEqual((0, skills_1.parseSkill)(F, '---\nallowed-tools:\n  - Bash(git status:*)\n  - Grep\n---\nb', D, 'user').allowedTools, ['Bash(git status:*)', 'Grep']);
    strict_1.default.deepEqual((0, skills_1.parseSkill)(F, '---\nallowed-tools: Bash(git diff:*) Read\n---\nb', D, 'user').allowedTools, [
        'Bash(git diff:*)',
        'Read',
    ]);
    // No frontmatter: described by the first line (a heading's text), as the reference does.
    const plain = (0, skills_1.parseSkill)(F, '# Greeting people\n\nSay hi.\n', D, 'user');
    strict_1.default.equal(plain.description, 'Greeting people');
    strict_1.default.equal(plain.body, '# Greeting people\n\nSay hi.\n');
    strict_1.default.equal((0, skills_1.parseSkill)(F, '---\ndescription: d\nmodel: inherit\n---\nb', D, 'user').model, undefined);
    strict_1.default.equal((0, skills_1.parseSkill)(F, '---\ndescription: d\ndisable-model-invocation: true\n---\nb', D, 'user').disableModelInvocation, true);
});
(0, node_test_1.test)('unit: malformed SKILL.md files fail loudly, naming the file and the key', () => {
    const bad = [
        ['---\ndescription: d\nhooks: x\n---\nb', /SKILL\.md: frontmatter key "hooks" is not supported/],
        ['---\ndescription: d\ncontext: fork\n---\nb', /frontmatter key "context" is not supported/],
        ['---\ndescription: d\ncolour: red\n---\nb', /unknown frontmatter key "colour"/],
        ['---\nname: other\ndescription: d\n---\nb', /key "name": "other" differs from the skill's directory name "greet"/],
        ['---\ndescription: d\nmodel: two words\n---\nb', /key "model": "two words"/],
        [
            '---\ndescription: d\ndisable-model-invocation: maybe\n---\nb',
            /key "disable-model-invocation": "maybe" is not true or false/,
        ],
        [
            '---\ndescription: d\nallowed-tools: "Bash(ls) ; rm"\n---\nb',
            /key "allowed-tools": ";" is not a permission rule/,
        ],
        ['---\ndescription: d\narguments: [a-b]\n---\nb', /key "arguments": "a-b" is not an argument name/],
        ['---\ndescription: [unclosed\n---\nb', /key "description": the list is not closed/],
        ['---\ndescription: d\nb', /the frontmatter block is not closed/],
        ['---\ndescription:\n---\nb', /key "description" is empty/],
    ];
    for (const [text, re] of bad) {
        strict_1.default.throws(() => (0, skills_1.parseSkill)(F, text, D, 'project'), (e) => e instanceof skills_1.SkillDefinitionError &&
            e.code === 'SKILL_DEFINITION' &&
            re.test(e.message) &&
            e.message.startsWith(F), text);
    }
    strict_1.default.throws(() => (0, skills_1.parseSkill)('/p/.claude/skills/a b/SKILL.md', 'b', '/p/.claude/skills/a b', 'user'), /directory name "a b"/);
});
(0, node_test_1.test)('unit: discovery: user then project scope (a user skill wins, as 2.1.328), helper folders skipped, symlinks out of the project refused', () => {
    const root = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-skills-'));
    const home = (0, node_path_1.join)(root, 'home', '.claude');
    const proj = (0, node_path_1.join)(root, 'proj');
    put((0, node_path_1.join)(home, 'skills', 'mine', 'SKILL.md'), '---\ndescription: user skill\n---\nUser body\n');
    put((0, node_path_1.join)(home, 'skills', 'shared', 'SKILL.md'), '---\ndescription: user version\n---\nu\n');
    put((0, node_path_1.join)(proj, '.claude', 'skills', 'shared', 'SKILL.md'), '---\ndescription: project version\n---\np\n');
    put((0, node_path_1.join)(proj, '.claude', 'skills', 'notes', 'README.md'), 'no SKILL.md here');
    put((0, node_path_1.join)(proj, '.claude', 'skills', 'loose.md'), 'a file, not a skill directory');
    const skills = (0, skills_1.loadSkills)(proj, home);
    strict_1.default.deepEqual(skills.map((s) => [s.name, s.description, s.scope]), [
        ['mine', 'user skill', 'user'],
        ['shared', 'user version', 'user'],
    ]);
    strict_1.default.equal(skills[0]?.dir, (0, node_path_1.join)(home, 'skills', 'mine'));
    strict_1.default.deepEqual((0, skills_1.loadSkills)((0, node_path_1.join)(root, 'none'), (0, node_path_1.join)(root, 'nohome')), []);
    // A project skill linked from outside the project is not read (its body would reach the model).
    put((0, node_path_1.join)(root, 'outside', 'evil', 'SKILL.md'), '---\ndescription: evil\n---\nrun things\n');
    (0, node_fs_1.symlinkSync)((0, node_path_1.join)(root, 'outside', 'evil'), (0, node_path_1.join)(proj, '.claude', 'skills', 'evil'));
    strict_1.default.throws(() => (0, skills_1.loadSkills)(proj, home), /evil\/SKILL\.md: not read: it resolves to .*outside/);
    // Too much text for a session's start event: refused, naming the limit.
    const big = (0, node_path_1.join)(root, 'big');
    for (const n of ['a', 'b', 'c'])
        put((0, node_path_1.join)(big, '.claude', 'skills', n, 'SKILL.md'), `---\ndescription: ${n}\n---\n${'x'.repeat(95_000)}\n`);
    strict_1.default.throws(() => (0, skills_1.loadSkills)(big, (0, node_path_1.join)(root, 'nohome')), /the skills' bodies add up to \d+ characters; a session may carry at most 262144/);
    strict_1.default.throws(() => (0, skills_1.loadSkills)((0, node_path_1.join)(root, 'huge'), home) && (0, skills_1.parseSkill)(F, 'y'.repeat(100_001), D, 'project'), /a SKILL\.md may have at most 100000/);
});
(0, node_test_1.test)('unit: the listing: one line per skill the model may call, description and when_to_use', () => {
    const mk = (name, extra = {}) => ({
        name,
        description: `${name} does things`,
        body: '',
        dir: `/s/${name}`,
        scope: 'project',
        source: `/s/${name}/SKILL.md`,
        ...extra,
    });
    const listing = (0, skills_1.skillListing)([
        mk('a', { whenToUse: 'when asked' }),
        mk('hidden', { disableModelInvocation: true }),
        mk('b'),
    ]);
    strict_1.default.ok(listing);
    strict_1.default.match(listing, /\n- a: a does things - when asked\n- b: b does things$/);
    strict_1.default.doesNotMatch(listing, /hidden/);
    strict_1.default.equal((0, skills_1.skillListing)([]), undefined);
    strict_1.default.equal((0, skills_1.skillListing)([mk('hidden', { disableModelInvocation: true })]), undefined);
});
(0, node_test_1.test)('unit: arguments are filled in as the reference does ($ARGUMENTS, $ARGUMENTS[n], $n, named, \\$, ARGUMENTS: appended)', () => {
    const sk = (body, argumentNames) => ({
        body,
        dir: D,
        ...(argumentNames ? { argumentNames } : {}),
    });
    const v = { sessionId: 'S1', projectDir: '/p' };
    // Captured from 2.1.328: `$1` of "Bob and Alice" is "and" (0-based), `$ARGUMENTS[0]` is "Bob".
    strict_1.default.equal((0, skills_1.substituteArguments)(sk('Greet $ARGUMENTS warmly. First arg: $1. ARGUMENTS[0]: $ARGUMENTS[0]. dir ${CLAUDE_SKILL_DIR} sess ${CLAUDE_SESSION_ID}\n'), 'Bob and Alice', v), `Greet Bob and Alice warmly. First arg: and. ARGUMENTS[0]: Bob. dir ${D} sess S1\n`);
    // Captured: no placeholder and arguments given → "\n\nARGUMENTS: <args>" appended.
    strict_1.default.equal((0, skills_1.substituteArguments)(sk('Plain body\n'), 'x y', v), 'Plain body\n\n\nARGUMENTS: x y');
    // Captured: no args → $ARGUMENTS is empty, nothing appended.
    strict_1.default.equal((0, skills_1.substituteArguments)(sk('Greet $ARGUMENTS now.\n'), undefined, v), 'Greet  now.\n');
    strict_1.default.equal((0, skills_1.substituteArguments)(sk('Plain\n'), undefined, v), 'Plain\n');
    // Missing words stay as written; an escaped dollar stays; a replacement's own $ is not read again.
    strict_1.default.equal((0, skills_1.substituteArguments)(sk('$5 $ARGUMENTS[3] \\$ARGUMENTS $0'), '$ARGUMENTS', v), '$5 $ARGUMENTS[3] $ARGUMENTS $ARGUMENTS');
    // Named arguments, quotes group words.
    strict_1.default.equal((0, skills_1.substituteArguments)(sk('to $who in $mood', ['who', 'mood']), '"Ann Lee" happy', v), 'to Ann Lee in happy');
    strict_1.default.equal((0, skills_1.substituteArguments)(sk('root ${CLAUDE_PROJECT_DIR}'), '', v), 'root /p');
    strict_1.default.deepEqual((0, skills_1.splitArguments)(` a "b c" 'd e' f\\ g ""`), ['a', 'b c', 'd e', 'f g', '']);
});
const GREET = {
    name: 'greet',
    description: 'Say hello',
    allowedTools: ['Bash(touch:*)'],
    model: 'haiku',
    body: 'Greet $ARGUMENTS now.\n',
    dir: D,
    scope: 'project',
    source: F,
};
const PLAIN = {
    name: 'plain',
    description: 'plain',
    body: 'Plain body\n',
    dir: '/p/.claude/skills/plain',
    scope: 'project',
    source: '/p/.claude/skills/plain/SKILL.md',
};
const HIDDEN = { ...PLAIN, name: 'hidden', disableModelInvocation: true };
const env = (mode = 'default', allow = []) => ({
    pool: [builtin_1.SkillTool, builtin_1.BashTool],
    sessionId: 'S1',
    agent: (0, context_1.initialContext)('/p'),
    permission: { mode, rules: { allow, ask: [], deny: [] }, workingDirectories: ['/p'] },
    skills: [GREET, PLAIN, HIDDEN],
});
(0, node_test_1.test)('unit: the Skill tool: result as the reference (Launching skill, then the base directory and the body), errors for unknown and hidden skills', async () => {
    const ok = await (0, toolPipeline_1.runToolPipeline)({ type: 'tool_use', id: 't1', name: 'Skill', input: { skill: '/plain', args: 'x y' } }, env());
    strict_1.default.equal(ok.status, 'ok');
    strict_1.default.deepEqual(ok.result?.content, [
        { type: 'text', text: 'Launching skill: plain' },
        { type: 'text', text: 'Base directory for this skill: /p/.claude/skills/plain\n\nPlain body\n\n\nARGUMENTS: x y' },
    ]);
    strict_1.default.deepEqual(ok.contextModifiers, []);
    const unknown = await (0, toolPipeline_1.runToolPipeline)({ type: 'tool_use', id: 't2', name: 'Skill', input: { skill: 'plian' } }, env());
    strict_1.default.equal(unknown.result?.is_error, true);
    strict_1.default.match(String(unknown.result?.content), /Unknown skill: plian\. Did you mean plain\?/);
    const far = await (0, toolPipeline_1.runToolPipeline)({ type: 'tool_use', id: 't3', name: 'Skill', input: { skill: 'zzzzzz' } }, env());
    strict_1.default.match(String(far.result?.content), /Unknown skill: zzzzzz\.(?! Did)/);
    const hidden = await (0, toolPipeline_1.runToolPipeline)({ type: 'tool_use', id: 't4', name: 'Skill', input: { skill: 'hidden' } }, env());
    strict_1.default.equal(hidden.result?.is_error, true);
    strict_1.default.match(String(hidden.result?.content), /hidden cannot be used with the Skill tool: its disable-model-invocation/);
    const extra = await (0, toolPipeline_1.runToolPipeline)({ type: 'tool_use', id: 't5', name: 'Skill', input: { skill: 'plain', x: 1 } }, env());
    strict_1.default.equal(extra.result?.is_error, true);
});
(0, node_test_1.test)('unit: a skill that allows tools asks (dontAsk: denied) unless Skill(<name>) allows it; its grants are a context modifier', async () => {
    const asked = await (0, toolPipeline_1.runToolPipeline)({ type: 'tool_use', id: 'a1', name: 'Skill', input: { skill: 'greet' } }, env('default'));
    strict_1.default.equal(asked.status, 'ask');
    const denied = await (0, toolPipeline_1.runToolPipeline)({ type: 'tool_use', id: 'a2', name: 'Skill', input: { skill: 'greet' } }, env('dontAsk'));
    strict_1.default.equal(denied.status, 'denied');
    const allowed = await (0, toolPipeline_1.runToolPipeline)({ type: 'tool_use', id: 'a3', name: 'Skill', input: { skill: 'greet', args: 'Bob' } }, env('default', ['Skill(greet)']));
    strict_1.default.equal(allowed.status, 'ok');
    strict_1.default.deepEqual(allowed.contextModifiers, [
        { type: 'skillLoaded', skill: 'greet', allowedTools: ['Bash(touch:*)'], model: 'claude-haiku-4-5-20251001' },
    ]);
    // The grants: the skill's rules are allow rules from then on; its model replaces the session's.
    const ctx = (0, context_1.applyContextModifiers)((0, context_1.initialContext)('/p'), allowed.contextModifiers);
    strict_1.default.deepEqual(ctx.skillGrants, {
        allowedTools: ['Bash(touch:*)'],
        model: 'claude-haiku-4-5-20251001',
        skills: ['greet'],
    });
    strict_1.default.deepEqual((0, context_1.modelWithSkillGrants)({ model: 'claude-sonnet-5-5', maxTokens: 5 }, ctx), {
        model: 'claude-haiku-4-5-20251001',
        maxTokens: 5,
    });
    const before = await (0, toolPipeline_1.runToolPipeline)({ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'touch /p/x' } }, { ...env('dontAsk'), agent: (0, context_1.initialContext)('/p') });
    strict_1.default.equal(before.status, 'denied');
    const after = await (0, toolPipeline_1.runToolPipeline)({ type: 'tool_use', id: 'b2', name: 'Bash', input: { command: 'touch /p/x' } }, { ...env('dontAsk'), agent: ctx, permission: { ...env('dontAsk').permission, sandbox: { enabled: false } } });
    strict_1.default.notEqual(after.status, 'denied', JSON.stringify(after.result));
    strict_1.default.equal(after.permission?.decisionReason?.type, 'rule');
    // A plain skill runs without asking in default mode (as the reference) and grants nothing.
    const plain = await (0, toolPipeline_1.runToolPipeline)({ type: 'tool_use', id: 'a4', name: 'Skill', input: { skill: 'plain' } }, env('default'));
    strict_1.default.equal(plain.status, 'ok');
});
(0, node_test_1.test)('unit: the session input carries the skills and lists them in the system prompt; no Skill tool, no skills', () => {
    const root = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-skills-in-'));
    put((0, node_path_1.join)(root, '.claude', 'skills', 'greet', 'SKILL.md'), '---\ndescription: Say hello\n---\nHi\n');
    put((0, node_path_1.join)(root, '.claude', 'skills', 'hidden', 'SKILL.md'), '---\ndescription: secret\ndisable-model-invocation: true\n---\nH\n');
    const input = (0, sessionInput_1.sessionInput)({ prompt: 'p', cwd: root });
    strict_1.default.deepEqual(input.skills?.map((s) => s.name), ['greet', 'hidden']);
    strict_1.default.match(input.model.system ?? '', /\n\nSkills you can load with the Skill tool[^\n]*\n\n- greet: Say hello$/);
    const without = (0, sessionInput_1.sessionInput)({ prompt: 'p', cwd: root, tools: ['Read'] });
    strict_1.default.equal(without.skills, undefined);
    strict_1.default.doesNotMatch(without.model.system ?? '', /Skill/);
    put((0, node_path_1.join)(root, '.claude', 'skills', 'bad', 'SKILL.md'), '---\ndescription: d\nhooks: x\n---\nb');
    strict_1.default.throws(() => (0, sessionInput_1.sessionInput)({ prompt: 'p', cwd: root }), /bad\/SKILL\.md: frontmatter key "hooks"/);
});
(0, node_test_1.test)('unit: Explore and Plan: every parent tool but Agent, Edit, Write and NotebookEdit (and Skill); listed with their tools', () => {
    const parent = ['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash', 'NotebookEdit', 'WebFetch', 'Agent', 'Skill'];
    for (const def of [definitions_1.EXPLORE_AGENT, definitions_1.PLAN_AGENT])
        strict_1.default.deepEqual((0, definitions_1.subagentTools)(def, parent, subagents_1.AGENT_TOOL_NAMES), {
            tools: ['Read', 'Glob', 'Grep', 'Bash', 'WebFetch'],
            dropped: [],
        });
    const prompt = (0, agent_1.agentToolPrompt)([definitions_1.EXPLORE_AGENT, definitions_1.PLAN_AGENT]);
    strict_1.default.match(prompt, /- Explore: [^\n]*\(Tools: all tools but Agent, Edit, Write, NotebookEdit\)/);
    strict_1.default.match(prompt, /- Plan: [^\n]*\(Tools: all tools but Agent, Edit, Write, NotebookEdit\)/);
    strict_1.default.equal(definitions_1.EXPLORE_AGENT.model, undefined); // the parent's model, as 2.1.328
});
(0, node_test_1.test)('unit: in-process session: the model loads a skill, then runs a command the skill allows (dontAsk)', async () => {
    const root = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-skills-run-'));
    const cwd = (0, node_path_1.join)(root, 'proj');
    put((0, node_path_1.join)(cwd, '.claude', 'skills', 'mark', 'SKILL.md'), '---\ndescription: Marks the project\nallowed-tools: Bash(touch:*)\nmodel: claude-other-model\n---\nRun touch $ARGUMENTS.\n');
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    let n = 0;
    fake.script(() => {
        n++;
        if (n === 1)
            return (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_s', name: 'Skill', input: { skill: 'mark', args: 'marked.txt' } }]);
        if (n === 2)
            return (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_b', name: 'Bash', input: { command: 'touch marked.txt' } }]);
        return (0, fakeAnthropic_1.textResponse)('done');
    });
    try {
        const r = await (0, runSession_1.runLocalSession)({
            prompt: 'mark it',
            cwd,
            permissionMode: 'dontAsk',
            rules: { allow: ['Skill(mark)'], ask: [], deny: [] },
            sandbox: { enabled: false },
            model: { model: 'claude-test', maxTokens: 256 },
        }, {
            storeDir: (0, node_path_1.join)(root, 'store'),
            anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }),
        });
        strict_1.default.equal(r.status, 'completed', r.endReason);
        const reqs = fake.messageRequests();
        strict_1.default.match(JSON.stringify(reqs[0]?.system), /- mark: Marks the project/);
        const skillResult = (0, fakeAnthropic_1.lastToolResults)(reqs[1])[0];
        strict_1.default.match(JSON.stringify(skillResult?.content), /Launching skill: mark.*Run touch marked\.txt\./);
        const bashResult = (0, fakeAnthropic_1.lastToolResults)(reqs[2])[0];
        strict_1.default.notEqual(bashResult?.is_error, true, JSON.stringify(bashResult));
        // The skill's model is used for the requests after it; the first one used the session's.
        strict_1.default.deepEqual(reqs.map((q) => q.model), ['claude-test', 'claude-other-model', 'claude-other-model']);
    }
    finally {
        await fake.close();
    }
});
//# sourceMappingURL=skills.test.js.map