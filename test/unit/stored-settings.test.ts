// unit: the model's static settings by reference (issue 33). A session run that stored its settings
// with the system prompt starts turns whose input, and whose model calls' inputs, carry the
// reference instead of the system prompt, tool names and agent definitions; the model activity
// reads them back (runtime/storedSettings.ts) and sees exactly what the inline input held. A run
// recorded before (a bare key) and the in-process runner send them inline, unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sessionInput } from '../../src/temporal/client';
import { initialContext } from '../../src/core/context';
import { initialSessionState } from '../../src/core/session';
import { INITIAL_VIEW } from '../../src/core/contextView';
import { managedModelStep, type ModelCallArgs } from '../../src/core/modelStep';
import { resolveToolSession } from '../../src/toolCall/tools';
import { withStoredSettings } from '../../src/runtime/storedSettings';
import { LocalBlobStore, MissingBlobError } from '../../src/stores/messageStore';
import { ToolSettingsStore } from '../../src/stores/toolSettingsStore';
import { storedToolSettings, toolSession } from '../../src/temporal/workflows/toolSettings';
import { turnWorkflowInput } from '../../src/temporal/workflows/turnInput';
import type { SessionCarry, TurnWorkflowInput } from '../../src/temporal/workflows/definitions';
import type { AgentDefinition } from '../../src/agents/definitions';

const SYSTEM = 'You are the unit test system prompt: a static part of every turn. '.repeat(8);
const AGENT: AgentDefinition = {
  name: 'reviewer-of-static-settings',
  description: 'Reviews code',
  systemPrompt: 'Review it.',
  source: 'project',
};

function session(tools = ['Read', 'Bash', 'Agent']) {
  const input = sessionInput({ prompt: 'x', cwd: '/w', tools, agents: [AGENT] });
  return { ...input, model: { ...input.model, system: SYSTEM } };
}
const state = initialSessionState('x', initialContext('/w')) as SessionCarry;
const run = { sessionId: 's', turn: 2, append: [], agentHooks: undefined };

async function store(): Promise<ToolSettingsStore> {
  return new ToolSettingsStore(new LocalBlobStore(await mkdtemp(join(tmpdir(), 'da-stored-settings-'))));
}

/** The callModel input the turn's model step builds from a turn input (a runner that records it). */
async function modelCallArgs(turn: TurnWorkflowInput): Promise<ModelCallArgs<AgentDefinition, unknown>> {
  let args: ModelCallArgs<AgentDefinition, unknown> | undefined;
  await managedModelStep(turn, {
    async callModel(a) {
      args = a;
      return { kind: 'message' as const, view: INITIAL_VIEW };
    },
    compact: () => Promise.reject(new Error('no compaction here')),
  });
  assert.ok(args);
  return args;
}

test("unit: a turn started with settingsRef carries no system prompt, tool names or agent definitions; the model's name and limits stay", async () => {
  const input = session();
  const s = await store();
  const ref = await s.put(storedToolSettings(input));
  const turn = turnWorkflowInput(input, state, { ...run, toolSettingsRef: undefined, settingsRef: ref });
  const json = JSON.stringify(turn);
  assert.ok(!json.includes('unit test system prompt'), 'the system prompt is not in the turn input');
  assert.ok(!json.includes(AGENT.name), 'the agent definitions are not in the turn input');
  assert.equal(turn.tools, undefined);
  assert.equal(turn.model.system, undefined);
  assert.equal(turn.model.model, input.model.model);
  assert.equal(turn.model.maxTokens, input.model.maxTokens);
  assert.equal(turn.settingsRef, ref);
  assert.equal(turn.toolSettingsRef, undefined);
  // The Agent tool is still offered: the turn runs Agent calls as child sessions.
  assert.deepEqual(turn.subagents, {});

  const inline = turnWorkflowInput(input, state, { ...run, toolSettingsRef: undefined });
  assert.ok(JSON.stringify(inline).includes('unit test system prompt'));
  assert.ok(
    json.length < JSON.stringify(inline).length - SYSTEM.length,
    `${json.length} vs ${JSON.stringify(inline).length}`,
  );
});

test("unit: the model call's input by reference reads back to the inline input (system prompt, tool names, agents); the tool session too", async () => {
  const input = session();
  const s = await store();
  const ref = await s.put(storedToolSettings(input));
  const byRef = turnWorkflowInput(input, state, { ...run, toolSettingsRef: undefined, settingsRef: ref });
  const inline = turnWorkflowInput(input, state, { ...run, toolSettingsRef: undefined });
  const refArgs = await modelCallArgs(byRef);
  const inlineArgs = await modelCallArgs(inline);
  assert.equal(refArgs.settingsRef, ref);
  assert.equal(refArgs.toolNames, undefined);
  assert.equal(refArgs.agents, undefined);
  assert.ok(!JSON.stringify(refArgs).includes('unit test system prompt'));
  assert.equal(inlineArgs.settingsRef, undefined);
  assert.deepEqual(inlineArgs.toolNames, input.tools);
  assert.deepEqual(inlineArgs.agents, [AGENT]);
  assert.equal(inlineArgs.settings.system, SYSTEM);
  // What the activity works with is the same either way.
  assert.deepEqual(await withStoredSettings(refArgs, s), inlineArgs);
  // The inline input passes through as it is (the in-process runner, turns recorded before).
  assert.equal(await withStoredSettings(inlineArgs, undefined), inlineArgs);
  assert.deepEqual(
    await resolveToolSession(toolSession(byRef), s),
    await resolveToolSession(toolSession(turnWorkflowInput(input, state, { ...run, toolSettingsRef: ref })), s),
  );
});

test('unit: a session without Agent, without a system prompt: nothing is added back that was not there', async () => {
  const base = sessionInput({ prompt: 'x', cwd: '/w', tools: ['Read'] });
  const input = { ...base, model: { model: base.model.model, maxTokens: base.model.maxTokens } };
  const s = await store();
  const ref = await s.put(storedToolSettings(input));
  const byRef = turnWorkflowInput(input, state, { ...run, toolSettingsRef: undefined, settingsRef: ref });
  assert.equal(byRef.subagents, undefined);
  const resolved = await withStoredSettings(await modelCallArgs(byRef), s);
  assert.deepEqual(
    resolved,
    await modelCallArgs(turnWorkflowInput(input, state, { ...run, toolSettingsRef: undefined })),
  );
  assert.equal('system' in resolved.settings, false);
  assert.equal('agents' in resolved, false);
});

test('unit: a model call by reference fails clearly without a store, with a missing blob, or with neither tool names nor reference', async () => {
  const settings = { model: 'claude-sonnet-4-5', maxTokens: 1000 };
  await assert.rejects(withStoredSettings({ settings, settingsRef: 'toolsettings-abc' }, undefined), /no store/);
  await assert.rejects(
    withStoredSettings({ settings, settingsRef: 'toolsettings-abc' }, await store()),
    MissingBlobError,
  );
  await assert.rejects(withStoredSettings({ settings }, undefined), /needs its tool names, or the reference/);
});

test("unit: a run recorded before (a bare key: the blob has no system prompt) keeps the turn's static settings inline", async () => {
  const input = session();
  const turn = turnWorkflowInput(input, state, { ...run, toolSettingsRef: 'toolsettings-old' });
  assert.equal(turn.settingsRef, undefined);
  assert.equal(turn.toolSettingsRef, 'toolsettings-old');
  assert.equal(turn.model.system, SYSTEM);
  assert.deepEqual(turn.tools, input.tools);
  assert.deepEqual(turn.subagents?.agents, [AGENT]);
  const args = await modelCallArgs(turn);
  assert.equal(args.settingsRef, undefined);
  assert.equal(args.settings.system, SYSTEM);
});
