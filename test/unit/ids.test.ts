// unit: the names sessions leave in histories are defined once (src/core/ids.ts) and used by the
// workflows and the audit alike: the definitions carry them, the ids round-trip, and the audit
// holds no hand-written copy of an activity id, activity type, signal name or turn-id pattern.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ACTIVITY_TYPES,
  SIGNALS,
  QUERIES,
  UPDATES,
  activityIds,
  decidedByActivityId,
  sessionOfTurnWorkflowId,
  toolCallActivityIds,
  turnOfWorkflowId,
  turnWorkflowId,
} from '../../src/core/ids';
import * as defs from '../../src/temporal/workflows/definitions';
import { modelActivityId } from '../../src/temporal/workflows/modelStep';

const srcRoot = join(__dirname, '..', '..', '..', 'src');

test('unit: signal, query and update definitions carry the shared names', () => {
  assert.equal(defs.interruptSignal.name, SIGNALS.interrupt);
  assert.equal(defs.sendMessageSignal.name, SIGNALS.sendMessage);
  assert.equal(defs.turnInterruptSignal.name, SIGNALS.turnInterrupt);
  assert.equal(defs.turnApprovalSignal.name, SIGNALS.turnApproval);
  assert.equal(defs.outageSignal.name, SIGNALS.outage);
  assert.equal(defs.statusQuery.name, QUERIES.status);
  assert.equal(defs.turnProgressQuery.name, QUERIES.turnProgress);
  assert.equal(defs.approveUpdate.name, UPDATES.approve);
  assert.equal(defs.denyUpdate.name, UPDATES.deny);
});

test('unit: turn workflow ids and activity ids round-trip, and keep the recorded shapes', () => {
  assert.equal(turnWorkflowId('s-1', 7), 's-1/turn-7');
  assert.equal(turnOfWorkflowId('s-1', 's-1/turn-7'), 7);
  assert.equal(turnOfWorkflowId('s-1', 's-1/agent-toolu_1'), undefined);
  assert.equal(turnOfWorkflowId('s-1', 's-1/turn-7x'), undefined);
  assert.equal(turnOfWorkflowId('s', 's-1/turn-7'), undefined, 'another session with a longer id is not ours');
  assert.equal(sessionOfTurnWorkflowId('s-1/agent-toolu_1/turn-2'), 's-1/agent-toolu_1');
  // The shapes recorded in test/fixtures/histories (changing one breaks replay and the audit of running sessions).
  assert.equal(modelActivityId(3, 1, 0), 'model-3');
  assert.equal(modelActivityId(3, 2, 0), 'model-3-attempt-2');
  assert.equal(modelActivityId(3, 1, 1), 'model-3-2');
  assert.equal(activityIds.tool('toolu_a', 'approve'), 'tool-toolu_a-approve');
  assert.equal(activityIds.attempt(activityIds.append(4), 3), 'append-4-attempt-3');
  assert.equal(activityIds.attempt(activityIds.readFiles(4), 1), 'read-files-4');
  assert.deepEqual(toolCallActivityIds('x'), [
    'tool-x',
    'tool-x-approve',
    'tool-x-deny',
    'agent-pre-x',
    'agent-pre-x-approve',
    'agent-pre-x-deny',
    'agent-post-x',
  ]);
  assert.equal(decidedByActivityId('agent-pre-x-deny'), 'deny');
  assert.equal(decidedByActivityId('tool-x'), undefined);
  for (const [key, value] of Object.entries(ACTIVITY_TYPES)) assert.equal(key, value);
});

test('unit: the audit has no hand-written activity ids, activity types, signal names or turn-id pattern', () => {
  const dir = join(srcRoot, 'audit');
  const literals = [...Object.values(ACTIVITY_TYPES), ...Object.values(SIGNALS)].map((n) => `'${n}'`);
  const patterns = [/['`](tool|agent-pre|agent-post|agent|model|compact|append|read-files)-/, /\/turn-/, /turn-\\d/];
  const bad: string[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
    const text = readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .filter((l) => !/^\s*(\/\/|\*|\/\*\*)/.test(l)) // comments may name them
      .join('\n');
    for (const l of literals) if (text.includes(l)) bad.push(`${f}: ${l}`);
    for (const p of patterns) if (p.test(text)) bad.push(`${f}: ${p}`);
  }
  assert.deepEqual(bad, []);
});
