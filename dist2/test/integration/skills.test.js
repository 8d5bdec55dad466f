"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: skills and the built-in read-only agent types on the real dev server. A session in
// dontAsk mode cannot create a file with Bash until its model loads a skill whose allowed-tools
// allow it (the skill read from .claude/skills at start, listed in the system prompt, its body the
// Skill tool's result, its model used from then on); an Explore subagent is offered no Write and
// its Write call is an unknown tool.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const cli_1 = require("../support/cli");
const promises_2 = require("node:fs/promises");
const node_os_1 = require("node:os");
(0, node_test_1.after)(temporal_1.closeTestEnv);
function systemOf(req) {
    const s = req.system;
    if (typeof s === 'string')
        return s;
    return Array.isArray(s) ? s.map((b) => b.text ?? '').join('\n') : '';
}
(0, node_test_1.test)('integration: a skill loaded with the Skill tool allows its allowed-tools for the rest of the session and switches the model', { timeout: 120_000 }, async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, workDir }) => {
        await (0, promises_1.mkdir)((0, node_path_1.join)(workDir, '.claude', 'skills', 'mark'), { recursive: true });
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, '.claude', 'skills', 'mark', 'SKILL.md'), '---\ndescription: Marks the project with a file\nallowed-tools: Bash(touch:*)\nmodel: claude-skill-model\n---\nCreate $ARGUMENTS with touch.\n');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_before', name: 'Bash', input: { command: 'touch before.txt' } }]), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_skill', name: 'Skill', input: { skill: 'mark', args: 'after.txt' } }]), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_after', name: 'Bash', input: { command: 'touch after.txt' } }]), (0, fakeAnthropic_1.textResponse)('marked'));
        const handle = await start({
            prompt: 'mark the project',
            permissionMode: 'dontAsk',
            rules: { allow: ['Skill(mark)'], ask: [], deny: [] },
            sandbox: { enabled: false },
        });
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed');
        const reqs = fake.messageRequests();
        strict_1.default.equal(reqs.length, 4);
        // Listed to the model in the system prompt; the Skill tool offered.
        strict_1.default.match(systemOf(reqs[0]), /- mark: Marks the project with a file/);
        strict_1.default.ok(reqs[0].tools?.some((t) => t.name === 'Skill'));
        // Before the skill: dontAsk denies the write.
        const [before] = (0, fakeAnthropic_1.lastToolResults)(reqs[1]);
        strict_1.default.equal(before?.is_error, true);
        strict_1.default.equal((0, node_fs_1.existsSync)((0, node_path_1.join)(workDir, 'before.txt')), false);
        // The skill's text, as the reference's result says it.
        const [skill] = (0, fakeAnthropic_1.lastToolResults)(reqs[2]);
        strict_1.default.notEqual(skill?.is_error, true);
        const text = JSON.stringify(skill?.content);
        strict_1.default.match(text, /Launching skill: mark/);
        strict_1.default.ok(text.includes(`Base directory for this skill: ${(0, node_path_1.join)(workDir, '.claude', 'skills', 'mark')}`));
        strict_1.default.match(text, /Create after\.txt with touch\./);
        // After it: the same kind of command runs, allowed by the skill's rule.
        const [after] = (0, fakeAnthropic_1.lastToolResults)(reqs[3]);
        strict_1.default.notEqual(after?.is_error, true, JSON.stringify(after));
        strict_1.default.equal((0, node_fs_1.existsSync)((0, node_path_1.join)(workDir, 'after.txt')), true);
        // The skill's model for the requests after it.
        strict_1.default.deepEqual(reqs.map((r) => r.model), ['claude-test', 'claude-test', 'claude-skill-model', 'claude-skill-model']);
    });
});
(0, node_test_1.test)('integration: an Explore subagent is offered no Write, Edit or Agent, and its Write call writes nothing', { timeout: 120_000 }, async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, workDir }) => {
        const target = (0, node_path_1.join)(workDir, 'explore-wrote.txt');
        const childTools = [];
        fake.script((req) => {
            const child = /read-only search agent/.test(systemOf(req));
            const n = req.messages.length;
            if (child) {
                childTools.push((req.tools ?? []).map((t) => t.name));
                if (n === 1)
                    return (0, fakeAnthropic_1.toolUseResponse)([
                        { id: 'toolu_child_write', name: 'Write', input: { file_path: target, content: 'x' } },
                    ]);
                return (0, fakeAnthropic_1.textResponse)('explore report: nothing written');
            }
            if (n === 1)
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_explore',
                        name: 'Agent',
                        input: { run_in_background: false, description: 'look', prompt: 'look around', subagent_type: 'Explore' },
                    },
                ]);
            return (0, fakeAnthropic_1.textResponse)('done');
        });
        const result = await (await start({ prompt: 'explore' })).result();
        strict_1.default.equal(result.status, 'completed');
        strict_1.default.ok(childTools.length >= 2, `the child made ${childTools.length} requests`);
        for (const tools of childTools) {
            for (const t of ['Write', 'Edit', 'NotebookEdit', 'Agent', 'Skill'])
                strict_1.default.ok(!tools.includes(t), `${t} offered`);
            for (const t of ['Read', 'Grep', 'Glob', 'Bash'])
                strict_1.default.ok(tools.includes(t), `${t} not offered`);
        }
        const childSecond = fake
            .messageRequests()
            .find((r) => /read-only search agent/.test(systemOf(r)) && r.messages.length > 1);
        const [w] = (0, fakeAnthropic_1.lastToolResults)(childSecond);
        strict_1.default.equal(w?.is_error, true);
        strict_1.default.match(JSON.stringify(w?.content), /No such tool available: Write/);
        strict_1.default.equal((0, node_fs_1.existsSync)(target), false);
        // The parent's Agent tool lists Explore and Plan with their tools; its result is the child's report.
        const agentTool = fake.messageRequests()[0].tools?.find((t) => t.name === 'Agent');
        strict_1.default.match(agentTool?.description ?? '', /- Explore: .*\(Tools: all tools but Agent, Edit, Write, NotebookEdit\)/);
        strict_1.default.match(agentTool?.description ?? '', /- Plan: /);
        const parentLast = fake
            .messageRequests()
            .filter((r) => !/read-only search agent/.test(systemOf(r)))
            .pop();
        strict_1.default.match(JSON.stringify((0, fakeAnthropic_1.lastToolResults)(parentLast)[0]?.content), /explore report: nothing written/);
    });
});
(0, node_test_1.test)("integration: `durable-agent run` reads the user and project skills at start (the user's wins by name) and refuses a malformed SKILL.md before starting", { timeout: 120_000 }, async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, taskQueue, workDir }) => {
        const home = await (0, promises_2.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-skills-home-'));
        const env = {
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
            DURABLE_AGENT_TASK_QUEUE: taskQueue,
            CLAUDE_CONFIG_DIR: (0, node_path_1.join)(home, '.claude'),
            DURABLE_AGENT_HOME: (0, node_path_1.join)(home, '.durable-agent'),
            DURABLE_AGENT_MANAGED_SETTINGS: (0, node_path_1.join)(home, 'no-managed-settings.json'),
            DURABLE_AGENT_MANAGED_MEMORY: (0, node_path_1.join)(home, 'no-managed-CLAUDE.md'),
        };
        const skill = async (dir, text) => {
            await (0, promises_1.mkdir)(dir, { recursive: true });
            await (0, promises_1.writeFile)((0, node_path_1.join)(dir, 'SKILL.md'), text);
        };
        await skill((0, node_path_1.join)(home, '.claude', 'skills', 'review'), '---\ndescription: USER-REVIEW\n---\nUser review steps.\n');
        await skill((0, node_path_1.join)(workDir, '.claude', 'skills', 'review'), '---\ndescription: PROJECT-REVIEW\n---\nProject review steps.\n');
        await skill((0, node_path_1.join)(workDir, '.claude', 'skills', 'deploy'), '---\ndescription: Deploys\n---\nDeploy to $ARGUMENTS.\n');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_cli_skill', name: 'Skill', input: { skill: 'deploy', args: 'staging' } }]), (0, fakeAnthropic_1.textResponse)('deployed'));
        const run = await (0, cli_1.cli)(['run', '--cwd', workDir, '--permission-mode', 'bypassPermissions', 'deploy', 'it'], env, 90_000);
        strict_1.default.equal(run.code, 0, run.stderr);
        strict_1.default.match(run.stdout, /skills: review \(.*\/\.claude\/skills\/review\/SKILL\.md\), deploy \(/);
        strict_1.default.ok(run.stdout.includes((0, node_path_1.join)(home, '.claude', 'skills', 'review', 'SKILL.md')), run.stdout);
        const [first, second] = fake.messageRequests();
        strict_1.default.match(systemOf(first), /- review: USER-REVIEW/);
        strict_1.default.doesNotMatch(systemOf(first), /PROJECT-REVIEW/);
        strict_1.default.match(JSON.stringify((0, fakeAnthropic_1.lastToolResults)(second)[0]?.content), /Deploy to staging\./);
        // A malformed SKILL.md: a usage error naming the file and the key; no session starts.
        await skill((0, node_path_1.join)(workDir, '.claude', 'skills', 'bad'), '---\ndescription: d\ncontext: fork\n---\nb\n');
        const before = fake.messageRequests().length;
        const bad = await (0, cli_1.cli)(['run', '--cwd', workDir, 'go'], env, 60_000);
        strict_1.default.notEqual(bad.code, 0);
        strict_1.default.ok(bad.stderr.includes((0, node_path_1.join)(workDir, '.claude', 'skills', 'bad', 'SKILL.md')), bad.stderr);
        strict_1.default.match(bad.stderr, /frontmatter key "context" is not supported/);
        strict_1.default.doesNotMatch(bad.stdout, /session \S+ started/);
        strict_1.default.equal(fake.messageRequests().length, before);
    });
});
//# sourceMappingURL=skills.test.js.map