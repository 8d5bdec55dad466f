"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.claudeRepo = claudeRepo;
// integration: a repository set up only with Claude Code files (.claude/settings.json,
// .claude/settings.local.json, ~/.claude, CLAUDE.md with an @import) runs through
// `durable-agent run` on the real dev server: the shared deny rule holds, the local allow rule and
// model apply, the memory is in the request the model receives, `status` lists the files; a
// subagent from .claude/agents runs as a child workflow whose final text is the tool_result.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const audit_1 = require("../../src/audit");
const host_1 = require("../../src/sandbox/host");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const cli_1 = require("../support/cli");
const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
(0, node_test_1.after)(async () => {
    await new host_1.SandboxHost().close();
    await (0, temporal_1.closeTestEnv)();
});
function byId(calls, id) {
    const c = calls.find((x) => x.toolUseId === id);
    strict_1.default.ok(c, `no call ${id} in ${calls.map((x) => x.toolUseId).join(', ')}`);
    return c;
}
async function put(path, content) {
    await node_fs_1.promises.mkdir((0, node_path_1.join)(path, '..'), { recursive: true });
    await node_fs_1.promises.writeFile(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    return path;
}
/** The text of a request's first user message. */
function firstUserText(body) {
    const m = body.messages.find((x) => x.role === 'user');
    const c = m?.content;
    if (typeof c === 'string')
        return c;
    return Array.isArray(c)
        ? c.map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('\n')
        : '';
}
/** A repository with Claude Code files only, and a user home with ~/.claude. */
async function claudeRepo(workDir, taskQueue, shared = {}) {
    const home = await node_fs_1.promises.mkdtemp((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-claude-home-'));
    const repo = {
        home,
        env: {
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
            DURABLE_AGENT_TASK_QUEUE: taskQueue,
            CLAUDE_CONFIG_DIR: (0, node_path_1.join)(home, '.claude'),
            DURABLE_AGENT_HOME: (0, node_path_1.join)(home, '.durable-agent'),
            DURABLE_AGENT_MANAGED_SETTINGS: (0, node_path_1.join)(home, 'no-managed-settings.json'),
            DURABLE_AGENT_MANAGED_MEMORY: (0, node_path_1.join)(home, 'no-managed-CLAUDE.md'),
        },
        userSettings: await put((0, node_path_1.join)(home, '.claude', 'settings.json'), {
            model: 'claude-user',
            permissions: { deny: ['Bash(touch user-denied.txt)'] },
        }),
        userMd: await put((0, node_path_1.join)(home, '.claude', 'CLAUDE.md'), 'User rule: sign every answer with KIWI-9.'),
        shared: await put((0, node_path_1.join)(workDir, '.claude', 'settings.json'), {
            $schema: 'https://json.schemastore.org/claude-code-settings.json',
            model: 'claude-shared',
            permissions: { defaultMode: 'dontAsk', deny: ['Bash(touch denied.txt)'], allow: ['mcp__everything'] },
            sandbox: { enabled: true, autoAllowBashIfSandboxed: false },
            hooks: {
                PreToolUse: [
                    {
                        matcher: 'Bash',
                        hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', timeout: 10 }],
                    },
                ],
            },
            ...shared,
        }),
        local: await put((0, node_path_1.join)(workDir, '.claude', 'settings.local.json'), {
            model: 'claude-local',
            permissions: { allow: ['Bash(touch allowed.txt)'] },
            enabledMcpjsonServers: ['everything'],
        }),
        mcpJson: await put((0, node_path_1.join)(workDir, '.mcp.json'), {
            mcpServers: { everything: { command: process.execPath, args: [everything] } },
        }),
        claudeMd: await put((0, node_path_1.join)(workDir, 'CLAUDE.md'), '# Project\nProject rule: the codeword is PINEAPPLE-7.\nStyle: see @docs/style.md\n'),
        imported: await put((0, node_path_1.join)(workDir, 'docs', 'style.md'), 'Imported rule: indent with MANGO-3 tabs.\n'),
    };
    // The hook script blocks (exit 2) any Bash call that mentions hooked.txt.
    const guard = await put((0, node_path_1.join)(workDir, '.claude', 'hooks', 'guard.sh'), '#!/bin/sh\ninput=$(cat)\ncase "$input" in *hooked.txt*) echo "guard: hooked.txt is off limits" >&2; exit 2;; esac\nexit 0\n');
    await node_fs_1.promises.chmod(guard, 0o755);
    return repo;
}
(0, node_test_1.test)('integration: Claude Code settings and CLAUDE.md through `durable-agent run`: shared deny holds, local allow and model apply, memory reaches the model, status lists the files', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, taskQueue, workDir, client }) => {
        const repo = await claudeRepo(workDir, taskQueue);
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_cc_denied', name: 'Bash', input: { command: 'touch denied.txt' } },
            { id: 'toolu_cc_allowed', name: 'Bash', input: { command: 'touch allowed.txt' } },
            { id: 'toolu_cc_norule', name: 'Bash', input: { command: 'touch asked.txt' } },
            { id: 'toolu_cc_user', name: 'Bash', input: { command: 'touch user-denied.txt' } },
            { id: 'toolu_cc_hooked', name: 'Bash', input: { command: 'touch hooked.txt' } },
            { id: 'toolu_cc_mcp', name: 'mcp__everything__echo', input: { message: 'from a Claude Code repo' } },
        ]), (0, fakeAnthropic_1.textResponse)('done, KIWI-9'));
        const run = await (0, cli_1.cli)(['run', '--cwd', workDir, 'make', 'the', 'files'], repo.env, 90_000);
        strict_1.default.equal(run.code, 0, run.stderr);
        const id = /session (\S+) started/.exec(run.stdout)?.[1];
        strict_1.default.ok(id, run.stdout);
        strict_1.default.ok(run.stdout.includes(`settings: ${repo.userSettings}, ${repo.shared}, ${repo.local}`), run.stdout);
        strict_1.default.ok(run.stdout.includes(`memory: ${repo.userMd}, ${repo.claudeMd}, ${repo.imported}`), run.stdout);
        strict_1.default.doesNotMatch(run.stderr, /warning/, 'every key of these files is honoured');
        strict_1.default.ok(run.stdout.includes(`MCP servers: everything (${repo.mcpJson})`), run.stdout);
        // The rules: the shared deny held, the local allow let its command run, a command with no
        // rule was denied (dontAsk from the shared file), the user file's deny held.
        strict_1.default.equal((0, node_fs_1.existsSync)((0, node_path_1.join)(workDir, 'denied.txt')), false, 'the denied command did not run');
        strict_1.default.equal((0, node_fs_1.existsSync)((0, node_path_1.join)(workDir, 'allowed.txt')), true, 'the local allow rule applied');
        strict_1.default.equal((0, node_fs_1.existsSync)((0, node_path_1.join)(workDir, 'asked.txt')), false);
        strict_1.default.equal((0, node_fs_1.existsSync)((0, node_path_1.join)(workDir, 'user-denied.txt')), false);
        const audit = await (0, audit_1.buildAudit)(client, id);
        const denied = byId(audit.toolCalls, 'toolu_cc_denied');
        strict_1.default.deepEqual([denied.status, denied.decision?.source, denied.decision?.detail], ['denied', 'rule', 'Bash(touch denied.txt)']);
        strict_1.default.deepEqual([byId(audit.toolCalls, 'toolu_cc_allowed').status, byId(audit.toolCalls, 'toolu_cc_allowed').decision?.detail], ['ok', 'Bash(touch allowed.txt)']);
        strict_1.default.equal(byId(audit.toolCalls, 'toolu_cc_norule').status, 'denied');
        strict_1.default.equal(byId(audit.toolCalls, 'toolu_cc_user').decision?.detail, 'Bash(touch user-denied.txt)');
        // The PreToolUse hook from .claude/settings.json blocked its call (and let the others through).
        strict_1.default.equal((0, node_fs_1.existsSync)((0, node_path_1.join)(workDir, 'hooked.txt')), false, 'the hook blocked the call');
        const hooked = byId(audit.toolCalls, 'toolu_cc_hooked');
        strict_1.default.deepEqual(hooked.hooks?.map((h) => [h.event, h.outcome]), [['PreToolUse', 'blocking']]);
        strict_1.default.deepEqual(byId(audit.toolCalls, 'toolu_cc_allowed')
            .hooks?.map((h) => [h.event, h.outcome])
            .slice(0, 1), [['PreToolUse', 'success']]);
        // The model request: the local file's model (highest scalar), the memory before the prompt.
        const requests = fake.messageRequests();
        strict_1.default.equal(requests.length, 2);
        const first = requests[0];
        strict_1.default.equal(first.model, 'claude-local');
        const text = firstUserText(first);
        for (const piece of [
            '<system-reminder>',
            `Contents of ${repo.claudeMd} (project instructions, checked into the codebase)`,
            'PINEAPPLE-7',
            'MANGO-3',
            'KIWI-9',
        ]) {
            strict_1.default.ok(text.includes(piece), `${piece} in the first user message:\n${text}`);
        }
        strict_1.default.ok(text.indexOf('KIWI-9') < text.indexOf('PINEAPPLE-7'), 'user memory before project memory');
        strict_1.default.ok(text.trimEnd().endsWith('make the files'), 'the prompt follows the memory');
        strict_1.default.doesNotMatch(JSON.stringify(first.system ?? ''), /PINEAPPLE-7/, 'memory is user context, not the system prompt');
        // Later requests carry it once (in the transcript), not again.
        const second = JSON.stringify(requests[1].messages);
        strict_1.default.equal(second.split('PINEAPPLE-7').length - 1, 1);
        const results = requests[1].messages.at(-1)
            ?.content;
        // The MCP tool from .mcp.json (approved in settings.local.json, allowed in settings.json) returned the server's result.
        const mcpResult = results.find((b) => b.tool_use_id === 'toolu_cc_mcp');
        strict_1.default.equal(mcpResult?.is_error, undefined, JSON.stringify(mcpResult));
        strict_1.default.match(JSON.stringify(mcpResult?.content), /Echo: from a Claude Code repo/);
        const hookResult = results.find((b) => b.tool_use_id === 'toolu_cc_hooked');
        strict_1.default.equal(hookResult?.is_error, true);
        strict_1.default.match(JSON.stringify(hookResult?.content), /guard: hooked\.txt is off limits/);
        // status lists the files.
        const st = await (0, cli_1.cli)(['status', id], repo.env);
        strict_1.default.equal(st.code, 0, st.stderr);
        strict_1.default.ok(st.stdout.includes(`settings  ${repo.userSettings}, ${repo.shared}, ${repo.local}`), st.stdout);
        strict_1.default.ok(st.stdout.includes(`memory    ${repo.userMd}, ${repo.claudeMd}, ${repo.imported}`), st.stdout);
        // The audit too: the files, and the memory's hash instead of its text.
        strict_1.default.deepEqual(audit.session.settingsSources, [repo.userSettings, repo.shared, repo.local]);
        strict_1.default.deepEqual(audit.session.memory?.files, [repo.userMd, repo.claudeMd, repo.imported]);
        strict_1.default.match(audit.session.memory?.sha256 ?? '', /^[0-9a-f]{64}$/);
        const auditText = await (0, cli_1.cli)(['audit', id], repo.env);
        strict_1.default.ok(auditText.stdout.includes(`  memory: ${repo.userMd}, ${repo.claudeMd}, ${repo.imported} (sha256 `), auditText.stdout);
        const sj = JSON.parse((await (0, cli_1.cli)(['status', id, '--json'], repo.env)).stdout);
        strict_1.default.deepEqual(sj.settings, [repo.userSettings, repo.shared, repo.local]);
        strict_1.default.deepEqual(sj.memory, [repo.userMd, repo.claudeMd, repo.imported]);
    });
});
(0, node_test_1.test)('integration: a malformed rule in .claude/settings.json stops `run` with one line naming the file and key; a missing @import is a warning', async () => {
    await (0, agent_1.withAgent)({}, async ({ taskQueue, workDir, fake }) => {
        const repo = await claudeRepo(workDir, taskQueue, { permissions: { deny: ['Bash(rm -rf *'] } });
        const bad = await (0, cli_1.cli)(['run', '--cwd', workDir, 'x'], repo.env);
        strict_1.default.notEqual(bad.code, 0);
        strict_1.default.match(bad.stderr.trim(), new RegExp(`^durable-agent: .*${repo.shared.replace(/[.]/g, '\\.')}: permissions\\.deny\\[0\\] is malformed`));
        strict_1.default.equal(fake.messageRequests().length, 0, 'nothing started');
        await put(repo.shared, { permissions: { deny: ['Bash(rm:*)'] } });
        await put(repo.claudeMd, 'see @docs/missing.md\n');
        fake.enqueue((0, fakeAnthropic_1.textResponse)('ok'));
        const run = await (0, cli_1.cli)(['run', '--cwd', workDir, 'x'], repo.env, 90_000);
        strict_1.default.equal(run.code, 0, run.stderr);
        strict_1.default.ok(run.stderr.includes(`warning: ${repo.claudeMd}: @import ${(0, node_path_1.join)(workDir, 'docs', 'missing.md')} was not found`), run.stderr);
    });
});
(0, node_test_1.test)('integration: a subagent from .claude/agents/reviewer.md runs through `durable-agent run` as a child workflow; its final text is the tool_result', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, taskQueue, workDir, client }) => {
        const repo = await claudeRepo(workDir, taskQueue);
        await put((0, node_path_1.join)(workDir, '.claude', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews a change.\ntools: Read, Grep\n---\nYou are REVIEWER-MARKER. Review and report.\n');
        const systemOf = (req) => typeof req.system === 'string'
            ? req.system
            : Array.isArray(req.system)
                ? req.system.map((b) => b.text ?? '').join('\n')
                : '';
        fake.script(async (req) => {
            if (systemOf(req).includes('REVIEWER-MARKER'))
                return (0, fakeAnthropic_1.textResponse)('reviewer report: LGTM-42');
            if (req.messages.length === 1)
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_cc_agent',
                        name: 'Agent',
                        input: {
                            run_in_background: false,
                            description: 'review',
                            prompt: 'review the change',
                            subagent_type: 'reviewer',
                        },
                    },
                ]);
            return (0, fakeAnthropic_1.textResponse)('the reviewer said LGTM');
        });
        const run = await (0, cli_1.cli)(['run', '--cwd', workDir, 'get', 'a', 'review'], repo.env, 90_000);
        strict_1.default.equal(run.code, 0, run.stderr);
        const id = /session (\S+) started/.exec(run.stdout)?.[1];
        strict_1.default.ok(id, run.stdout);
        // The child session exists as its own workflow, and completed.
        const child = await client.workflow.getHandle(`${id}/agent-toolu_cc_agent`).describe();
        strict_1.default.equal(child.status.name, 'COMPLETED');
        // The reviewer's system prompt is the agent file's body; its text came back as the tool_result.
        const parentReqs = fake
            .messageRequests()
            .filter((r) => !systemOf(r).includes('REVIEWER-MARKER'));
        const last = parentReqs.at(-1);
        const results = last.messages.at(-1)?.content;
        const agentResult = results.find((b) => b.tool_use_id === 'toolu_cc_agent');
        strict_1.default.ok(agentResult, JSON.stringify(results));
        strict_1.default.notEqual(agentResult.is_error, true, JSON.stringify(agentResult));
        strict_1.default.match(JSON.stringify(agentResult.content), /reviewer report: LGTM-42/);
        const audit = await (0, audit_1.buildAudit)(client, id);
        strict_1.default.equal(byId(audit.toolCalls, 'toolu_cc_agent').status, 'ok');
    });
});
//# sourceMappingURL=claude-config.test.js.map