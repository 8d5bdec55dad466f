"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: the reference's subagent hook events on the real dev server. A subagent (a child
// session workflow) fires SubagentStart and SubagentStop — matched by agent type — instead of
// SessionStart and Stop, and no UserPromptSubmit or SessionEnd; every hook input inside it carries
// the parent's session_id, agent_id and agent_type (checked against Claude Code 2.1.197). A
// SubagentStop hook that blocks keeps the subagent going with the reason as its next message; the
// second SubagentStop sees stop_hook_active.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const audit_1 = require("../../src/audit");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
(0, node_test_1.after)(temporal_1.closeTestEnv);
function systemOf(req) {
    const s = req.system;
    if (typeof s === 'string')
        return s;
    return Array.isArray(s) ? s.map((b) => b.text ?? '').join('\n') : '';
}
(0, node_test_1.test)('integration: a subagent fires SubagentStart/SubagentStop (agent-type matcher) with the parent session_id; a blocking SubagentStop keeps it going', { timeout: 120_000 }, async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, workDir, client }) => {
        await (0, promises_1.mkdir)((0, node_path_1.join)(workDir, '.claude', 'agents'), { recursive: true });
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, '.claude', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews.\ntools: Read\n---\nYou are MARKER-REVIEWER.\n');
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, 'notes.txt'), 'ok\n');
        const log = (0, node_path_1.join)(workDir, 'hooks.jsonl');
        const rec = `(cat; echo) >> '${log}'`;
        // Blocks the first time only (the reference's loop guard: stop_hook_active).
        const blockOnce = `f=$(mktemp); cat > "$f"; (cat "$f"; echo) >> '${log}'; grep -q '"stop_hook_active":false' "$f" && echo '{"decision":"block","reason":"run the tests too"}'; rm -f "$f"; true`;
        const hooks = {
            SessionStart: [{ hooks: [{ type: 'command', command: rec }] }],
            UserPromptSubmit: [{ hooks: [{ type: 'command', command: rec }] }],
            Stop: [{ hooks: [{ type: 'command', command: rec }] }],
            SessionEnd: [{ hooks: [{ type: 'command', command: rec }] }],
            PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: rec }] }],
            SubagentStart: [
                {
                    matcher: 'reviewer',
                    hooks: [
                        {
                            type: 'command',
                            command: `${rec}; echo '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"START-CONTEXT"}}'`,
                        },
                    ],
                },
                { matcher: 'Explore', hooks: [{ type: 'command', command: `echo never >> '${log}.explore'` }] },
            ],
            SubagentStop: [
                { matcher: 'reviewer', hooks: [{ type: 'command', command: blockOnce }] },
                { matcher: 'Explore', hooks: [{ type: 'command', command: `echo never >> '${log}.explore'` }] },
            ],
        };
        fake.script((req) => {
            if (systemOf(req).includes('MARKER-REVIEWER')) {
                if (!req.messages.some((m) => m.role === 'assistant'))
                    return (0, fakeAnthropic_1.toolUseResponse)([
                        { id: 'toolu_child_read', name: 'Read', input: { file_path: (0, node_path_1.join)(workDir, 'notes.txt') } },
                    ]);
                if ((0, fakeAnthropic_1.lastUserText)(req).includes('run the tests too'))
                    return (0, fakeAnthropic_1.textResponse)('second report: tests ran');
                return (0, fakeAnthropic_1.textResponse)('first report');
            }
            if (req.messages.length === 1)
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_agent',
                        name: 'Agent',
                        input: {
                            run_in_background: false,
                            description: 'review',
                            prompt: 'review the notes',
                            subagent_type: 'reviewer',
                        },
                    },
                ]);
            return (0, fakeAnthropic_1.textResponse)('parent done');
        });
        const handle = await start({
            prompt: 'delegate',
            tools: ['Read', 'Agent'],
            permissionMode: 'bypassPermissions',
            hooks: hooks,
        });
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed', result.endReason);
        const parentId = handle.workflowId;
        const childId = `${parentId}/agent-toolu_agent`;
        const seen = (await (0, promises_1.readFile)(log, 'utf8'))
            .split('\n')
            .filter((l) => l.trim())
            .map((l) => JSON.parse(l));
        const events = seen.map((s) => `${String(s.hook_event_name)}${s.agent_id ? '@child' : ''}`);
        strict_1.default.deepEqual(events, [
            'SessionStart',
            'UserPromptSubmit',
            'SubagentStart@child',
            'PreToolUse@child',
            'SubagentStop@child',
            'SubagentStop@child',
            'Stop',
            'SessionEnd',
        ]);
        for (const s of seen)
            strict_1.default.equal(s.session_id, parentId, `${String(s.hook_event_name)} carries the parent's session_id`);
        const inChild = seen.filter((s) => s.agent_id);
        for (const s of inChild) {
            strict_1.default.equal(s.agent_id, childId);
            strict_1.default.equal(s.agent_type, 'reviewer');
        }
        const [stop1, stop2] = inChild.filter((s) => s.hook_event_name === 'SubagentStop');
        strict_1.default.equal(stop1?.stop_hook_active, false);
        strict_1.default.equal(stop1?.last_assistant_message, 'first report');
        strict_1.default.equal(stop2?.stop_hook_active, true);
        strict_1.default.equal(stop2?.last_assistant_message, 'second report: tests ran');
        await (0, promises_1.access)(String(stop1?.agent_transcript_path));
        strict_1.default.match(await (0, promises_1.readFile)(String(stop2?.agent_transcript_path), 'utf8'), /run the tests too/);
        await strict_1.default.rejects((0, promises_1.access)(`${log}.explore`), 'hooks matching another agent type never ran');
        // SubagentStart's context reached the subagent; the Agent call's result is the text after the block.
        const childFirst = fake.messageRequests().find((r) => systemOf(r).includes('MARKER-REVIEWER'));
        strict_1.default.match(JSON.stringify(childFirst.messages), /SubagentStart hook additional context: START-CONTEXT/);
        const parentLast = fake
            .messageRequests()
            .filter((r) => !systemOf(r).includes('MARKER-REVIEWER'))
            .at(-1);
        strict_1.default.match(JSON.stringify((0, fakeAnthropic_1.lastToolResults)(parentLast)[0]?.content), /second report: tests ran/);
        // The audit lists the session-level hook firings with what they meant, the parent's and the subagent's (text and JSON).
        const audit = await (0, audit_1.buildAudit)(client, parentId);
        strict_1.default.deepEqual(audit.sessionHooks?.map((h) => [h.activityId, h.status, h.decision]), [
            ['hook-SessionStart-1', 'completed', 'proceeded'],
            ['hook-UserPromptSubmit-1', 'completed', 'proceeded'],
            ['hook-Stop-1', 'completed', 'proceeded'],
            ['hook-SessionEnd-1', 'completed', 'proceeded'],
        ]);
        strict_1.default.deepEqual(audit.sessionHooks?.[0]?.fields, { source: 'startup' });
        strict_1.default.deepEqual(audit.sessionHooks?.[1]?.fields, { prompt: 'delegate' });
        const child = audit.subagents?.[0];
        strict_1.default.deepEqual(child?.sessionHooks?.map((h) => [h.event, h.decision, h.reason ?? '', h.fields.stop_hook_active ?? '-']), [
            ['SubagentStart', 'proceeded', '', '-'],
            ['SubagentStop', 'blocked', 'run the tests too', false],
            ['SubagentStop', 'proceeded', '', true],
        ]);
        strict_1.default.deepEqual(child?.sessionHooks?.[0]?.additionalContext, ['START-CONTEXT']);
        strict_1.default.equal(child?.sessionHooks?.[0]?.hooks[0]?.outcome, 'success');
        const text = (0, audit_1.formatAuditText)(audit);
        strict_1.default.match(text, /hook-SessionStart-1 +SessionStart source="startup": 1 hook \(success\)/);
        strict_1.default.match(text, /hook-SubagentStop-1 +SubagentStop .*blocked .*blocked: run the tests too/);
        const lines = (0, audit_1.auditJsonLines)(audit)
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l));
        strict_1.default.ok(lines.some((l) => l.kind === 'session_hook' && l.activityId === 'hook-Stop-1'));
    });
});
//# sourceMappingURL=subagent-hooks.test.js.map