// integration: sessions that an earlier release's worker left waiting finish on today's worker
// (DESIGN invariant 14), once per earlier release (upgradeReleases(): the previous release and
// package.json's version once tagged; real builds, test/support/previousRelease.ts). (a) A session
// waits on a background Bash task; the old worker is killed while the task runs; this worker
// replays the session and its turns, the task's retry finds it started and reports it lost (not
// re-run), and that one notification starts the turn that ends the session. (b) A session sleeps on
// a ScheduleWakeup; the old worker is killed during the wait; this worker fires the wake-up once
// and the session ends. Neither history has a failed workflow task. Both run only on releases that
// had the feature (0.1.0 had neither: each test skips with the reason).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { textResponse, toolUseResponse, type MessagesRequest } from '../../src/testing/fakeAnthropic';
import { sessionStatus } from '../../src/temporal/client';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { killGroup, releaseWorkerEnv, spawnWorker, type WorkerProc } from '../support/workerProcs';
import { waitFor } from '../support/wait';
import { previousRelease, upgradeReleases } from '../support/previousRelease';
import { failedWorkflowTasks } from '../support/history';
import { contentTexts, newUserMessages } from '../support/sessionProbe';

after(closeTestEnv);

/** Every text of the request's newest user messages: text blocks and tool_result contents. */
function lastUserText(req: MessagesRequest): string {
  return newUserMessages(req)
    .flatMap((m) => contentTexts(m.content))
    .join('\n');
}

/** The session and each of its turns: the workflow ids whose histories must replay cleanly. */
const sessionAndTurns = (id: string, turns: number): string[] => [
  id,
  ...Array.from({ length: turns }, (_, i) => `${id}/turn-${i + 1}`),
];
const noFailures = (ids: string[]): Record<string, unknown[]> => Object.fromEntries(ids.map((id) => [id, []]));

/** Whether a source file of the release's tree (extracted beside its build) contains a text. */
const releaseSource = (commit: string, file: string, text: string): boolean => {
  const dir = previousRelease(commit).script?.replace(/dist\/test\/support\/workerProcess\.js$/, '');
  try {
    return !!dir && readFileSync(join(dir, file), 'utf8').includes(text);
  } catch {
    return false;
  }
};

// Each test waits on a release's worker and a minute's wake-up or a task's loss: they run side by
// side, each on its own fake API, task queue and workers, so the file takes the longest one's time
// (issue 32).
describe('sessions of earlier releases that wait', { concurrency: true }, () => {
  for (const rel of upgradeReleases()) {
    test(
      `integration: a session of release ${rel.version} waiting on a background task finishes on this worker; the task is reported once, never re-run`,
      { timeout: 600_000 },
      async (t) => {
        const release = rel.commit ? previousRelease(rel.commit) : { why: rel.why };
        if (!release.script) return t.skip(release.why);
        // 0.1.0's Bash refused run_in_background ("not supported in durable mode"; background tasks
        // came with issue 19): a release without them has no such session to upgrade.
        if (releaseSource(rel.commit!, 'src/tools/builtin/bash.ts', 'is not supported in durable mode'))
          return t.skip(`release ${rel.version} has no background tasks`);
        await withAgent(
          { noWorker: true },
          async ({ env, fake, start, workDir, storeDir, taskQueue, client, startWorker }) => {
            const notes: string[] = [];
            fake.script((req) => {
              const text = lastUserText(req);
              if (text.includes('<task-notification>')) {
                notes.push(text);
                return textResponse('The job was lost; I will look before running it again.');
              }
              if (text.includes('long job'))
                return toolUseResponse([
                  {
                    id: 'toolu_bg',
                    name: 'Bash',
                    input: {
                      command: 'echo run >> runs.txt; sleep 600',
                      run_in_background: true,
                      description: 'Long job',
                    },
                  },
                ]);
              return textResponse('Waiting for the job.');
            });
            const procs: WorkerProc[] = [];
            let newWorker: { stop(): Promise<void> } | undefined;
            try {
              const old = await spawnWorker(
                `release-${rel.version}`,
                releaseWorkerEnv(release, { env, fake, storeDir, taskQueue }),
                procs,
                release.script,
              );
              const handle = await start({
                prompt: 'run the long job',
                tools: ['Bash'],
                permissionMode: 'bypassPermissions',
                toolHeartbeatTimeoutMs: 3_000,
              });
              await waitFor(
                `the task to run and the session to wait on release ${rel.version}`,
                async () => {
                  let ran = '';
                  try {
                    ran = readFileSync(join(workDir, 'runs.txt'), 'utf8');
                  } catch {
                    // not yet
                  }
                  return ran && fake.messageRequests().length === 2 ? true : undefined;
                },
                120_000,
              );
              killGroup(old);
              await old.exited;

              newWorker = await startWorker();
              const result = await handle.result();
              assert.equal(result.status, 'completed', result.endReason);
              assert.equal(notes.length, 1, 'one notification');
              assert.match(notes[0]!, /<status>failed<\/status>/);
              assert.match(notes[0]!, /NOT re-run/);
              assert.equal(readFileSync(join(workDir, 'runs.txt'), 'utf8'), 'run\n', 'never re-run');
              assert.equal(fake.messageRequests().length, 3);
              const ids = sessionAndTurns(handle.workflowId, result.turns);
              assert.deepEqual(await failedWorkflowTasks(client, ids), noFailures(ids));
            } finally {
              for (const p of procs) killGroup(p);
              await newWorker?.stop();
            }
          },
        );
      },
    );

    test(
      `integration: a session of release ${rel.version} sleeping on a wake-up finishes on this worker; the wake-up fires once`,
      { timeout: 600_000 },
      async (t) => {
        const release = rel.commit ? previousRelease(rel.commit) : { why: rel.why };
        if (!release.script) return t.skip(release.why);
        // ScheduleWakeup came after 0.1.0 (issue 19): a release without it has no such session to upgrade.
        if (!releaseSource(rel.commit!, 'src/tools/builtin/index.ts', 'ScheduleWakeup'))
          return t.skip(`release ${rel.version} has no ScheduleWakeup`);
        await withAgent({ noWorker: true }, async ({ env, fake, start, storeDir, taskQueue, client, startWorker }) => {
          let wakes = 0;
          fake.script((req) => {
            const text = lastUserText(req);
            if (text.includes('WAKE:')) {
              wakes++;
              return textResponse('Woke up and checked the build.');
            }
            if (text.includes('check later'))
              return toolUseResponse([
                {
                  id: 'toolu_wake',
                  name: 'ScheduleWakeup',
                  input: { delaySeconds: 60, reason: 'the build takes a minute', prompt: 'WAKE: check the build' },
                },
              ]);
            return textResponse('Sleeping until the build is done.');
          });
          const procs: WorkerProc[] = [];
          let newWorker: { stop(): Promise<void> } | undefined;
          try {
            const old = await spawnWorker(
              `release-${rel.version}`,
              releaseWorkerEnv(release, { env, fake, storeDir, taskQueue }),
              procs,
              release.script,
            );
            const handle = await start({ prompt: 'check later', tools: ['ScheduleWakeup'] });
            await waitFor(
              `the session to sleep on release ${rel.version}`,
              async () => {
                const s = await sessionStatus(client, handle.workflowId);
                return s.phase === 'waiting_for_work' && s.waiting ? true : undefined;
              },
              120_000,
            );
            assert.equal(wakes, 0);
            killGroup(old);
            await old.exited;

            newWorker = await startWorker();
            const result = await handle.result();
            assert.equal(result.status, 'completed', result.endReason);
            assert.equal(wakes, 1, 'the wake-up fired once');
            assert.equal(fake.messageRequests().length, 3);
            const final = await sessionStatus(client, handle.workflowId);
            assert.equal(final.autonomy?.wakeup, undefined);
            const ids = sessionAndTurns(handle.workflowId, result.turns);
            assert.deepEqual(await failedWorkflowTasks(client, ids), noFailures(ids));
          } finally {
            for (const p of procs) killGroup(p);
            await newWorker?.stop();
          }
        });
      },
    );
  }
});
