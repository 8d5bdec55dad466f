// unit: the library's errors carry a code (DurableAgentError), so callers branch on `code`, not on
// `.name` strings; a Temporal failure whose type is a code reads back as that code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { DurableAgentError, errorCodeOf } from '../../src/core/errors';
import {
  ApprovalRejectedError,
  SessionEndedError,
  SessionNotFoundError,
  SandboxUnavailableError,
} from '../../src/temporal/client';
import { TemporalUnavailableError } from '../../src/temporal/service/connection';
import { TemporalCliNotFoundError } from '../../src/temporal/service/cli';
import { McpUnavailableError } from '../../src/mcp/manager';
import { describeError } from '../../src/cli/main';

test('unit: every library error is a DurableAgentError with its code', () => {
  const cases: Array<[DurableAgentError, string]> = [
    [new SessionNotFoundError('s1'), 'NOT_FOUND'],
    [new SessionEndedError('s1', 'completed'), 'SESSION_ENDED'],
    [new ApprovalRejectedError('no pending approval'), 'NOT_PENDING'],
    [new TemporalUnavailableError('localhost:1', 'connection refused'), 'SERVER_UNREACHABLE'],
    [new TemporalCliNotFoundError(['PATH']), 'CLI_NOT_FOUND'],
    [new SandboxUnavailableError('no bwrap'), 'SANDBOX_UNAVAILABLE'],
    [new McpUnavailableError('gone'), 'MCP_UNAVAILABLE'],
  ];
  for (const [err, code] of cases) {
    assert.ok(err instanceof DurableAgentError, err.name);
    assert.equal(err.code, code);
    assert.equal(errorCodeOf(err), code);
    assert.equal(err.name, err.constructor.name);
  }
});

test('unit: a Temporal failure typed with a code reads back as that code; others have none', () => {
  assert.equal(errorCodeOf(ApplicationFailure.nonRetryable('no pending approval x', 'NOT_PENDING')), 'NOT_PENDING');
  assert.equal(errorCodeOf(ApplicationFailure.nonRetryable('boom', 'ModelHttp401')), undefined);
  assert.equal(errorCodeOf(new Error('plain')), undefined);
  assert.equal(errorCodeOf(undefined), undefined);
});

test('unit: the CLI prints a coded error in one line, the whole message where it is made for the terminal', () => {
  assert.equal(
    describeError(new SessionNotFoundError('abc')),
    'No session with id abc. List sessions with `durable-agent ls`.',
  );
  assert.equal(
    describeError(new TemporalCliNotFoundError(['PATH'])),
    'Could not find or build the Temporal CLI (`temporal`). Tried:',
  );
});

test('unit: a DurableAgentError thrown by an activity fails it with its code as the failure type', async () => {
  const { withErrorCodes } = await import('../../src/temporal/activities/errors');
  const act = withErrorCodes(async (what: string) => {
    if (what === 'mcp') throw new McpUnavailableError('MCP server x is gone');
    if (what === 'plain') throw new Error('disk full');
    return 'ok';
  });
  assert.equal(await act('fine'), 'ok');
  await assert.rejects(
    act('mcp'),
    (e: unknown) =>
      e instanceof ApplicationFailure &&
      e.type === 'MCP_UNAVAILABLE' &&
      e.message === 'MCP server x is gone' &&
      errorCodeOf(e) === 'MCP_UNAVAILABLE',
  );
  await assert.rejects(
    act('plain'),
    (e: unknown) => !(e instanceof ApplicationFailure) && (e as Error).message === 'disk full',
  );
});

test('unit: the model core throws a ModelCallError, and the activity boundary keeps its type, retryability and details', async () => {
  const Anthropic = (await import('@anthropic-ai/sdk')).default;
  const { classifyModelError, ModelCallError } = await import('../../src/runtime/model');
  const { toApplicationFailure } = await import('../../src/temporal/activities/errors');
  const overloaded = classifyModelError(
    new Anthropic.APIError(529, { type: 'overloaded_error' }, 'Overloaded', new Headers({ 'retry-after': '7' })),
  );
  assert.ok(overloaded instanceof ModelCallError && !(overloaded instanceof ApplicationFailure));
  assert.equal(overloaded.retryable, true);
  assert.equal(overloaded.code, 'MODEL_UNAVAILABLE');
  assert.deepEqual(overloaded.transient, { kind: 'overloaded', message: overloaded.message, retryAfterMs: 7000 });
  const f = toApplicationFailure(overloaded);
  assert.ok(f instanceof ApplicationFailure);
  assert.equal(f.type, 'ModelHttp529');
  assert.equal(f.nonRetryable, false);
  assert.deepEqual(f.details, [overloaded.transient]);
  assert.equal(f.nextRetryDelay, 7000);

  const denied = classifyModelError(
    new Anthropic.APIError(401, { type: 'authentication_error' }, 'bad key', undefined),
  );
  assert.ok(denied instanceof ModelCallError);
  assert.equal(denied.code, 'MODEL_FAILED');
  const g = toApplicationFailure(denied) as ApplicationFailure;
  assert.equal(g.type, 'ModelHttp401');
  assert.equal(g.nonRetryable, true);
  assert.equal(g.details, undefined);

  const lost = toApplicationFailure(classifyModelError(new Error('socket hang up'))) as ApplicationFailure;
  assert.equal(lost.type, 'ModelError');
  assert.equal(lost.nonRetryable, false);
  assert.deepEqual(lost.details, [{ kind: 'other', message: 'model call failed: socket hang up' }]);
});

test('unit: a missing memory blob is a MEMORY_MISSING DurableAgentError, non-retryable at the activity boundary', async () => {
  const { withErrorCodes } = await import('../../src/temporal/activities/errors');
  const { loadMemoryText } = await import('../../src/claudeMd/blobs');
  const { LocalBlobStore } = await import('../../src/stores/messageStore');
  const { mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const blobs = new LocalBlobStore(await mkdtemp(join(tmpdir(), 'da-err-')));
  const ref = { ref: `memory-${'0'.repeat(64)}`, sha256: '0'.repeat(64), chars: 10 };
  await assert.rejects(
    loadMemoryText(blobs, ref),
    (e: unknown) => e instanceof DurableAgentError && e.code === 'MEMORY_MISSING',
  );
  await assert.rejects(
    withErrorCodes(() => loadMemoryText(blobs, ref))(),
    (e: unknown) => e instanceof ApplicationFailure && e.type === 'MEMORY_MISSING' && e.nonRetryable,
  );
  // Other codes stay retryable, as before.
  await assert.rejects(
    withErrorCodes(async () => {
      throw new McpUnavailableError('gone');
    })(),
    (e: unknown) => e instanceof ApplicationFailure && e.type === 'MCP_UNAVAILABLE' && !e.nonRetryable,
  );
});
