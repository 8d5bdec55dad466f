// integration: the reference's subagent hook events on the real dev server. A subagent (a child
// session workflow) fires SubagentStart and SubagentStop — matched by agent type — instead of
// SessionStart and Stop, and no UserPromptSubmit or SessionEnd; every hook input inside it carries
// the parent's session_id, agent_id and agent_type (checked against Claude Code 2.1.197). A
// SubagentStop hook that blocks keeps the subagent going with the reason as its next message; the
// second SubagentStop sees stop_hook_active.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  lastToolResults,
  lastUserText,
  textResponse,
  toolUseResponse,
  type MessagesRequest,
} from '../../src/testing/fakeAnthropic';
import { auditJsonLines, buildAudit, formatAuditText } from '../../src/audit';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';

after(closeTestEnv);

function systemOf(req: MessagesRequest): string {
  const s = req.system as unknown;
  if (typeof s === 'string') return s;
  return Array.isArray(s) ? s.map((b) => (b as { text?: string }).text ?? '').join('\n') : '';
}

test(
  'integration: a subagent fires SubagentStart/SubagentStop (agent-type matcher) with the parent session_id; a blocking SubagentStop keeps it going',
  { timeout: 120_000 },
  async () => {
    await withAgent({}, async ({ fake, start, workDir, client }) => {
      await mkdir(join(workDir, '.claude', 'agents'), { recursive: true });
      await writeFile(
        join(workDir, '.claude', 'agents', 'reviewer.md'),
        '---\nname: reviewer\ndescription: Reviews.\ntools: Read\n---\nYou are MARKER-REVIEWER.\n',
      );
      await writeFile(join(workDir, 'notes.txt'), 'ok\n');
      const log = join(workDir, 'hooks.jsonl');
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
            return toolUseResponse([
              { id: 'toolu_child_read', name: 'Read', input: { file_path: join(workDir, 'notes.txt') } },
            ]);
          if (lastUserText(req).includes('run the tests too')) return textResponse('second report: tests ran');
          return textResponse('first report');
        }
        if (req.messages.length === 1)
          return toolUseResponse([
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
        return textResponse('parent done');
      });
      const handle = await start({
        prompt: 'delegate',
        tools: ['Read', 'Agent'],
        permissionMode: 'bypassPermissions',
        hooks: hooks as never,
      });
      const result = await handle.result();
      assert.equal(result.status, 'completed', result.endReason);
      const parentId = handle.workflowId;
      const childId = `${parentId}/agent-toolu_agent`;

      const seen = (await readFile(log, 'utf8'))
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const events = seen.map((s) => `${String(s.hook_event_name)}${s.agent_id ? '@child' : ''}`);
      assert.deepEqual(events, [
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
        assert.equal(s.session_id, parentId, `${String(s.hook_event_name)} carries the parent's session_id`);
      const inChild = seen.filter((s) => s.agent_id);
      for (const s of inChild) {
        assert.equal(s.agent_id, childId);
        assert.equal(s.agent_type, 'reviewer');
      }
      const [stop1, stop2] = inChild.filter((s) => s.hook_event_name === 'SubagentStop');
      assert.equal(stop1?.stop_hook_active, false);
      assert.equal(stop1?.last_assistant_message, 'first report');
      assert.equal(stop2?.stop_hook_active, true);
      assert.equal(stop2?.last_assistant_message, 'second report: tests ran');
      await access(String(stop1?.agent_transcript_path));
      assert.match(await readFile(String(stop2?.agent_transcript_path), 'utf8'), /run the tests too/);
      await assert.rejects(access(`${log}.explore`), 'hooks matching another agent type never ran');

      // SubagentStart's context reached the subagent; the Agent call's result is the text after the block.
      const childFirst = fake.messageRequests().find((r) => systemOf(r).includes('MARKER-REVIEWER'))!;
      assert.match(JSON.stringify(childFirst.messages), /SubagentStart hook additional context: START-CONTEXT/);
      const parentLast = fake
        .messageRequests()
        .filter((r) => !systemOf(r).includes('MARKER-REVIEWER'))
        .at(-1)!;
      assert.match(JSON.stringify(lastToolResults(parentLast)[0]?.content), /second report: tests ran/);

      // The audit lists the session-level hook firings with what they meant, the parent's and the subagent's (text and JSON).
      const audit = await buildAudit(client, parentId);
      assert.deepEqual(
        audit.sessionHooks?.map((h) => [h.activityId, h.status, h.decision]),
        [
          ['hook-SessionStart-1', 'completed', 'proceeded'],
          ['hook-UserPromptSubmit-1', 'completed', 'proceeded'],
          ['hook-Stop-1', 'completed', 'proceeded'],
          ['hook-SessionEnd-1', 'completed', 'proceeded'],
        ],
      );
      assert.deepEqual(audit.sessionHooks?.[0]?.fields, { source: 'startup' });
      assert.deepEqual(audit.sessionHooks?.[1]?.fields, { prompt: 'delegate' });
      const child = audit.subagents?.[0];
      assert.deepEqual(
        child?.sessionHooks?.map((h) => [h.event, h.decision, h.reason ?? '', h.fields.stop_hook_active ?? '-']),
        [
          ['SubagentStart', 'proceeded', '', '-'],
          ['SubagentStop', 'blocked', 'run the tests too', false],
          ['SubagentStop', 'proceeded', '', true],
        ],
      );
      assert.deepEqual(child?.sessionHooks?.[0]?.additionalContext, ['START-CONTEXT']);
      assert.equal(child?.sessionHooks?.[0]?.hooks[0]?.outcome, 'success');
      const text = formatAuditText(audit);
      assert.match(text, /hook-SessionStart-1 +SessionStart source="startup": 1 hook \(success\)/);
      assert.match(text, /hook-SubagentStop-1 +SubagentStop .*blocked .*blocked: run the tests too/);
      const lines = auditJsonLines(audit)
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { kind: string; activityId?: string });
      assert.ok(lines.some((l) => l.kind === 'session_hook' && l.activityId === 'hook-Stop-1'));
    });
  },
);
