// integration: the audit trail in the real Temporal Web UI. Runs a three-turn session on the dev
// server (started WITH its UI by scripts/run-tests.mjs), then opens the session's page and the
// first turn's page in headless Chromium (playwright-core driving Debian's /usr/bin/chromium;
// no Playwright browser download) and checks what a human would see:
//   session page: the timeline labels the child workflows with their static summaries
//     ("Turn 1: …", "Turn 2", "Turn 3"); the Relationships tab lists `<session-id>/turn-<n>`.
//   turn page: the timeline and the event table show each activity's type and summary
//     (`runToolUse` • `Grep "timeout" in src`, `callModel` • `Model call (turn 1, …)`); expanding
//     an Activity Task Scheduled row shows its activity id (`tool-toolu_…`).
// Screenshots go to test-artifacts/ (git-ignored). Skipped when the run is --headless (no UI) or
// when DURABLE_AGENT_SKIP_BROWSER=1; a missing browser otherwise FAILS the test.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';
import { sessionStatus } from '../../src/temporal/client';
import { requireSystemPackage } from '../support/systemPackages';

after(closeTestEnv);

const CHROMIUM = process.env.DURABLE_AGENT_CHROMIUM ?? '/usr/bin/chromium';
const chromiumPackage = requireSystemPackage({
  command: CHROMIUM,
  debianPackage: 'chromium',
  usedBy: 'the Temporal UI test (ui.test)',
  optOutEnv: 'DURABLE_AGENT_SKIP_BROWSER',
});
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];
/** The UI is a single-page app that fetches everything after load: wait for text, generously. */
const UI_TIMEOUT_MS = 60_000;

const root = (() => {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, '.ci'))) return dir;
    if (dirname(dir) === dir) throw new Error(`repository root not found above ${__dirname}`);
  }
})();
const artifacts = join(root, 'test-artifacts');

function skipReason(): string | undefined {
  if (chromiumPackage.skip) return chromiumPackage.skip;
  if (!process.env.TEMPORAL_TEST_UI_ADDRESS) {
    return 'no TEMPORAL_TEST_UI_ADDRESS: the dev server runs without its UI (--headless, or the file was run outside scripts/run-tests.mjs)';
  }
  return undefined;
}

test(
  'ui: the session page shows the turn workflows; the turn page shows tool activities with their summaries',
  { skip: skipReason(), timeout: 240_000 },
  async () => {
    const ui = process.env.TEMPORAL_TEST_UI_ADDRESS!.replace(/\/+$/, '');
    // Under CI a missing Chromium fails here (DURABLE_AGENT_CHROMIUM names another binary; DURABLE_AGENT_SKIP_BROWSER=1 skips).
    chromiumPackage.assert();
    await mkdir(artifacts, { recursive: true });

    await withAgent({}, async ({ fake, start, workDir }) => {
      const file = join(workDir, 'src', 'auth.ts');
      await mkdir(join(workDir, 'src'));
      await writeFile(file, 'export const timeout = 10;\n');
      fake.enqueue(
        toolUseResponse([
          { id: 'toolu_ui_grep', name: 'Grep', input: { pattern: 'timeout', path: 'src' } },
          { id: 'toolu_ui_read', name: 'Read', input: { file_path: file } },
        ]),
        toolUseResponse([
          {
            id: 'toolu_ui_edit',
            name: 'Edit',
            input: { file_path: file, old_string: 'timeout = 10', new_string: 'timeout = 30' },
          },
        ]),
        textResponse('Raised the timeout to 30.'),
      );
      // One model step per turn child: the tour shows three children (`turn-1..3`) on the timeline
      // and in Relationships; by default one child would run all three steps.
      const handle = await start({ prompt: 'raise the login timeout', maxStepsPerTurn: 1 });
      const result = await handle.result();
      assert.equal(result.status, 'completed');
      assert.equal(result.turns, 3);
      const sessionId = handle.workflowId;
      const turn1 = `${sessionId}/turn-1`;

      await withBrowser(async (page) => {
        // --- The session's page (the UI redirects to the latest run's History tab).
        await step(page, 'session page', async () => {
          await page.goto(`${ui}/namespaces/default/workflows/${encodeURIComponent(sessionId)}`, {
            waitUntil: 'domcontentloaded',
          });
          await visible(page, sessionId, 'the session id as the page title');
          await visible(page, 'sessionWorkflow', 'the workflow type');
          // The timeline draws each child workflow with its static summary.
          await visible(page, 'Turn 1: raise the login timeout', 'the first turn (static summary) on the timeline');
          await visible(page, 'Turn 2', 'the second turn on the timeline', true);
          await visible(page, 'Turn 3', 'the third turn on the timeline', true);
          await shot(page, 'ui-session.png');
        });

        // --- Its Relationships tab: the three turn child workflows by id, linked to their pages.
        await step(page, 'session relationships', async () => {
          await page
            .getByRole('link', { name: /^Relationships/ })
            .or(page.getByRole('tab', { name: /^Relationships/ }))
            .first()
            .click();
          for (const n of [1, 2, 3])
            await visible(page, `${sessionId}/turn-${n}`, `child workflow turn-${n} in Relationships`, true);
          await visible(page, 'turnWorkflow', 'the child workflow type');
          const link = page.getByRole('link', { name: turn1, exact: true }).first();
          assert.match(
            (await link.getAttribute('href')) ?? '',
            new RegExp(`/workflows/${escape(encodeURIComponent(turn1))}(/|$)`),
          );
          await shot(page, 'ui-session-relationships.png');
        });

        // --- The first turn's page: activity types and per-call summaries on the timeline and in the table.
        await step(page, 'turn page', async () => {
          await page.goto(`${ui}/namespaces/default/workflows/${encodeURIComponent(turn1)}`, {
            waitUntil: 'domcontentloaded',
          });
          await visible(page, turn1, 'the turn id as the page title');
          await visible(page, 'turnWorkflow', 'the workflow type');
          // Timeline bars are labelled "<activity type> • <summary>".
          await visible(page, 'callModel • Model call (turn 1, claude-test)', 'the model call on the timeline');
          await visible(page, 'runToolUse • Grep "timeout" in src', 'the Grep call on the timeline');
          await visible(page, `runToolUse • Read ${file}`, 'the Read call on the timeline');
          await shot(page, 'ui-turn.png');

          // Event table: each Activity Task Scheduled row shows the type and the summary...
          const grepRow = page
            .locator('tr[data-testid="event-summary-row"]', { hasText: 'Grep "timeout" in src' })
            .first();
          await grepRow.waitFor();
          const rowText = await grepRow.innerText();
          assert.match(rowText, /Activity Task Scheduled/, rowText);
          assert.match(rowText, /runToolUse/, rowText);
          const readRow = page.locator('tr[data-testid="event-summary-row"]', { hasText: `Read ${file}` }).first();
          assert.match(await readRow.innerText(), /runToolUse/);
          // ...and expanding it shows the activity id, the tool_use_id it is keyed by.
          await grepRow.click();
          await visible(page, 'tool-toolu_ui_grep', 'the activity id of the Grep call after expanding its row', true);
          await shot(page, 'ui-turn-event.png', false);
        });
      });
    });
  },
);

test(
  'ui: a session waiting for a background task: the task activity is named on the timeline, the current details list the task',
  { skip: skipReason(), timeout: 240_000 },
  async () => {
    const ui = process.env.TEMPORAL_TEST_UI_ADDRESS!.replace(/\/+$/, '');
    chromiumPackage.assert();
    await mkdir(artifacts, { recursive: true });
    const marker = `${4000 + Math.floor(Math.random() * 5000)}.5`;
    await withAgent({}, async ({ fake, start, client }) => {
      fake.enqueue(
        toolUseResponse([
          {
            id: 'toolu_ui_bg',
            name: 'Bash',
            input: { command: `sleep ${marker}`, run_in_background: true, description: 'Serve the docs' },
          },
        ]),
        textResponse('The docs server runs in the background.'),
      );
      const handle = await start({ prompt: 'serve the docs', tools: ['Bash', 'TaskStop'] });
      const sessionId = handle.workflowId;
      const waiting = await waitFor(
        'the session to wait for its task',
        async () => {
          const st = await sessionStatus(client, sessionId);
          return st.status === 'waiting' ? st : undefined;
        },
        60_000,
      );
      const task = waiting.autonomy!.tasks[0]!;
      try {
        await withBrowser(async (page) => {
          await step(page, 'waiting session page', async () => {
            await page.goto(`${ui}/namespaces/default/workflows/${encodeURIComponent(sessionId)}`, {
              waitUntil: 'domcontentloaded',
            });
            await visible(page, sessionId, 'the session id as the page title');
            // The task's own activity on the session's timeline, labelled with its summary.
            await visible(
              page,
              `runBackgroundTask • Background task ${task.id}: Serve the docs`,
              'the background task activity on the timeline',
            );
            await shot(page, 'ui-session-task.png');
            // The current details (the workflow's metadata query), in the User Metadata tab: the wait and the task's line.
            await page
              .getByRole('link', { name: /^User Metadata/ })
              .or(page.getByRole('tab', { name: /^User Metadata/ }))
              .first()
              .click();
            // The UI renders the details as Markdown in a frame of its own (the summary has another).
            const framesText = async (): Promise<string> =>
              (
                await Promise.all(
                  page.frames().map((f) =>
                    f
                      .locator('body')
                      .innerText({ timeout: 1_000 })
                      .catch(() => ''),
                  ),
                )
              ).join('\n');
            for (const [text, what] of [
              ['1 background task running', 'the wait'],
              [`task ${task.id} (local_bash) since`, 'the running task'],
              [`Serve the docs: sleep ${marker}`, "the task's command"],
              [`output ${task.outputPath}`, "the task's output file"],
            ] as const)
              await waitFor(
                `${what} in the current details ("${text}")`,
                async () => ((await framesText()).includes(text) ? true : undefined),
                UI_TIMEOUT_MS,
              );
            await shot(page, 'ui-session-task-details.png');
          });
        });
      } finally {
        await handle.cancel();
        await handle.result().catch(() => undefined);
      }
    });
  },
);

/** A headless Chromium page (a fresh profile), closed and removed after `fn`. */
async function withBrowser(fn: (page: Page) => Promise<void>): Promise<void> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'da-chromium-'));
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1600, height: 1200 },
      timeout: UI_TIMEOUT_MS,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    await fn(page);
  } finally {
    await context?.close().catch((err: unknown) => console.error(`[ui.test] closing Chromium: ${String(err)}`));
    await rm(userDataDir, { recursive: true, force: true });
  }
}

/** Runs one part of the check; on failure saves what the browser showed and names the file. */
async function step(page: Page, name: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    const file = join(artifacts, `ui-failure-${name.replace(/\W+/g, '-')}.png`);
    const saved = await page.screenshot({ path: file, fullPage: true }).then(
      () => true,
      () => false,
    );
    const msg = err instanceof Error ? err.message : String(err);
    throw new Error(
      `UI check "${name}" failed at ${page.url()}: ${msg}${saved ? `\nscreenshot: ${relative(process.cwd(), file) || file}` : ''}`,
      { cause: err },
    );
  }
}

async function visible(page: Page, text: string, what: string, exact = false): Promise<void> {
  try {
    await page.getByText(text, { exact }).first().waitFor({ state: 'visible' });
  } catch (err) {
    throw new Error(`expected to see ${what} ("${text}") within ${UI_TIMEOUT_MS / 1000}s`, { cause: err });
  }
}

async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  const file = join(artifacts, name);
  await page.screenshot({ path: file, fullPage });
  console.log(`[ui.test] screenshot: ${relative(process.cwd(), file) || file}`);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
