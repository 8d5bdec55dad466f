// integration (red team, issue 30, round d's control-plane surfaces, end to end on the dev server):
// can a session's sandboxed Bash reach the Temporal frontend and forge what the workers trust —
// a `budgetCharge` or `turnYield` signal to its own session, a `budget` Update raising its limit,
// a `modelBackoff` signal-with-start of the `model-gate/<queue>` limiter (every worker of the queue
// would stop calling the model), a workflow of its own? The agent runs `node attack.cjs` (the real
// @temporalio/client, the test server's real address) through the model and the tool activity, in
// the OS sandbox with the default network policy (no domain allowed, loopback included). Oracles:
// the session's history (no forged signal or Update event, its budget unchanged) and the server's
// own record of the forged workflows (none exists). Control: the same script outside the sandbox
// does all of it (the attack is real).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { MODEL_GATE } from '../../src/core/modelLimit';
import { closeTestEnv, getTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { SandboxHost } from '../../src/sandbox/host';
import { sandboxSkip } from '../support/systemPackages';

after(closeTestEnv);

const MARK = 'forged-by-the-agent';

/** The attack: connect to the frontend and forge every control-plane message a worker trusts. */
function attackScript(address: string, sessionId: string, gateId: string, forgedId: string): string {
  return `
const { Connection, Client } = require(${JSON.stringify(require.resolve('@temporalio/client'))});
const timeout = (ms) => new Promise((_, no) => setTimeout(() => no(new Error('timed out')), ms));
(async () => {
  const out = [];
  try {
    const connection = await Promise.race([Connection.connect({ address: ${JSON.stringify(address)} }), timeout(8000)]);
    const client = new Client({ connection, namespace: 'default' });
    const h = client.workflow.getHandle(${JSON.stringify(sessionId)});
    const tries = [
      ['budgetCharge', () => h.signal('budgetCharge', { from: '${MARK}', usd: -1000, inputTokens: 0, outputTokens: 0 })],
      ['turnYield', () => h.signal('turnYield')],
      ['budget', () => h.executeUpdate('budget', { args: [{ addUsd: 1000, by: '${MARK}' }] })],
      ['gate', () => client.workflow.signalWithStart('${MODEL_GATE.workflowType}', { workflowId: ${JSON.stringify(gateId)}, taskQueue: 'forged-tq', args: [{ until: 0 }], signal: '${MODEL_GATE.signal}', signalArgs: [Date.now() + 3.15e11] })],
      ['start', () => client.workflow.start('forgedWorkflow', { workflowId: ${JSON.stringify(forgedId)}, taskQueue: 'forged-tq' })],
    ];
    for (const [what, fn] of tries) {
      try { await Promise.race([fn(), timeout(8000)]); out.push(what + ': sent'); }
      catch (e) { out.push(what + ': ' + String(e && e.message).split('\\n')[0]); }
    }
  } catch (e) { out.push('connect: ' + String(e && e.message).split('\\n')[0]); }
  console.log(out.join('\\n'));
  process.exit(0);
})();
`;
}

async function exists(client: Client, id: string): Promise<boolean> {
  try {
    await client.workflow.getHandle(id).describe();
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

/** The payloads' text (JSON as the default converter writes it). */
const text = (payloads: Array<{ data?: Uint8Array | null }> | null | undefined): string =>
  (payloads ?? []).map((p) => Buffer.from(p.data ?? new Uint8Array()).toString()).join(' ');

/** The session history's signals and Updates, by name, with their payloads' text. */
async function controlEvents(client: Client, id: string): Promise<string[]> {
  const history = await client.workflow.getHandle(id).fetchHistory();
  const out: string[] = [];
  for (const e of history.events ?? []) {
    const s = e.workflowExecutionSignaledEventAttributes;
    if (s) out.push(`signal ${s.signalName} ${text(s.input?.payloads)}`);
    const u = e.workflowExecutionUpdateAcceptedEventAttributes;
    if (u) out.push(`update ${u.acceptedRequest?.input?.name} ${text(u.acceptedRequest?.input?.args?.payloads)}`);
  }
  return out;
}

test(
  'integration: sandboxed Bash cannot reach the Temporal frontend: no forged budgetCharge/turnYield signal, budget Update, model-gate backoff or workflow (control: outside the sandbox all of it lands)',
  { timeout: 240_000 },
  async (t) => {
    const host = new SandboxHost();
    const skip = await sandboxSkip(host, 'the control-plane attack');
    await host.close();
    if (skip) return t.skip(skip);
    const env = await getTestEnv();
    const address = env.address;
    await withAgent({}, async ({ fake, start, client, workDir, taskQueue }) => {
      const gateId = MODEL_GATE.workflowId(`${taskQueue}-model`);
      const forgedId = `forged-${taskQueue}`;
      const sessionId = `red-cp-${taskQueue}`;
      let bashResult = '';
      fake.script(async (req) => {
        if (req.messages.length === 1) {
          writeFileSync(path.join(workDir, 'attack.cjs'), attackScript(address, sessionId, gateId, forgedId));
          return toolUseResponse([{ id: 'toolu_attack', name: 'Bash', input: { command: 'node attack.cjs' } }]);
        }
        bashResult = JSON.stringify(req.messages.at(-1)?.content ?? '');
        return textResponse('done');
      });
      const handle = await start({
        prompt: 'attack the control plane',
        tools: ['Bash'],
        permissionMode: 'bypassPermissions',
        maxBudgetUsd: 5,
        id: sessionId,
      });
      await handle.result();
      const events = await controlEvents(client, sessionId);
      assert.match(bashResult, /connect: |budgetCharge: /, `the attack ran in the sandbox: ${bashResult}`);
      // The session's own turn charges its steps to itself (fg:<session>, keyed by its turn's model
      // activities: issue 34); anything else is forged.
      const own = (e: string): boolean =>
        !e.includes(MARK) &&
        e.startsWith('signal budgetCharge ') &&
        e.includes(`"chargeTo":"fg:${sessionId}"`) &&
        e.includes(`"key":"${sessionId}/turn-`);
      assert.ok(events.some(own), `the session's own step charges: ${events.join('\n')}`);
      assert.deepEqual(
        events.filter((e) => !own(e) && (e.includes(MARK) || /signal (turnYield|budgetCharge)|update budget/.test(e))),
        [],
        `forged control messages in the session's history (the Bash result: ${bashResult})`,
      );
      assert.equal(await exists(client, gateId), false, 'no forged model-gate workflow');
      assert.equal(await exists(client, forgedId), false, 'no forged workflow');

      // Control: the same script outside the sandbox (the worker's own network) lands every message.
      const controlGate = `${gateId}-control`;
      const controlForged = `${forgedId}-control`;
      const script = path.join(workDir, 'control.cjs');
      const victim = await start({ prompt: 'wait', tools: [], maxBudgetUsd: 5, id: `red-cp-victim-${taskQueue}` });
      writeFileSync(script, attackScript(address, victim.workflowId, controlGate, controlForged));
      fake.script(async () => {
        await new Promise((r) => setTimeout(r, 60_000));
        return textResponse('late');
      });
      const { stdout } = await promisify(execFile)(process.execPath, [script], { timeout: 60_000 });
      assert.match(stdout, /budgetCharge: sent/, stdout);
      assert.equal(await exists(client, controlGate), true, `control: ${stdout}`);
      assert.equal(await exists(client, controlForged), true, `control: ${stdout}`);
      const victimEvents = await controlEvents(client, victim.workflowId);
      assert.ok(
        victimEvents.some((e) => e.includes(MARK)),
        `control: the forged charge is in the victim's history: ${victimEvents.join('\n')}`,
      );
      for (const id of [victim.workflowId, controlGate, controlForged])
        await client.workflow
          .getHandle(id)
          .terminate('test over')
          .catch(() => undefined);
    });
  },
);
