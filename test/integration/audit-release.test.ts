// integration: a session recorded by an earlier release audits the same on today's code (issue 33:
// nothing the audit relies on is lost). Each earlier release (upgradeReleases(): the previous one and
// package.json's version once tagged, each a real build cached by test/support/previousRelease.ts)
// runs a whole session on its own worker — parallel Reads, a Write, a slow call, a final answer —
// and both audits are then built from the same server history: the release's own `buildAudit`
// (loaded from its build) and today's. Nothing the release's audit says may be missing or different in
// today's (every field of every JSON line, recursively: later releases add fields, as 0.2.0 added
// `modelUsage`); against the release deployed now (package.json's version) the JSON lines and the
// text report must be equal.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { auditJsonLines, buildAudit, formatAuditText } from '../../src/audit';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { killGroup, releaseWorkerEnv, spawnWorker, type WorkerProc } from '../support/workerProcs';
import { previousRelease, upgradeReleases } from '../support/previousRelease';
import { TEST_TOOLS } from '../support/testTools';

after(closeTestEnv);

const deployedVersion = (
  JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string }
).version;

/** Every field of `was` is in `now` with the same value (objects compared field by field, recursively). */
function holds(now: unknown, was: unknown, where: string): void {
  if (was !== null && typeof was === 'object' && !Array.isArray(was)) {
    assert.ok(now !== null && typeof now === 'object', `${where}: an object`);
    for (const [k, v] of Object.entries(was)) holds((now as Record<string, unknown>)[k], v, `${where}.${k}`);
    return;
  }
  assert.deepEqual(now, was, where);
}

interface AuditModule {
  buildAudit: typeof buildAudit;
  auditJsonLines: typeof auditJsonLines;
  formatAuditText: typeof formatAuditText;
}

for (const rel of upgradeReleases()) {
  test(
    `integration: a session recorded by release ${rel.version} audits with today's code as with that release's: nothing lost or changed (JSON lines${rel.version === deployedVersion ? ' and text, equal' : ''})`,
    { timeout: 600_000 },
    async (t) => {
      const release = rel.commit ? previousRelease(rel.commit) : { why: rel.why };
      if (!release.script) return t.skip(release.why);
      // <release>/dist/test/support/workerProcess.js → <release>
      const releaseRoot = dirname(dirname(dirname(dirname(release.script))));
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const old = require(join(releaseRoot, 'dist', 'src', 'audit')) as AuditModule;
      await withAgent(
        { noWorker: true, worker: { tools: TEST_TOOLS } },
        async ({ env, fake, start, workDir, storeDir, taskQueue, client }) => {
          const a = join(workDir, 'a.txt');
          const b = join(workDir, 'b.txt');
          writeFileSync(a, 'alpha\n'.repeat(50));
          writeFileSync(b, 'beta\n'.repeat(50));
          fake.enqueue(
            toolUseResponse([
              { id: 'toolu_ra', name: 'Read', input: { file_path: a } },
              { id: 'toolu_rb', name: 'Read', input: { file_path: b } },
            ]),
            toolUseResponse([
              { id: 'toolu_w', name: 'Write', input: { file_path: join(workDir, 'out.txt'), content: 'done\n' } },
            ]),
            toolUseResponse([
              { id: 'toolu_slow', name: 'AppendSlow', input: { file: join(workDir, 'log'), text: 'x' } },
            ]),
            textResponse('All done.'),
          );
          const procs: WorkerProc[] = [];
          try {
            await spawnWorker(
              'audit-release',
              releaseWorkerEnv(release, { env, fake, storeDir, taskQueue }),
              procs,
              release.script,
            );
            const handle = await start({
              prompt: 'read both, write, append',
              tools: ['Read', 'Write', 'AppendSlow'],
              permissionMode: 'default',
              rules: { allow: ['Read', 'Write', 'AppendSlow'], ask: [], deny: [] },
              maxTurns: 10,
            });
            const result = await handle.result();
            assert.equal(result.status, 'completed', result.endReason);

            const before = await old.buildAudit(client, handle.workflowId);
            const now = await buildAudit(client, handle.workflowId);
            assert.equal(now.toolCalls.length, 4, 'every call is in the audit');
            assert.deepEqual(
              now.toolCalls.map((c) => c.toolUseId),
              ['toolu_ra', 'toolu_rb', 'toolu_w', 'toolu_slow'],
            );
            const oldLines = old.auditJsonLines(before).trimEnd().split('\n');
            const newLines = auditJsonLines(now).trimEnd().split('\n');
            assert.equal(newLines.length, oldLines.length, 'one line per entry, as the release had');
            oldLines.forEach((line, i) => holds(JSON.parse(newLines[i]!), JSON.parse(line), `line ${i + 1}`));
            if (rel.version === deployedVersion) {
              assert.equal(auditJsonLines(now), old.auditJsonLines(before), 'the JSON lines are the same');
              assert.equal(formatAuditText(now), old.formatAuditText(before), 'the text report is the same');
            }
          } finally {
            for (const p of procs) killGroup(p);
            await Promise.all(procs.map((p) => p.exited));
          }
        },
      );
    },
  );
}
