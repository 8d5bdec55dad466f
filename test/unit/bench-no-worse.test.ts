// unit: `npm run bench`'s verdict lines against the previous release (bench/noWorse.ts, issue 32):
// each cost figure of ours beside the previous release's, worse only past the stated margin, and
// the rows measured for ours only said to be so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costNoWorse, renderNoWorse } from '../../bench/noWorse';
import type { CostFigures } from '../../bench/historyCost';

function figures(o: {
  events?: number;
  bytes?: number;
  wall?: number[];
  cpu?: number;
  handoff?: number;
  actions?: number;
  heartbeats?: number;
}): CostFigures {
  const actions = {
    workflowStarts: 0,
    activities: 1,
    localActivityTasks: 0,
    localActivities: 0,
    timers: 0,
    signals: 0,
    updates: 0,
  };
  return {
    label: 'x',
    perStep: { events: 0, bytes: 0, workerCpuMs: o.cpu ?? 40, serverCpuMs: 20, actions: 0 },
    perCall: { events: o.events ?? 6, bytes: o.bytes ?? 1500, actions: o.actions ?? 2 },
    actionsPerCall: { ...actions, heartbeats: o.heartbeats ?? 0.5 },
    handoffMedian: o.handoff ?? 20,
    handoffP90: 30,
    handoffStartedMedian: 25,
    handoffs: 10,
    sessionMs: [0, 0],
    addedWallMs: o.wall ?? [50, 60, 70],
    localStepMs: [10],
  };
}

const verdicts = (ours: CostFigures, prev: CostFigures): Record<string, string> =>
  Object.fromEntries(
    costNoWorse(ours, prev).map((l) => [l.measure.split(':')[0] + (l.unit === 'bytes' ? ' bytes' : ''), l.verdict]),
  );

test('equal figures, and figures within the margin, are no worse', () => {
  assert.ok(costNoWorse(figures({}), figures({})).every((l) => l.verdict === 'no worse'));
  // +20 % wall, +1 ms hand-off (under the 2 ms slack), +4 % bytes.
  const v = costNoWorse(figures({ wall: [72], handoff: 21, bytes: 1560 }), figures({ wall: [60], handoff: 20 }));
  assert.ok(
    v.every((l) => l.verdict === 'no worse'),
    JSON.stringify(v),
  );
});

test('each figure past its margin is WORSE', () => {
  const prev = figures({});
  assert.equal(verdicts(figures({ events: 7 }), prev)['History per tool call'], 'WORSE');
  assert.equal(verdicts(figures({ bytes: 1700 }), prev)['History per tool call bytes'], 'WORSE');
  assert.equal(
    verdicts(figures({ wall: [90, 95, 100] }), prev)[
      'Added wall time per model step over the in-process runner (median of rounds)'
    ],
    'WORSE',
  );
  assert.equal(verdicts(figures({ cpu: 80 }), prev)['CPU per model step, worker + server'], 'WORSE');
  assert.equal(verdicts(figures({ handoff: 40 }), prev)['Turn-boundary hand-off, median'], 'WORSE');
  assert.equal(
    verdicts(figures({ actions: 3 }), prev)['Temporal Cloud actions per tool call (heartbeats left out)'],
    'WORSE',
  );
});

test('actions are compared without heartbeats (a release whose worker does not count them)', () => {
  const v = costNoWorse(figures({ actions: 2.5, heartbeats: 0.5 }), figures({ actions: 2, heartbeats: NaN }));
  assert.equal(v.at(-1)?.ours, 2);
  assert.equal(v.at(-1)?.verdict, 'no worse');
});

test('the printed lines: a verdict per cost figure, the margin, and the rows of ours only', () => {
  const text = renderNoWorse('0.1.0 (02a3ad2)', costNoWorse(figures({ events: 9 }), figures({})), ['Floor per turn']);
  assert.match(text, /No worse than the previous release 0\.1\.0 \(02a3ad2\), same run \(noise margin: .*25 %.*5 %/);
  assert.match(text, /WORSE +History per tool call: events: ours 9\.0 events, previous 6\.0 events \(1\.50×\)/);
  assert.match(text, /ours only +Floor per turn: no same-run figure of the previous release/);
  assert.match(renderNoWorse('x', 'not built', []), /previous release's figures are missing \(not built\)/);
});
