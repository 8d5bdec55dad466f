// unit: the turn child's input (src/temporal/workflows/turnInput.ts) and the tool session its activities get
// from it: by reference (the session stored its settings) or inline (a run before the patch, or a
// store that refused them), the tool activities see the same settings, skills included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sessionInput } from '../../src/temporal/client';
import { initialContext } from '../../src/core/context';
import { initialSessionState } from '../../src/core/session';
import { resolveToolSession, type ToolSessionSettings } from '../../src/toolCall/tools';
import { LocalBlobStore } from '../../src/stores/messageStore';
import { ToolSettingsStore } from '../../src/stores/toolSettingsStore';
import { storedToolSettings, toolSession } from '../../src/temporal/workflows/toolSettings';
import { turnWorkflowInput } from '../../src/temporal/workflows/turnInput';
import type { SessionCarry } from '../../src/temporal/workflows/definitions';
import type { SkillDefinition } from '../../src/agents/skills';

const SKILL: SkillDefinition = {
  name: 'greet',
  description: 'Say hello',
  allowedTools: ['Bash(echo:*)'],
  body: 'Greet.\n',
  dir: '/w/.claude/skills/greet',
  scope: 'project',
  source: '/w/.claude/skills/greet/SKILL.md',
};

test("unit: a turn's tool session has the session's skills whether its settings travel by reference or inline (the store refused them)", async () => {
  const input = sessionInput({
    prompt: 'x',
    cwd: '/w',
    tools: ['Read', 'Bash', 'Skill', 'Agent'],
    skills: [SKILL],
    rules: { allow: ['Read'], ask: [], deny: [] },
  });
  const state = initialSessionState('x', initialContext('/w')) as SessionCarry;
  const run = { sessionId: 's', turn: 1, append: [], agentHooks: undefined };
  const inline = toolSession(
    turnWorkflowInput(input, state, { ...run, toolSettingsRef: undefined }),
  ) as ToolSessionSettings;
  assert.deepEqual(inline.skills, [SKILL]);
  const store = new ToolSettingsStore(new LocalBlobStore(await mkdtemp(join(tmpdir(), 'da-turn-input-'))));
  const ref = await store.put(storedToolSettings(input));
  const byRef = turnWorkflowInput(input, state, { ...run, toolSettingsRef: ref });
  // By reference the skills are in the store, not in the turn's input (nor in any tool activity's).
  assert.equal(byRef.skills, undefined);
  assert.deepEqual(await resolveToolSession(toolSession(byRef), store), inline);
});

test('unit: a session without the Skill tool sends no skills inline', () => {
  const input = sessionInput({ prompt: 'x', cwd: '/w', tools: ['Read'], skills: [SKILL] });
  const state = initialSessionState('x', initialContext('/w')) as SessionCarry;
  const t = turnWorkflowInput(input, state, {
    sessionId: 's',
    turn: 1,
    append: [],
    agentHooks: undefined,
    toolSettingsRef: undefined,
  });
  assert.equal(t.skills, undefined);
  assert.equal((toolSession(t) as ToolSessionSettings).skills, undefined);
});
