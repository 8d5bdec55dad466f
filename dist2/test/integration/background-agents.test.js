"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: background agents and isolated agents (issue 19) on the real dev server. An Agent call
// without run_in_background starts its child session and returns the reference's "Async agent
// launched" result at once; the parent's turn ends while the child still runs (the child's model
// answer is held until then), the session waits for the `local_agent` task, and the child's end
// comes back as the reference's agent `<task-notification>` (result, usage) that starts the next
// parent turn. TaskStop on a running background agent cancels its child session, and no
// notification follows. `isolation: "worktree"`: the child works in `.claude/worktrees/agent-<id>`
// (its Write lands there, not in the parent's tree; the worktree is kept and named in the
// notification), and an isolated child that changed nothing leaves no worktree or branch.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const client_1 = require("../../src/client");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const wait_1 = require("../support/wait");
(0, node_test_1.after)(temporal_1.closeTestEnv);
function texts(content) {
    if (typeof content === 'string')
        return [content];
    if (!Array.isArray(content))
        return [];
    return content.flatMap((b) => {
        if (b.type === 'text')
            return [b.text ?? ''];
        if (b.type === 'tool_result')
            return texts(b.content);
        return [];
    });
}
const firstUser = (req) => texts(req.messages[0]?.content).join('\n');
const lastUser = (req) => {
    const last = [...req.messages].reverse().find((m) => m.role === 'user');
    return last ? texts(last.content).join('\n') : '';
};
function systemOf(req) {
    const s = req.system;
    if (typeof s === 'string')
        return s;
    return Array.isArray(s) ? s.map((b) => b.text ?? '').join('\n') : '';
}
const LAUNCHED = /^Async agent launched successfully\.\nagentId: (a[0-9a-f]{16}) /;
(0, node_test_1.test)('integration: a background agent returns at once, the parent ends its turn, and the child report starts the next turn as a task notification', { timeout: 180_000 }, async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, client }) => {
        let sawWaiting;
        const parentWaiting = new Promise((r) => (sawWaiting = r));
        const notifications = [];
        let launched = '';
        fake.script(async (req) => {
            if (firstUser(req).includes('SUBTASK')) {
                // The child answers only once its parent was seen waiting for it (its launching turn ended).
                await parentWaiting;
                return (0, fakeAnthropic_1.textResponse)('CHILD REPORT: <all> & done');
            }
            const last = lastUser(req);
            if (last.includes('<task-notification>')) {
                notifications.push(last);
                return (0, fakeAnthropic_1.textResponse)('Got the report.');
            }
            if (req.messages.length === 1)
                return (0, fakeAnthropic_1.toolUseResponse)([
                    { id: 'toolu_bga', name: 'Agent', input: { description: 'check things', prompt: 'SUBTASK: check' } },
                ]);
            launched = (0, fakeAnthropic_1.lastToolResults)(req)
                .flatMap((r) => texts(r.content))
                .join('\n');
            return (0, fakeAnthropic_1.textResponse)('The agent is on it.');
        });
        const handle = await start({ prompt: 'delegate it', tools: ['Read', 'Agent', 'TaskStop'] });
        const waiting = await (0, wait_1.waitFor)('the parent to wait for its agent', async () => {
            const s = await (0, client_1.sessionStatus)(client, handle.workflowId);
            return s.status === 'waiting' && s.phase === 'waiting_for_work' ? s : undefined;
        }, 60_000);
        sawWaiting();
        const m = LAUNCHED.exec(launched);
        strict_1.default.ok(m, `launched result: ${launched}`);
        const taskId = m[1];
        strict_1.default.deepEqual(waiting.autonomy?.tasks.map((t) => [t.id, t.kind, t.state, t.description, t.agent?.sessionId]), [[taskId, 'local_agent', 'running', 'check things', `${handle.workflowId}/agent-toolu_bga`]]);
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed', result.endReason);
        strict_1.default.equal(result.lastText, 'Got the report.');
        strict_1.default.equal(notifications.length, 1);
        const n = notifications[0];
        strict_1.default.match(n, new RegExp(`<task-id>${taskId}</task-id>\\n<tool-use-id>toolu_bga</tool-use-id>\\n<status>completed</status>`));
        strict_1.default.match(n, /<summary>Agent "check things" finished<\/summary>/);
        strict_1.default.match(n, /<result>CHILD REPORT: &lt;all&gt; &amp; done<\/result>/);
        strict_1.default.match(n, /<usage><subagent_tokens>[1-9]\d*<\/subagent_tokens><tool_uses>0<\/tool_uses><duration_ms>\d+<\/duration_ms><\/usage>/);
        // The parent's requests: the launch, the end of that turn, the notification's turn.
        strict_1.default.equal(fake.messageRequests().filter((r) => !firstUser(r).includes('SUBTASK')).length, 3);
        // The child is its own workflow, not closed with the turn that started it.
        const child = await client.workflow.getHandle(`${handle.workflowId}/agent-toolu_bga`).describe();
        strict_1.default.equal(child.status.name, 'COMPLETED');
    });
});
(0, node_test_1.test)('integration: TaskStop on a running background agent cancels its child session; no notification follows', { timeout: 180_000 }, async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, client }) => {
        let childAsked;
        const childStarted = new Promise((r) => (childAsked = r));
        let release;
        const never = new Promise((r) => (release = r));
        const seen = [];
        fake.script(async (req) => {
            if (firstUser(req).includes('SUBTASK')) {
                childAsked();
                await never; // the child runs until it is stopped
                return (0, fakeAnthropic_1.textResponse)('too late');
            }
            const last = lastUser(req);
            seen.push(last);
            if (req.messages.length === 1)
                return (0, fakeAnthropic_1.toolUseResponse)([
                    { id: 'toolu_bgs', name: 'Agent', input: { description: 'long job', prompt: 'SUBTASK: forever' } },
                ]);
            const m = /agentId: (a[0-9a-f]{16})/.exec(last);
            if (m) {
                await childStarted;
                return (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_stop', name: 'TaskStop', input: { task_id: m[1] } }]);
            }
            return (0, fakeAnthropic_1.textResponse)('Stopped it.');
        });
        try {
            const handle = await start({ prompt: 'start and stop', tools: ['Agent', 'TaskStop'] });
            const result = await handle.result();
            strict_1.default.equal(result.status, 'completed', result.endReason);
            strict_1.default.equal(result.lastText, 'Stopped it.');
            strict_1.default.match(seen.at(-1) ?? '', /Successfully stopped task: a[0-9a-f]{16} \(long job\)/);
            strict_1.default.ok(!seen.some((t) => t.includes('<task-notification>')), 'no notification after TaskStop');
            const child = client.workflow.getHandle(`${handle.workflowId}/agent-toolu_bgs`);
            await (0, wait_1.waitFor)('the child session to be cancelled', async () => ((await child.describe()).status.name === 'CANCELLED' ? true : undefined), 60_000);
            const s = await (0, client_1.sessionStatus)(client, handle.workflowId);
            strict_1.default.deepEqual(s.autonomy?.tasks.map((t) => [t.kind, t.state]), [['local_agent', 'killed']]);
        }
        finally {
            release();
        }
    });
});
(0, node_test_1.test)('integration: isolation worktree: the child writes in its own worktree (kept, named in the notification); an unchanged one is removed', { timeout: 180_000 }, async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, workDir }) => {
        const git = (...args) => (0, node_child_process_1.execFileSync)('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: workDir }).toString();
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, 'a.txt'), 'a\n');
        git('init', '-q');
        git('add', '.');
        git('commit', '-qm', 'init');
        const childCwds = {};
        const notifications = [];
        let fgResult = [];
        fake.script((req) => {
            const first = firstUser(req);
            const cwd = /The working directory is (\S+)\.$/m.exec(systemOf(req))?.[1] ?? '';
            if (first.includes('SUBTASK-WRITE')) {
                childCwds.write = cwd;
                if (req.messages.length === 1)
                    return (0, fakeAnthropic_1.toolUseResponse)([
                        {
                            id: 'toolu_subwrite',
                            name: 'Write',
                            input: { file_path: (0, node_path_1.join)(cwd, 'sub.txt'), content: 'from sub\n' },
                        },
                    ]);
                return (0, fakeAnthropic_1.textResponse)('wrote sub.txt');
            }
            if (first.includes('SUBTASK-NOTHING')) {
                childCwds.nothing = cwd;
                return (0, fakeAnthropic_1.textResponse)('nothing to change');
            }
            const last = lastUser(req);
            if (last.includes('<task-notification>')) {
                notifications.push(last);
                return (0, fakeAnthropic_1.textResponse)('All done.');
            }
            if (req.messages.length === 1)
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_iso_bg',
                        name: 'Agent',
                        input: { description: 'write it', prompt: 'SUBTASK-WRITE', isolation: 'worktree' },
                    },
                    {
                        id: 'toolu_iso_fg',
                        name: 'Agent',
                        input: {
                            description: 'look only',
                            prompt: 'SUBTASK-NOTHING',
                            isolation: 'worktree',
                            run_in_background: false,
                        },
                    },
                ]);
            fgResult = (0, fakeAnthropic_1.lastToolResults)(req)
                .filter((r) => r.tool_use_id === 'toolu_iso_fg')
                .flatMap((r) => texts(r.content));
            return (0, fakeAnthropic_1.textResponse)('Waiting.');
        });
        const handle = await start({ prompt: 'isolate', tools: ['Agent', 'Write', 'Read'] });
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed', result.endReason);
        const wtRoot = (0, node_path_1.join)(workDir, '.claude', 'worktrees');
        // The writing child worked in its own worktree: the file is there, not in the parent's tree.
        strict_1.default.match(childCwds.write ?? '', new RegExp(`^${wtRoot}/agent-a[0-9a-f]{16}$`));
        strict_1.default.equal((0, node_fs_1.readFileSync)((0, node_path_1.join)(childCwds.write, 'sub.txt'), 'utf8'), 'from sub\n');
        strict_1.default.equal((0, node_fs_1.existsSync)((0, node_path_1.join)(workDir, 'sub.txt')), false);
        const name = childCwds.write.slice(wtRoot.length + 1);
        strict_1.default.match(git('worktree', 'list'), new RegExp(`${name} +[0-9a-f]+ \\[worktree-${name}\\]`));
        strict_1.default.equal(notifications.length, 1);
        strict_1.default.match(notifications[0], new RegExp(`<result>wrote sub.txt</result>\\n<usage>.*</usage>\\n<worktree><worktreePath>${childCwds.write}</worktreePath><worktreeBranch>worktree-${name}</worktreeBranch></worktree>\\n</task-notification>`));
        // The foreground child changed nothing: its worktree and branch are gone, and its result names none.
        strict_1.default.match(childCwds.nothing ?? '', new RegExp(`^${wtRoot}/agent-a[0-9a-f]{16}$`));
        strict_1.default.equal((0, node_fs_1.existsSync)(childCwds.nothing), false);
        const gone = childCwds.nothing.slice(wtRoot.length + 1);
        strict_1.default.equal(git('branch', '--list', `worktree-${gone}`).trim(), '');
        strict_1.default.equal(fgResult[0], 'nothing to change');
        strict_1.default.ok(!fgResult.join('\n').includes('worktreePath'), fgResult.join('\n'));
    });
});
//# sourceMappingURL=background-agents.test.js.map