// unit: the worker's concurrency limits follow the sizing rule of docs/deployment.md ("Sizing"):
// per concurrent session, 3 cached workflows and 2 activity slots; 20 workflow tasks at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shutdownGraceMs, workerLimits } from '../../src/temporal/workerLimits';

test('unit: worker limits default to 50 sessions per worker', () => {
  assert.deepEqual(workerLimits({}), {
    maxCachedWorkflows: 150,
    maxConcurrentActivityTaskExecutions: 100,
    maxConcurrentLocalActivityExecutions: 50,
    maxConcurrentWorkflowTaskExecutions: 20,
  });
});

test('unit: DURABLE_AGENT_WORKER_SESSIONS scales the limits; each limit can be set on its own', () => {
  const l = workerLimits({ DURABLE_AGENT_WORKER_SESSIONS: '200' });
  assert.equal(l.maxCachedWorkflows, 600);
  assert.equal(l.maxConcurrentActivityTaskExecutions, 400);
  const own = workerLimits({
    DURABLE_AGENT_WORKER_SESSIONS: '10',
    DURABLE_AGENT_MAX_CACHED_WORKFLOWS: '7',
    DURABLE_AGENT_MAX_ACTIVITIES: '5',
    DURABLE_AGENT_MAX_WORKFLOW_TASKS: '1',
  });
  assert.deepEqual(own, {
    maxCachedWorkflows: 7,
    maxConcurrentActivityTaskExecutions: 5,
    maxConcurrentLocalActivityExecutions: 10,
    maxConcurrentWorkflowTaskExecutions: 2,
  });
});

test('unit: a limit that is not a positive integer is refused with its name', () => {
  for (const bad of ['0', '-3', '2.5', 'many']) {
    assert.throws(
      () => workerLimits({ DURABLE_AGENT_WORKER_SESSIONS: bad }),
      new RegExp(`DURABLE_AGENT_WORKER_SESSIONS=${bad.replace('.', '\\.')}: expected a positive integer`),
    );
  }
});

test('unit: the shutdown grace defaults to 2 s; DURABLE_AGENT_SHUTDOWN_GRACE_MS sets it, 0 included; a bad value is an error', () => {
  assert.equal(shutdownGraceMs({}), 2000);
  assert.equal(shutdownGraceMs({ DURABLE_AGENT_SHUTDOWN_GRACE_MS: '0' }), 0);
  assert.equal(shutdownGraceMs({ DURABLE_AGENT_SHUTDOWN_GRACE_MS: '15000' }), 15000);
  assert.throws(() => shutdownGraceMs({ DURABLE_AGENT_SHUTDOWN_GRACE_MS: '2s' }), /DURABLE_AGENT_SHUTDOWN_GRACE_MS=2s/);
  assert.throws(() => shutdownGraceMs({ DURABLE_AGENT_SHUTDOWN_GRACE_MS: '-1' }), /whole number/);
});
