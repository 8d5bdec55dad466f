// Tracing is replay-safe (issue 35): every recorded history (test/fixtures/histories, recorded by
// workers without tracing) replays without a nondeterminism error on the workflow bundle of a tracing
// worker (Temporal's OpenTelemetry interceptors and ours, src/temporal/workflows/tracing.ts), and the
// replay exports no span (the span sink is not called during replay). Turning tracing on for a
// deployment whose sessions are running is therefore safe; test/integration/traces.test.ts replays
// the other way (histories recorded with tracing, on the plain bundle). Replay needs no server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { bundleAgentWorkflows } from '../../src/temporal/worker';

const FIXTURES = resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'histories');

interface ManifestEntry {
  file: string;
  workflowId: string;
  runId: string;
}

try {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
} catch {
  // already installed
}

async function replay(
  entries: ManifestEntry[],
  bundle: { code: string },
  callDuringReplay: boolean,
): Promise<{ failed: string[]; spans: Array<{ name: string }> }> {
  const spans: Array<{ name: string }> = [];
  const failed: string[] = [];
  const byRun = new Map(entries.map((m) => [m.runId, m.file]));
  for await (const r of Worker.runReplayHistories(
    {
      workflowBundle: bundle,
      sinks: {
        exporter: {
          export: { fn: (_info: unknown, s: Array<{ name: string }>) => void spans.push(...s), callDuringReplay },
        },
        durableAgent: { sessionEnded: { fn: () => undefined } },
      },
    },
    entries.map((m) => ({
      workflowId: m.workflowId,
      history: historyFromJSON(JSON.parse(readFileSync(join(FIXTURES, m.file), 'utf8'))),
    })),
  )) {
    if (r.error) failed.push(`${byRun.get(r.runId)}: ${r.error.message.split('\n')[0]}`);
  }
  return { failed, spans };
}

test(
  'replay with tracing: every fixture replays on the tracing bundle, and the replay exports no span',
  { timeout: 300_000 },
  async () => {
    const manifest = (
      JSON.parse(readFileSync(join(FIXTURES, 'manifest.json'), 'utf8')) as { histories: ManifestEntry[] }
    ).histories;
    const bundle = await bundleAgentWorkflows({ tracing: true });
    const { failed, spans } = await replay(manifest, bundle, false);
    assert.deepEqual(failed, [], 'every fixture replays on the tracing bundle');
    assert.equal(spans.length, 0, 'no span leaves a replay');
    // The control: the same replay makes the spans (ours among them); only the sink, not called during replay, keeps them in.
    const made = await replay(manifest.slice(0, 2), bundle, true);
    assert.deepEqual(made.failed, []);
    assert.ok(
      made.spans.some((s) => s.name === 'durable_agent.session' || s.name === 'durable_agent.turn'),
      JSON.stringify(made.spans.map((s) => s.name)),
    );
  },
);
