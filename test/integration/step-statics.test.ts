// integration: a turn child's static step inputs by reference (issue 33, core/stepStatics.ts). The
// first model call carries them inline and stores them; the later model calls and the tool calls
// carry their key (`staticsRef`, `stepRef`) instead of the settings reference, deny rules, context
// settings, tool session and context. A tool activity's record leaves out the input the turn sent
// it, and the child's result its stored calls' summaries and decisions. The model still gets the
// same system prompt and tools, and the audit still shows every call whole.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { buildAudit, type AuditToolCall } from '../../src/audit';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { configuredBlobStore } from '../../src/stores/configured';
import { StepStaticsStore } from '../../src/stores/stepStaticsStore';
import { turnResultFromHistory } from '../../src/core/payloads';
import type { TurnWorkflowResult } from '../../src/temporal/workflows/definitions';

after(closeTestEnv);

type Wire = Record<string, unknown>;

test('integration: later model calls and the tool calls carry the key of the stored step inputs; the model and the audit see the same', async () => {
  await withAgent({}, async ({ fake, start, workDir, client, storeDir }) => {
    for (const k of [0, 1, 2]) await writeFile(join(workDir, `f${k}.txt`), `file ${k}\n`);
    const reads = (step: number) =>
      toolUseResponse(
        [0, 1, 2].map((k) => ({
          id: `toolu_s${step}_${k}`,
          name: 'Read',
          input: { file_path: join(workDir, `f${k}.txt`) },
        })),
      );
    fake.enqueue(reads(1), reads(2), textResponse('Read them twice.'));
    const handle = await start({ prompt: 'read the files twice', tools: ['Read', 'Grep'] });
    const result = await handle.result();
    assert.equal(result.status, 'completed', result.endReason);
    fake.assertDone();

    // The model got the same static request parts on every step.
    const requests = fake.messageRequests();
    assert.equal(requests.length, 3);
    const statics = (i: number) =>
      JSON.stringify({
        system: requests[i]!.system,
        tools: ((requests[i]!.tools ?? []) as Array<{ name: string }>).map((t) => t.name),
      });
    assert.equal(statics(1), statics(0));
    assert.equal(statics(2), statics(0));

    const events = (await client.workflow.getHandle(`${handle.workflowId}/turn-1`).fetchHistory()).events ?? [];
    const scheduled = (type: string) =>
      events
        .map((e) => e.activityTaskScheduledEventAttributes)
        .filter((a) => a?.activityType?.name === type)
        .map((a) => ({
          id: a!.activityId!,
          input: defaultPayloadConverter.fromPayload<Wire>(a!.input!.payloads![0]!),
        }));
    const models = scheduled('callModel');
    assert.deepEqual(
      models.map((m) => m.id),
      ['model-1', 'model-2', 'model-3'],
    );
    assert.ok(models[0]!.input.describeWith, 'the first call sends its step inputs inline');
    assert.equal(models[0]!.input.staticsRef, undefined);
    for (const m of models.slice(1)) {
      assert.match(String(m.input.staticsRef), /^stepstatics-[a-z2-7]{26}$/, m.id);
      for (const k of ['describeWith', 'settingsRef', 'denyRules', 'streamToolUses'])
        assert.equal(m.input[k], undefined, `${m.id} carries ${k}`);
      assert.equal((m.input.settings as { model?: string } | undefined)?.model !== undefined, true, 'settings stay');
    }
    // Every tool call names the stored step inputs, none copies the session or the context: its
    // `stepRef` is the step inputs' key, or its model answer's (issue 33), which names that key and
    // the answer's node; the block goes by its tool_use id.
    const tools = scheduled('runToolUse');
    assert.equal(tools.length, 6);
    const stepStatics = new StepStaticsStore(configuredBlobStore({ storeDir }));
    for (const t of tools) {
      const ref = String(t.input.stepRef);
      const { answer } = await stepStatics.resolve(ref);
      assert.equal(answer?.statics ?? ref, models[1]!.input.staticsRef, t.id);
      assert.equal(t.input.session, undefined, t.id);
      assert.equal(t.input.context, undefined, t.id);
      assert.equal(t.input.block, undefined, t.id);
      assert.equal(t.input.toolUseId, t.id.slice('tool-'.length), t.id);
    }
    // The tool records leave out the input the turn sent.
    const done = events
      .map((e) => e.activityTaskCompletedEventAttributes?.result?.payloads?.[0])
      .filter((p) => p !== undefined)
      .map((p) => defaultPayloadConverter.fromPayload<{ kind?: string; record?: Wire }>(p!))
      .filter((r) => r.kind === 'done');
    assert.equal(done.length, 6);
    // The tool records leave out what the turn sent and described: input, id, tool name, summary.
    for (const r of done)
      for (const k of ['input', 'toolUseId', 'toolName', 'summary'])
        assert.equal(r.record?.[k], undefined, `a record carries ${k}`);
    // The model's answers leave out the usage their modelUsage holds, and fallback and tombstones when empty.
    const answers = events
      .map((e) => e.activityTaskCompletedEventAttributes?.result?.payloads?.[0])
      .filter((p) => p !== undefined)
      .map((p) => defaultPayloadConverter.fromPayload<Wire & { kind?: string }>(p!))
      .filter((r) => r.kind === 'message');
    assert.equal(answers.length, 3);
    for (const a of answers) {
      assert.ok(a.modelUsage);
      for (const k of ['usage', 'fallback', 'tombstones']) assert.equal(a[k], undefined, `an answer carries ${k}`);
    }

    // The child's result names each stored call by id and status only (the session needs no more);
    // in history a call of its batches that only says `ok` is left out (issue 33), and put back.
    const closing = events.find((e) => e.workflowExecutionCompletedEventAttributes)!;
    const recorded = defaultPayloadConverter.fromPayload<TurnWorkflowResult>(
      closing.workflowExecutionCompletedEventAttributes!.result!.payloads![0]!,
    );
    const childResult = turnResultFromHistory(recorded) as unknown as { records: Wire[] };
    assert.equal(childResult.records.length, 6);
    // (A call started while streaming says so: `early`, and stays.)
    const plain = childResult.records.filter((r) => Object.keys(r).length === 2).length;
    assert.equal(recorded.records.length, 6 - plain, 'the plain ok records are left out of history');
    assert.equal(recorded.plainOk, plain > 0 ? true : undefined);
    for (const r of childResult.records) {
      assert.deepEqual(
        Object.keys(r).filter((k) => k !== 'early'),
        ['toolUseId', 'status'],
      );
    }

    // The audit shows each call whole: its tool, summary, input, decision and preview.
    const audit = await buildAudit(client, handle.workflowId);
    const calls: AuditToolCall[] = audit.toolCalls;
    assert.equal(calls.length, 6);
    for (const c of calls) {
      const k = c.toolUseId.slice(-1);
      assert.deepEqual(c.input, { file_path: join(workDir, `f${k}.txt`) }, c.toolUseId);
      assert.equal(c.tool, 'Read');
      assert.equal(c.summary, `Read ${join(workDir, `f${k}.txt`)}`);
      assert.equal(c.status, 'ok');
      assert.ok(c.decision, `${c.toolUseId} has its decision`);
      assert.match(c.resultPreview, new RegExp(`file ${k}`));
    }
    // ... and each model call's usage, rebuilt from its modelUsage.
    assert.equal(audit.modelCalls.length, 3);
    for (const m of audit.modelCalls) {
      assert.ok(m.usage && m.usage.output_tokens > 0, 'the model call has its usage');
      assert.equal(m.fallback, false);
      assert.deepEqual(m.tombstones, []);
    }
  });
});
