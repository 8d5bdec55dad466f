// `durable-agent demo`: the whole machinery in one command, on the embedded default — a dev
// server with its UI, a worker, and a session that explores and fixes a scratch copy of the
// bundled sample project (turns, a parallel batch, an approval, the audit trail).
import { encryptionCodecs } from '../temporal/service/codec';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { approveToolUse, startSession } from '../temporal/client';
import { followSession } from './follow';
import { startDev } from './dev';

export function sampleProjectDir(): string {
  for (let dir = __dirname; ; dir = resolve(dir, '..')) {
    const candidate = join(dir, 'demo', 'sample-project');
    if (existsSync(candidate)) return candidate;
    if (resolve(dir, '..') === dir) throw new Error('demo/sample-project not found next to the program');
  }
}

export interface DemoOptions {
  db: string;
  port: number;
  uiPort: number;
  autoApprove: boolean;
  exit: boolean;
  /** No --db: the default database (see startDev). */
  defaultDb?: boolean;
  waitForSignal: () => Promise<void>;
}

export async function runDemo(o: DemoOptions): Promise<number> {
  // The scripted model answers in milliseconds; a short pause per model call lets a newcomer
  // watch the turns go by (DURABLE_AGENT_DEMO_DELAY_MS=0 for full speed).
  process.env.DURABLE_AGENT_DEMO_DELAY_MS ??= '600';
  // The demo's session follows the scripted model's plan: always that model, key or no key.
  const dev = await startDev({
    db: o.db,
    ...(o.defaultDb ? { defaultDb: true } : {}),
    port: o.port,
    uiPort: o.uiPort,
    demoModel: true,
  });
  const connection = await Connection.connect({ address: dev.server.address });
  try {
    // The worker encrypts payloads when a key is configured: so does this client (docs/encryption.md).
    const client = new Client({
      connection,
      namespace: dev.server.namespace,
      dataConverter: { payloadCodecs: encryptionCodecs() },
    });
    const work = mkdtempSync(join(tmpdir(), 'durable-agent-demo-'));
    cpSync(sampleProjectDir(), work, { recursive: true });
    console.log(`ui:       ${dev.server.uiAddress}`);
    console.log(`project:  scratch copy of the sample project at ${work}`);
    const handle = await startSession(client, {
      prompt: 'Find the TODO in this project, fix it, and make the tests pass.',
      cwd: work,
      permissionMode: 'default',
      rules: { allow: ['Bash(node test/*)'], ask: [], deny: [] },
      maxTurns: 12,
      model: { model: 'scripted-demo' },
    });
    const id = handle.workflowId;
    console.log(
      `session:  ${id}\n          ${dev.server.uiAddress}/namespaces/${dev.server.namespace}/workflows/${encodeURIComponent(id)}`,
    );
    const outcome = await followSession(client, id, {
      onApprovalPending: (a) => {
        if (!o.autoApprove) return;
        setTimeout(() => {
          console.log(
            `  ✓ approving ${a.toolUseId} as "demo (auto-approve)" — run with --no-auto-approve to decide yourself`,
          );
          void approveToolUse(client, id, a.toolUseId, 'demo (auto-approve)').catch((err: Error) =>
            console.error(`  approval failed: ${err.message}`),
          );
        }, 1500);
      },
    });
    const { buildAudit, formatAuditText } = await import('../audit');
    console.log('\naudit trail (durable-agent audit ' + id + '):');
    process.stdout.write(formatAuditText(await buildAudit(client, id)));
    console.log(`\nUI: ${dev.server.uiAddress}/namespaces/${dev.server.namespace}/workflows/${encodeURIComponent(id)}`);
    const ok = outcome.kind === 'ended' && outcome.status === 'completed';
    if (!o.exit) {
      console.log('The server and the worker keep running so you can browse the UI; Ctrl-C stops them.');
      await o.waitForSignal();
    }
    return ok ? 0 : 1;
  } finally {
    await connection.close().catch(() => undefined);
    await dev.stop();
  }
}
