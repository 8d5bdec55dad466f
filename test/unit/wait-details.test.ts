// unit: the Temporal UI's current details of a waiting session (core/waitDetails.ts): the wait's
// line, then a Markdown list item per running task with its id, kind, start, what it runs and its
// output file; ended tasks are not listed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { waitDetails } from '../../src/core/waitDetails';
import type { BackgroundTask } from '../../src/core/autonomy';

const task = (over: Partial<BackgroundTask>): BackgroundTask => ({
  id: 'babc12345',
  kind: 'local_bash',
  toolUseId: 'toolu_1',
  description: 'Build',
  command: 'npm run build\n  && echo done',
  startedAt: Date.UTC(2026, 11, 2, 14, 0, 0),
  timeoutMs: 1_800_000,
  outputPath: '/tmp/s/tasks/babc12345.output',
  state: 'running',
  ...over,
});

test('unit: waitDetails lists each running task under the wait line', () => {
  const text = waitDetails(
    {
      tasks: [
        task({}),
        task({ id: 'bdone0000', state: 'completed', endedAt: Date.UTC(2026, 11, 2, 14, 1, 0) }),
        task({
          id: 'bsrv00000',
          description: 'sleep 900',
          command: 'sleep 900',
          outputPath: undefined,
          stopRequested: true,
        }),
      ],
      crons: [],
    },
    Date.UTC(2026, 11, 2, 15, 0, 0),
    '2 background tasks running',
  );
  assert.equal(
    text,
    [
      'Waiting until 2026-12-02T15:00:00Z — 2 background tasks running',
      '',
      '- task `babc12345` (local_bash) since 2026-12-02T14:00:00Z — Build: `npm run build && echo done` — output `/tmp/s/tasks/babc12345.output`',
      '- task `bsrv00000` (local_bash) since 2026-12-02T14:00:00Z — sleep 900 — stopping',
    ].join('\n'),
  );
  assert.equal(waitDetails(undefined, undefined, 'background work'), 'Waiting — background work');
  // A command with backticks keeps them inside a longer fence.
  assert.match(
    waitDetails({ tasks: [task({ command: 'echo `date`' })], crons: [] }, undefined, 'x'),
    /Build: `` echo `date` `` — output/,
  );
});
