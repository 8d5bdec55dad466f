// unit: skills (src/agents/skills.ts, src/tools/skill.ts): SKILL.md parsing with loud
// errors naming the file and key, discovery in the user and project scopes (project wins), the
// listing, argument substitution as the reference fills it in, the Skill tool's result, errors and
// permissions, the grants a loaded skill gives (allowed-tools, model), and the built-in read-only
// agent types (Explore, Plan).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import {
  loadSkills,
  parseSkill,
  SkillDefinitionError,
  skillListing,
  splitArguments,
  substituteArguments,
  type SkillDefinition,
} from '../../src/agents/skills';
import { EXPLORE_AGENT, PLAN_AGENT, subagentTools } from '../../src/agents/definitions';
import { AGENT_TOOL_NAMES } from '../../src/core/subagents';
import { applyContextModifiers, initialContext, modelWithSkillGrants } from '../../src/core/context';
import { runToolPipeline } from '../../src/toolCall/pipeline/toolPipeline';
import { BashTool, SkillTool } from '../../src/tools';
import { agentToolPrompt } from '../../src/tools/agent';
import { sessionInput } from '../../src/sessionInput';
import { lastToolResults, startFakeAnthropic, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { runLocalSession } from '../../src/inprocess/runSession';

const F = '/p/.claude/skills/greet/SKILL.md';
const D = '/p/.claude/skills/greet';

function put(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

test('unit: a SKILL.md: frontmatter keys honoured, the body kept as written, the directory is the name', () => {
  const s = parseSkill(
    F,
    '---\nname: greet\ndescription: Say hello\nwhen_to_use: when greeting\nargument-hint: <who>\nallowed-tools: Bash(echo:*), Read\nmodel: Haiku\narguments: [who, mood]\nlicense: MIT\n---\nGreet $ARGUMENTS.\n',
    D,
    'project',
  );
  assert.deepEqual(s, {
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
  assert.deepEqual(
    parseSkill(F, '---\nallowed-tools:\n  - Bash(git status:*)\n  - Grep\n---\nb', D, 'user').allowedTools,
    ['Bash(git status:*)', 'Grep'],
  );
  assert.deepEqual(parseSkill(F, '---\nallowed-tools: Bash(git diff:*) Read\n---\nb', D, 'user').allowedTools, [
    'Bash(git diff:*)',
    'Read',
  ]);
  // No frontmatter: described by the first line (a heading's text), as the reference does.
  const plain = parseSkill(F, '# Greeting people\n\nSay hi.\n', D, 'user');
  assert.equal(plain.description, 'Greeting people');
  assert.equal(plain.body, '# Greeting people\n\nSay hi.\n');
  assert.equal(parseSkill(F, '---\ndescription: d\nmodel: inherit\n---\nb', D, 'user').model, undefined);
  assert.equal(
    parseSkill(F, '---\ndescription: d\ndisable-model-invocation: true\n---\nb', D, 'user').disableModelInvocation,
    true,
  );
});

test('unit: malformed SKILL.md files fail loudly, naming the file and the key', () => {
  const bad: Array<[string, RegExp]> = [
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
    assert.throws(
      () => parseSkill(F, text, D, 'project'),
      (e: unknown) =>
        e instanceof SkillDefinitionError &&
        e.code === 'SKILL_DEFINITION' &&
        re.test(e.message) &&
        e.message.startsWith(F),
      text,
    );
  }
  assert.throws(
    () => parseSkill('/p/.claude/skills/a b/SKILL.md', 'b', '/p/.claude/skills/a b', 'user'),
    /directory name "a b"/,
  );
});

test('unit: discovery: user then project scope (a user skill wins, as 2.1.328), helper folders skipped, symlinks out of the project refused', () => {
  const root = mkdtempSync(join(tmpdir(), 'da-skills-'));
  const home = join(root, 'home', '.claude');
  const proj = join(root, 'proj');
  put(join(home, 'skills', 'mine', 'SKILL.md'), '---\ndescription: user skill\n---\nUser body\n');
  put(join(home, 'skills', 'shared', 'SKILL.md'), '---\ndescription: user version\n---\nu\n');
  put(join(proj, '.claude', 'skills', 'shared', 'SKILL.md'), '---\ndescription: project version\n---\np\n');
  put(join(proj, '.claude', 'skills', 'notes', 'README.md'), 'no SKILL.md here');
  put(join(proj, '.claude', 'skills', 'loose.md'), 'a file, not a skill directory');
  const skills = loadSkills(proj, home);
  assert.deepEqual(
    skills.map((s) => [s.name, s.description, s.scope]),
    [
      ['mine', 'user skill', 'user'],
      ['shared', 'user version', 'user'],
    ],
  );
  assert.equal(skills[0]?.dir, join(home, 'skills', 'mine'));
  assert.deepEqual(loadSkills(join(root, 'none'), join(root, 'nohome')), []);
  // A project skill linked from outside the project is not read (its body would reach the model).
  put(join(root, 'outside', 'evil', 'SKILL.md'), '---\ndescription: evil\n---\nrun things\n');
  symlinkSync(join(root, 'outside', 'evil'), join(proj, '.claude', 'skills', 'evil'));
  assert.throws(() => loadSkills(proj, home), /evil\/SKILL\.md: not read: it resolves to .*outside/);
  // Too much text for a session's start event: refused, naming the limit.
  const big = join(root, 'big');
  for (const n of ['a', 'b', 'c'])
    put(join(big, '.claude', 'skills', n, 'SKILL.md'), `---\ndescription: ${n}\n---\n${'x'.repeat(95_000)}\n`);
  assert.throws(
    () => loadSkills(big, join(root, 'nohome')),
    /the skills' bodies add up to \d+ characters; a session may carry at most 262144/,
  );
  assert.throws(
    () => loadSkills(join(root, 'huge'), home) && parseSkill(F, 'y'.repeat(100_001), D, 'project'),
    /a SKILL\.md may have at most 100000/,
  );
});

test('unit: the listing: one line per skill the model may call, description and when_to_use', () => {
  const mk = (name: string, extra: Partial<SkillDefinition> = {}): SkillDefinition => ({
    name,
    description: `${name} does things`,
    body: '',
    dir: `/s/${name}`,
    scope: 'project',
    source: `/s/${name}/SKILL.md`,
    ...extra,
  });
  const listing = skillListing([
    mk('a', { whenToUse: 'when asked' }),
    mk('hidden', { disableModelInvocation: true }),
    mk('b'),
  ]);
  assert.ok(listing);
  assert.match(listing, /\n- a: a does things - when asked\n- b: b does things$/);
  assert.doesNotMatch(listing, /hidden/);
  assert.equal(skillListing([]), undefined);
  assert.equal(skillListing([mk('hidden', { disableModelInvocation: true })]), undefined);
});

test('unit: arguments are filled in as the reference does ($ARGUMENTS, $ARGUMENTS[n], $n, named, \\$, ARGUMENTS: appended)', () => {
  const sk = (body: string, argumentNames?: string[]) => ({
    body,
    dir: D,
    ...(argumentNames ? { argumentNames } : {}),
  });
  const v = { sessionId: 'S1', projectDir: '/p' };
  // Captured from 2.1.328: `$1` of "Bob and Alice" is "and" (0-based), `$ARGUMENTS[0]` is "Bob".
  assert.equal(
    substituteArguments(
      sk(
        'Greet $ARGUMENTS warmly. First arg: $1. ARGUMENTS[0]: $ARGUMENTS[0]. dir ${CLAUDE_SKILL_DIR} sess ${CLAUDE_SESSION_ID}\n',
      ),
      'Bob and Alice',
      v,
    ),
    `Greet Bob and Alice warmly. First arg: and. ARGUMENTS[0]: Bob. dir ${D} sess S1\n`,
  );
  // Captured: no placeholder and arguments given → "\n\nARGUMENTS: <args>" appended.
  assert.equal(substituteArguments(sk('Plain body\n'), 'x y', v), 'Plain body\n\n\nARGUMENTS: x y');
  // Captured: no args → $ARGUMENTS is empty, nothing appended.
  assert.equal(substituteArguments(sk('Greet $ARGUMENTS now.\n'), undefined, v), 'Greet  now.\n');
  assert.equal(substituteArguments(sk('Plain\n'), undefined, v), 'Plain\n');
  // Missing words stay as written; an escaped dollar stays; a replacement's own $ is not read again.
  assert.equal(
    substituteArguments(sk('$5 $ARGUMENTS[3] \\$ARGUMENTS $0'), '$ARGUMENTS', v),
    '$5 $ARGUMENTS[3] $ARGUMENTS $ARGUMENTS',
  );
  // Named arguments, quotes group words.
  assert.equal(
    substituteArguments(sk('to $who in $mood', ['who', 'mood']), '"Ann Lee" happy', v),
    'to Ann Lee in happy',
  );
  assert.equal(substituteArguments(sk('root ${CLAUDE_PROJECT_DIR}'), '', v), 'root /p');
  assert.deepEqual(splitArguments(` a "b c" 'd e' f\\ g ""`), ['a', 'b c', 'd e', 'f g', '']);
});

const GREET: SkillDefinition = {
  name: 'greet',
  description: 'Say hello',
  allowedTools: ['Bash(touch:*)'],
  model: 'haiku',
  body: 'Greet $ARGUMENTS now.\n',
  dir: D,
  scope: 'project',
  source: F,
};
const PLAIN: SkillDefinition = {
  name: 'plain',
  description: 'plain',
  body: 'Plain body\n',
  dir: '/p/.claude/skills/plain',
  scope: 'project',
  source: '/p/.claude/skills/plain/SKILL.md',
};
const HIDDEN: SkillDefinition = { ...PLAIN, name: 'hidden', disableModelInvocation: true };

const env = (mode: 'default' | 'bypassPermissions' | 'dontAsk' = 'default', allow: string[] = []) => ({
  pool: [SkillTool, BashTool],
  sessionId: 'S1',
  agent: initialContext('/p'),
  permission: { mode, rules: { allow, ask: [], deny: [] }, workingDirectories: ['/p'] },
  skills: [GREET, PLAIN, HIDDEN],
});

test('unit: the Skill tool: result as the reference (Launching skill, then the base directory and the body), errors for unknown and hidden skills', async () => {
  const ok = await runToolPipeline(
    { type: 'tool_use', id: 't1', name: 'Skill', input: { skill: '/plain', args: 'x y' } },
    env(),
  );
  assert.equal(ok.status, 'ok');
  assert.deepEqual(ok.result?.content, [
    { type: 'text', text: 'Launching skill: plain' },
    { type: 'text', text: 'Base directory for this skill: /p/.claude/skills/plain\n\nPlain body\n\n\nARGUMENTS: x y' },
  ]);
  assert.deepEqual(ok.contextModifiers, []);
  const unknown = await runToolPipeline(
    { type: 'tool_use', id: 't2', name: 'Skill', input: { skill: 'plian' } },
    env(),
  );
  assert.equal(unknown.result?.is_error, true);
  assert.match(String(unknown.result?.content), /Unknown skill: plian\. Did you mean plain\?/);
  const far = await runToolPipeline({ type: 'tool_use', id: 't3', name: 'Skill', input: { skill: 'zzzzzz' } }, env());
  assert.match(String(far.result?.content), /Unknown skill: zzzzzz\.(?! Did)/);
  const hidden = await runToolPipeline(
    { type: 'tool_use', id: 't4', name: 'Skill', input: { skill: 'hidden' } },
    env(),
  );
  assert.equal(hidden.result?.is_error, true);
  assert.match(
    String(hidden.result?.content),
    /hidden cannot be used with the Skill tool: its disable-model-invocation/,
  );
  const extra = await runToolPipeline(
    { type: 'tool_use', id: 't5', name: 'Skill', input: { skill: 'plain', x: 1 } },
    env(),
  );
  assert.equal(extra.result?.is_error, true);
});

test('unit: a skill that allows tools asks (dontAsk: denied) unless Skill(<name>) allows it; its grants are a context modifier', async () => {
  const asked = await runToolPipeline(
    { type: 'tool_use', id: 'a1', name: 'Skill', input: { skill: 'greet' } },
    env('default'),
  );
  assert.equal(asked.status, 'ask');
  const denied = await runToolPipeline(
    { type: 'tool_use', id: 'a2', name: 'Skill', input: { skill: 'greet' } },
    env('dontAsk'),
  );
  assert.equal(denied.status, 'denied');
  const allowed = await runToolPipeline(
    { type: 'tool_use', id: 'a3', name: 'Skill', input: { skill: 'greet', args: 'Bob' } },
    env('default', ['Skill(greet)']),
  );
  assert.equal(allowed.status, 'ok');
  assert.deepEqual(allowed.contextModifiers, [
    { type: 'skillLoaded', skill: 'greet', allowedTools: ['Bash(touch:*)'], model: 'claude-haiku-4-5-20251001' },
  ]);
  // The grants: the skill's rules are allow rules from then on; its model replaces the session's.
  const ctx = applyContextModifiers(initialContext('/p'), allowed.contextModifiers);
  assert.deepEqual(ctx.skillGrants, {
    allowedTools: ['Bash(touch:*)'],
    model: 'claude-haiku-4-5-20251001',
    skills: ['greet'],
  });
  assert.deepEqual(modelWithSkillGrants({ model: 'claude-sonnet-5-5', maxTokens: 5 }, ctx), {
    model: 'claude-haiku-4-5-20251001',
    maxTokens: 5,
  });
  const before = await runToolPipeline(
    { type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'touch /p/x' } },
    { ...env('dontAsk'), agent: initialContext('/p') },
  );
  assert.equal(before.status, 'denied');
  const after = await runToolPipeline(
    { type: 'tool_use', id: 'b2', name: 'Bash', input: { command: 'touch /p/x' } },
    { ...env('dontAsk'), agent: ctx, permission: { ...env('dontAsk').permission, sandbox: { enabled: false } } },
  );
  assert.notEqual(after.status, 'denied', JSON.stringify(after.result));
  assert.equal(after.permission?.decisionReason?.type, 'rule');
  // A plain skill runs without asking in default mode (as the reference) and grants nothing.
  const plain = await runToolPipeline(
    { type: 'tool_use', id: 'a4', name: 'Skill', input: { skill: 'plain' } },
    env('default'),
  );
  assert.equal(plain.status, 'ok');
});

test('unit: the session input carries the skills and lists them in the system prompt; no Skill tool, no skills', () => {
  const root = mkdtempSync(join(tmpdir(), 'da-skills-in-'));
  put(join(root, '.claude', 'skills', 'greet', 'SKILL.md'), '---\ndescription: Say hello\n---\nHi\n');
  put(
    join(root, '.claude', 'skills', 'hidden', 'SKILL.md'),
    '---\ndescription: secret\ndisable-model-invocation: true\n---\nH\n',
  );
  const input = sessionInput({ prompt: 'p', cwd: root });
  assert.deepEqual(
    input.skills?.map((s) => s.name),
    ['greet', 'hidden'],
  );
  assert.match(input.model.system ?? '', /\n\nSkills you can load with the Skill tool[^\n]*\n\n- greet: Say hello$/);
  const without = sessionInput({ prompt: 'p', cwd: root, tools: ['Read'] });
  assert.equal(without.skills, undefined);
  assert.doesNotMatch(without.model.system ?? '', /Skill/);
  put(join(root, '.claude', 'skills', 'bad', 'SKILL.md'), '---\ndescription: d\nhooks: x\n---\nb');
  assert.throws(() => sessionInput({ prompt: 'p', cwd: root }), /bad\/SKILL\.md: frontmatter key "hooks"/);
});

test('unit: Explore and Plan: every parent tool but Agent, Edit, Write and NotebookEdit (and Skill); listed with their tools', () => {
  const parent = ['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash', 'NotebookEdit', 'WebFetch', 'Agent', 'Skill'];
  for (const def of [EXPLORE_AGENT, PLAN_AGENT])
    assert.deepEqual(subagentTools(def, parent, AGENT_TOOL_NAMES), {
      tools: ['Read', 'Glob', 'Grep', 'Bash', 'WebFetch'],
      dropped: [],
    });
  const prompt = agentToolPrompt([EXPLORE_AGENT, PLAN_AGENT]);
  assert.match(prompt, /- Explore: [^\n]*\(Tools: all tools but Agent, Edit, Write, NotebookEdit\)/);
  assert.match(prompt, /- Plan: [^\n]*\(Tools: all tools but Agent, Edit, Write, NotebookEdit\)/);
  assert.equal(EXPLORE_AGENT.model, undefined); // the parent's model, as 2.1.328
});

test('unit: in-process session: the model loads a skill, then runs a command the skill allows (dontAsk)', async () => {
  const root = mkdtempSync(join(tmpdir(), 'da-skills-run-'));
  const cwd = join(root, 'proj');
  put(
    join(cwd, '.claude', 'skills', 'mark', 'SKILL.md'),
    '---\ndescription: Marks the project\nallowed-tools: Bash(touch:*)\nmodel: claude-other-model\n---\nRun touch $ARGUMENTS.\n',
  );
  const fake = await startFakeAnthropic();
  let n = 0;
  fake.script(() => {
    n++;
    if (n === 1)
      return toolUseResponse([{ id: 'toolu_s', name: 'Skill', input: { skill: 'mark', args: 'marked.txt' } }]);
    if (n === 2) return toolUseResponse([{ id: 'toolu_b', name: 'Bash', input: { command: 'touch marked.txt' } }]);
    return textResponse('done');
  });
  try {
    const r = await runLocalSession(
      {
        prompt: 'mark it',
        cwd,
        permissionMode: 'dontAsk',
        rules: { allow: ['Skill(mark)'], ask: [], deny: [] },
        sandbox: { enabled: false },
        model: { model: 'claude-test', maxTokens: 256 },
      },
      {
        storeDir: join(root, 'store'),
        anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }),
      },
    );
    assert.equal(r.status, 'completed', r.endReason);
    const reqs = fake.messageRequests();
    assert.match(JSON.stringify(reqs[0]?.system), /- mark: Marks the project/);
    const skillResult = lastToolResults(reqs[1]!)[0];
    assert.match(JSON.stringify(skillResult?.content), /Launching skill: mark.*Run touch marked\.txt\./);
    const bashResult = lastToolResults(reqs[2]!)[0];
    assert.notEqual(bashResult?.is_error, true, JSON.stringify(bashResult));
    // The skill's model is used for the requests after it; the first one used the session's.
    assert.deepEqual(
      reqs.map((q) => q.model),
      ['claude-test', 'claude-other-model', 'claude-other-model'],
    );
  } finally {
    await fake.close();
  }
});
