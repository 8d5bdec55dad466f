// integration: the real Temporal Web UI and `durable-agent codec-server` (docs/encryption.md). A dev
// server of this test's own, started with `--ui-codec-endpoint` naming a port where nothing listens
// yet; a worker and a client with an encryption key run a session there. In headless Chromium
// (playwright-core driving Debian's /usr/bin/chromium), the session's page shows its input
// encoded — binary/encrypted, no prompt — while the codec endpoint is down; once the codec server
// listens on that port (CORS for the UI's origin), the same page shows the prompt in plain text.
// Screenshots go to test-artifacts/. Skipped with DURABLE_AGENT_SKIP_BROWSER=1; a missing browser
// otherwise FAILS the test under CI.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { startFakeAnthropic, textResponse } from '../../src/testing/fakeAnthropic';
import { startSession } from '../../src/temporal/client';
import { createAgentWorker, workflowsPath } from '../../src/temporal/worker';
import { startDevServer, type DevServer } from '../../src/temporal/service/devServer';
import { encryptionCodecs, EncryptionCodec } from '../../src/temporal/service/codec';
import { startCodecServer, type CodecServer } from '../../src/temporal/service/codecServer';
import { configuredKeyRing } from '../../src/encryption/keys';
import { requireSystemPackage } from '../support/systemPackages';
import { fakeAnthropicFactory } from '../support/agent';
import { getWorkflowBundle } from '../support/temporal';
import { resolveTemporalCli } from '../../src/temporal/service/cli';

const CHROMIUM = process.env.DURABLE_AGENT_CHROMIUM ?? '/usr/bin/chromium';
const chromiumPackage = requireSystemPackage({
  command: CHROMIUM,
  debianPackage: 'chromium',
  usedBy: 'the Temporal UI codec test (ui-codec.test)',
  optOutEnv: 'DURABLE_AGENT_SKIP_BROWSER',
});
const UI_TIMEOUT_MS = 60_000;
const root = (() => {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, '.ci'))) return dir;
    if (dirname(dir) === dir) throw new Error(`repository root not found above ${__dirname}`);
  }
})();
const artifacts = join(root, 'test-artifacts');

const cleanups: Array<() => Promise<unknown>> = [];
after(async () => {
  for (const c of cleanups.reverse()) await c().catch((err: unknown) => console.error(`[ui-codec] ${String(err)}`));
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

test(
  'ui codec: the Temporal UI shows a session input as binary/encrypted without the codec server, and the prompt in plain text with it',
  { skip: chromiumPackage.skip, timeout: 300_000 },
  async () => {
    chromiumPackage.assert();
    await mkdir(artifacts, { recursive: true });
    const ring = configuredKeyRing({ keys: [randomBytes(32).toString('base64')] })!;
    const codecPort = await freePort();
    const codecUrl = `http://127.0.0.1:${codecPort}`;
    const cli = await resolveTemporalCli();
    const server: DevServer = await startDevServer({
      cli,
      ui: true,
      extraArgs: ['--ui-codec-endpoint', codecUrl],
    });
    cleanups.push(() => server.stop());
    const ui = server.uiAddress!;

    const fake = await startFakeAnthropic({});
    cleanups.push(() => fake.close());
    const native = await NativeConnection.connect({ address: server.address });
    cleanups.push(() => native.close());
    const taskQueue = `ui-codec-${randomUUID()}`;
    const worker = await createAgentWorker({
      connection: native,
      namespace: server.namespace,
      taskQueue,
      storeDir: await mkdtemp(join(tmpdir(), 'da-ui-codec-store-')),
      anthropic: fakeAnthropicFactory(fake),
      workflowBundle: await getWorkflowBundle(workflowsPath),
      encryption: ring,
    });
    const connection = await Connection.connect({ address: server.address });
    cleanups.push(() => connection.close());
    const client = new Client({
      connection,
      namespace: server.namespace,
      dataConverter: { payloadCodecs: encryptionCodecs(ring) },
    });
    const marker = `PROMPT-${randomUUID().slice(0, 8)}`;
    fake.enqueue(textResponse('Done.'));
    const sessionId = `ui-codec-${randomUUID()}`;
    await worker.runUntil(async () => {
      const handle = await startSession(client, {
        prompt: `${marker}: summarise the secret plan`,
        cwd: await mkdtemp(join(tmpdir(), 'da-ui-codec-work-')),
        permissionMode: 'bypassPermissions',
        id: sessionId,
        taskQueue,
        model: { model: 'claude-test', maxTokens: 1024 },
      });
      assert.equal((await handle.result()).status, 'completed');
    });

    let codec: CodecServer | undefined;
    try {
      await withPage(async (page) => {
        const url = `${ui}/namespaces/${server.namespace}/workflows/${encodeURIComponent(sessionId)}`;
        // Without the codec server: what the server stores, encrypted.
        await step(page, 'encoded', async () => {
          await page.goto(url, { waitUntil: 'domcontentloaded' });
          await page.getByText(sessionId).first().waitFor({ state: 'visible' });
          await page
            .getByText(/binary\/encrypted|YmluYXJ5L2VuY3J5cHRlZA/)
            .first()
            .waitFor({ state: 'visible' });
          const text = await textShown(page, 'Codec Server could not connect');
          assert.ok(!text.includes(marker), 'the prompt is not shown without the codec server');
          await shot(page, 'ui-codec-encoded.png');
        });

        // With it: the codec endpoint the UI was started with now answers, for the UI's origin only.
        codec = await startCodecServer({ codec: new EncryptionCodec(ring), port: codecPort, origins: [ui] });
        await step(page, 'decoded', async () => {
          await page.goto(url, { waitUntil: 'domcontentloaded' });
          await page.getByText(marker).first().waitFor({ state: 'visible' });
          assert.ok((await pageText(page)).includes(`${marker}: summarise the secret plan`));
          // The turn's static summary on the timeline is a payload too: decoded as well.
          await page.getByText(`Turn 1: ${marker}`).first().waitFor({ state: 'visible' });
          assert.ok(!(await pageText(page)).includes('Codec Server could not connect'));
          await shot(page, 'ui-codec-decoded.png');
        });
      });
    } finally {
      await codec?.close();
    }
  },
);

async function withPage(fn: (page: Page) => Promise<void>): Promise<void> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'da-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    viewport: { width: 1600, height: 1400 },
    timeout: UI_TIMEOUT_MS,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    await fn(page);
  } finally {
    await context.close().catch(() => undefined);
    await rm(userDataDir, { recursive: true, force: true });
  }
}

/** The text of the page and its frames (the UI renders payloads in code blocks). */
async function pageText(page: Page): Promise<string> {
  const parts = await Promise.all(
    page.frames().map((f) =>
      f
        .locator('body')
        .innerText({ timeout: 2_000 })
        .catch(() => ''),
    ),
  );
  return parts.join('\n');
}

/** The page's visible text once it includes `wanted` (polled: the UI fetches after load). */
async function textShown(page: Page, wanted: string): Promise<string> {
  const deadline = Date.now() + UI_TIMEOUT_MS;
  for (;;) {
    const text = await pageText(page);
    if (text.includes(wanted)) return text;
    if (Date.now() > deadline) throw new Error(`expected to see "${wanted}" within ${UI_TIMEOUT_MS / 1000}s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function step(page: Page, name: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    const file = join(artifacts, `ui-codec-failure-${name}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    throw new Error(
      `UI codec check "${name}" failed at ${page.url()}: ${(err as Error).message}\nscreenshot: ${relative(process.cwd(), file)}`,
      {
        cause: err,
      },
    );
  }
}

async function shot(page: Page, name: string): Promise<void> {
  const file = join(artifacts, name);
  await page.screenshot({ path: file, fullPage: true });
  console.log(`[ui-codec] screenshot: ${relative(process.cwd(), file)}`);
}

test(
  'ui codec: `dev --ui-codec-endpoint` gives the UI its codec endpoint (the UI server settings say so)',
  { timeout: 120_000 },
  async () => {
    const { startDev } = await import('../../src/cli/dev');
    const dev = await startDev({
      db: join(await mkdtemp(join(tmpdir(), 'da-ui-codec-dev-')), 'temporal.db'),
      demoModel: true,
      uiCodecEndpoint: 'http://127.0.0.1:18888',
      log: () => undefined,
    });
    try {
      const settings = (await (await fetch(`${dev.server.uiAddress}/api/v1/settings`)).json()) as {
        Codec?: { Endpoint?: string };
      };
      assert.equal(settings.Codec?.Endpoint, 'http://127.0.0.1:18888');
    } finally {
      await dev.stop();
    }
  },
);
