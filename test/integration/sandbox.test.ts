// integration: Bash in the OS sandbox in real sessions on the dev server — writes inside work,
// writes outside / credential reads / connections to hosts not allowed fail inside the sandbox
// (the session runs in bypassPermissions, so the rules let everything through: only the wall
// stops them), the audit says per call that it was sandboxed; and a settings-strict-style project
// settings file used through the CLI. Needs bwrap, socat, ripgrep (fatal under CI=true).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { buildAudit, formatAuditText, type AuditToolCall } from '../../src/audit';
import { SandboxHost } from '../../src/sandbox/host';
import { sandboxSkip } from '../support/systemPackages';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';
import { waitFor } from '../support/wait';
import { approveToolUse, sessionStatus } from '../../src/temporal/client';

/** Bash's sandbox in these tests (the worker's start-up owns one: src/runtime/callDeps.ts). */
const sandboxHost = new SandboxHost();

let skip: string | false = false;
let server: http.Server;
let port = 0;
let hits = 0;

before(async () => {
  skip = await sandboxSkip(sandboxHost, 'the sandbox integration tests');
  server = http.createServer((_req, res) => {
    hits++;
    res.end('SERVER-SECRET\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as { port: number }).port;
});

after(async () => {
  server?.close();
  await sandboxHost.close();
  await closeTestEnv();
});

function byId(calls: AuditToolCall[], id: string): AuditToolCall {
  const c = calls.find((x) => x.toolUseId === id);
  assert.ok(c, `audit entry ${id}`);
  return c;
}

test('integration: with the sandbox on, writes inside work; writes outside, credential reads and other hosts fail inside the sandbox; the audit says so', async (t) => {
  if (skip) return t.skip(skip);
  await withAgent({}, async ({ fake, start, workDir, client }) => {
    const outsideDir = await fs.mkdtemp(join(tmpdir(), 'da-outside-'));
    const secretDir = await fs.mkdtemp(join(tmpdir(), 'da-secret-'));
    await fs.writeFile(join(secretDir, 'id_rsa'), 'FAKE-KEY-MATERIAL\n');
    const outside = join(outsideDir, 'escaped.txt');
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_in', name: 'Bash', input: { command: 'echo inside > made.txt && cat made.txt' } },
        { id: 'toolu_out', name: 'Bash', input: { command: `echo pwned > ${outside}` } },
        { id: 'toolu_key', name: 'Bash', input: { command: `cat ${join(secretDir, 'id_rsa')}` } },
        {
          id: 'toolu_net',
          name: 'Bash',
          input: { command: `curl -fsS --max-time 5 --noproxy '' http://127.0.0.1:${port}/` },
        },
        { id: 'toolu_direct', name: 'Bash', input: { command: `curl -fsS --max-time 5 http://127.0.0.1:${port}/` } },
        {
          id: 'toolu_ok_net',
          name: 'Bash',
          input: { command: `curl -fsS --max-time 5 --noproxy '' http://localhost:${port}/` },
        },
      ]),
      textResponse('done'),
    );
    const handle = await start({
      prompt: 'try the walls',
      permissionMode: 'bypassPermissions',
      sandbox: { filesystem: { denyRead: [secretDir] }, network: { allowedDomains: ['localhost'] } },
    });
    const result = await handle.result();
    assert.equal(result.status, 'completed');

    assert.equal(await fs.readFile(join(workDir, 'made.txt'), 'utf8'), 'inside\n');
    assert.equal(existsSync(outside), false, 'nothing was written outside the working directory');
    assert.equal(hits, 1, 'only the allowed host (localhost) reached the server');

    const audit = await buildAudit(client, handle.workflowId);
    assert.match(audit.session.sandbox ?? '', /^on — Bash writes only in /);
    assert.deepEqual(audit.session.sandboxSettings?.filesystem?.denyRead, [secretDir]);
    const calls = audit.toolCalls;
    for (const c of calls) {
      assert.equal(c.sandbox?.sandboxed, true, `${c.toolUseId} ran sandboxed`);
      assert.equal(c.decision?.source, 'mode', `${c.toolUseId}: the rules (bypassPermissions) let it through`);
    }
    assert.equal(byId(calls, 'toolu_in').status, 'ok');
    const out = byId(calls, 'toolu_out');
    assert.equal(out.status, 'error');
    assert.match(out.resultPreview, /Read-only file system/);
    assert.ok(
      out.sandbox?.violations?.some((v) => v.includes(outside)),
      JSON.stringify(out.sandbox),
    );
    const key = byId(calls, 'toolu_key');
    assert.equal(key.status, 'error');
    assert.doesNotMatch(key.resultPreview, /FAKE-KEY-MATERIAL/);
    const net = byId(calls, 'toolu_net');
    assert.equal(net.status, 'error');
    assert.doesNotMatch(net.resultPreview, /SERVER-SECRET/);
    assert.ok(
      net.sandbox?.violations?.some((v) =>
        /deny network-outbound 127\.0\.0\.1:\d+ \(host is not on the allow list\)/.test(v),
      ),
      JSON.stringify(net.sandbox),
    );
    assert.equal(
      byId(calls, 'toolu_direct').status,
      'error',
      'no network namespace: a direct connection has nowhere to go',
    );
    assert.equal(byId(calls, 'toolu_ok_net').status, 'ok');
    assert.match(byId(calls, 'toolu_ok_net').resultPreview, /SERVER-SECRET/);
    const text = formatAuditText(audit);
    assert.match(text, /sandbox: on — /);
    assert.match(text, /sandboxed, sandbox blocked: deny network-outbound 127\.0\.0\.1/);

    // Control: the same calls with the sandbox off do what the wall prevented.
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_out2', name: 'Bash', input: { command: `echo pwned > ${outside}` } },
        { id: 'toolu_net2', name: 'Bash', input: { command: `curl -fsS --max-time 5 http://127.0.0.1:${port}/` } },
      ]),
      textResponse('done'),
    );
    const open = await start({ prompt: 'no walls', permissionMode: 'bypassPermissions', sandbox: { enabled: false } });
    assert.equal((await open.result()).status, 'completed');
    assert.equal(existsSync(outside), true);
    assert.equal(hits, 2);
    const openAudit = await buildAudit(client, open.workflowId);
    assert.match(openAudit.session.sandbox ?? '', /^off — /);
    assert.deepEqual(
      openAudit.toolCalls.map((c) => [c.toolUseId, c.status, c.sandbox?.sandboxed]),
      [
        ['toolu_out2', 'ok', false],
        ['toolu_net2', 'ok', false],
      ],
    );
  });
});

test('integration: a settings-strict-style project settings file through the CLI: bypass refused, deny/ask rules, sandbox auto-allow in dontAsk, no escape hatch', async (t) => {
  if (skip) return t.skip(skip);
  await withAgent({}, async ({ fake, taskQueue, workDir, client }) => {
    const userHome = await fs.mkdtemp(join(tmpdir(), 'da-userhome-'));
    const env = {
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      DURABLE_AGENT_HOME: userHome,
    };
    const settingsPath = join(workDir, '.durable-agent', 'settings.json');
    await fs.mkdir(join(workDir, '.durable-agent'));
    // After the reference's examples/settings/settings-strict.json, in durable-agent's settings file.
    const strict = {
      $schema: 'https://json.schemastore.org/claude-code-settings.json',
      permissions: {
        disableBypassPermissionsMode: 'disable',
        defaultMode: 'dontAsk',
        ask: ['Bash(git push:*)'],
        deny: ['Bash(curl:*)', 'Read(./.env)', 'WebFetch', 'WebSearch'],
      },
      allowManagedHooksOnly: true,
      sandbox: {
        enabled: true,
        failIfUnavailable: true,
        autoAllowBashIfSandboxed: true,
        allowUnsandboxedCommands: false,
        excludedCommands: [],
        network: { allowedDomains: [], allowLocalBinding: false, allowAllUnixSockets: false },
        enableWeakerNestedSandbox: false,
      },
    };
    await fs.writeFile(settingsPath, JSON.stringify(strict, null, 2));
    await fs.writeFile(join(workDir, '.env'), 'DOTENV-SECRET=1\n');

    const refused = await cli(
      ['run', '--detach', '--cwd', workDir, '--permission-mode', 'bypassPermissions', 'x'],
      env,
    );
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /bypassPermissions mode is disabled by permissions\.disableBypassPermissionsMode/);
    assert.ok(refused.stderr.includes(settingsPath), refused.stderr);

    const outside = join(await fs.mkdtemp(join(tmpdir(), 'da-strict-out-')), 'x.txt');
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_s_write', name: 'Bash', input: { command: 'echo built > build.txt' } },
        { id: 'toolu_s_push', name: 'Bash', input: { command: 'git push origin main' } },
        { id: 'toolu_s_curl', name: 'Bash', input: { command: `curl -s http://127.0.0.1:${port}/` } },
        { id: 'toolu_s_env', name: 'Bash', input: { command: 'cat .env' } },
        {
          id: 'toolu_s_escape',
          name: 'Bash',
          input: { command: `echo out > ${outside}`, dangerouslyDisableSandbox: true },
        },
      ]),
      textResponse('strict done'),
    );
    const run = await cli(['run', '--cwd', workDir, '--model', 'claude-test', 'build', 'it'], env, 90_000);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /sandbox: on — Bash writes only in /);
    assert.match(
      run.stderr,
      /warning: .*settings\.json: allowManagedHooksOnly is honoured only in the managed settings/,
    );
    const id = /session (\S+) started/.exec(run.stdout)?.[1] as string;
    assert.ok(id, run.stdout);

    assert.equal(
      await fs.readFile(join(workDir, 'build.txt'), 'utf8'),
      'built\n',
      'a sandboxed write ran without asking in dontAsk',
    );
    assert.equal(
      existsSync(outside),
      false,
      'allowUnsandboxedCommands: false — the escape request was ignored, the call stayed inside',
    );
    const audit = await buildAudit(client, id);
    const calls = audit.toolCalls;
    const write = byId(calls, 'toolu_s_write');
    assert.deepEqual([write.status, write.decision?.source, write.sandbox?.sandboxed], ['ok', 'sandbox', true]);
    const push = byId(calls, 'toolu_s_push');
    assert.deepEqual([push.status, push.decision?.behavior], ['denied', 'deny'], 'the ask rule asks; dontAsk denies');
    const curl = byId(calls, 'toolu_s_curl');
    assert.deepEqual([curl.status, curl.decision?.source, curl.decision?.detail], ['denied', 'rule', 'Bash(curl:*)']);
    const dotenv = byId(calls, 'toolu_s_env');
    assert.doesNotMatch(dotenv.resultPreview, /DOTENV-SECRET/, 'Read(./.env) holds for Bash too');
    const escape = byId(calls, 'toolu_s_escape');
    assert.equal(escape.sandbox?.sandboxed, true);
    assert.equal(hits, 2, 'the denied curl never ran');

    const status = await cli(['status', id], env);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /sandbox {3}on — /);

    // A malformed rule: one line naming the file and the key, nothing started.
    await fs.writeFile(settingsPath, JSON.stringify({ permissions: { deny: ['Bash(rm -rf *'] } }));
    const bad = await cli(['run', '--detach', '--cwd', workDir, 'x'], env);
    assert.notEqual(bad.code, 0);
    assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
    assert.ok(bad.stderr.includes(`${settingsPath}: permissions.deny[0] is malformed`), bad.stderr);
  });
});

test('integration: where the sandbox cannot start, `run` says why; with failIfUnavailable it refuses to start the session', async (t) => {
  if (skip) return t.skip(skip);
  await withAgent({}, async ({ fake, taskQueue, workDir, client }) => {
    const userHome = await fs.mkdtemp(join(tmpdir(), 'da-userhome-'));
    // The CLI's host without bubblewrap (nothing on PATH); the worker of this test keeps its own.
    const env = {
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
      DURABLE_AGENT_TASK_QUEUE: taskQueue,
      DURABLE_AGENT_HOME: userHome,
      PATH: '/nonexistent',
    };
    await fs.mkdir(join(workDir, '.durable-agent'));
    await fs.writeFile(
      join(workDir, '.durable-agent', 'settings.json'),
      JSON.stringify({ sandbox: { failIfUnavailable: true } }),
    );
    const refused = await cli(['run', '--detach', '--cwd', workDir, 'x'], env);
    assert.notEqual(refused.code, 0);
    const lines = refused.stderr.trim().split('\n');
    assert.equal(lines.length, 1, refused.stderr);
    assert.match(
      lines[0] as string,
      /The sandbox is unavailable here \(.*bubblewrap.*\) and sandbox\.failIfUnavailable is set: the session was not started/,
    );

    await fs.writeFile(join(workDir, '.durable-agent', 'settings.json'), JSON.stringify({}));
    fake.enqueue(textResponse('nothing to do'));
    const warned = await cli(['run', '--cwd', workDir, '--model', 'claude-test', 'x'], env, 60_000);
    assert.equal(warned.code, 0, warned.stderr);
    assert.match(warned.stdout, /sandbox: unavailable — .*bubblewrap.*; Bash runs unsandboxed/);
    const id = /session (\S+) started/.exec(warned.stdout)?.[1] as string;
    assert.match((await buildAudit(client, id)).session.sandbox ?? '', /^unavailable — /);

    // --no-sandbox: off, explicitly, and said so (no probe needed).
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_nosb', name: 'Bash', input: { command: 'echo plain' } }]),
      textResponse('ok'),
    );
    const off = await cli(
      [
        'run',
        '--no-sandbox',
        '--permission-mode',
        'bypassPermissions',
        '--cwd',
        workDir,
        '--model',
        'claude-test',
        'x',
      ],
      env,
      60_000,
    );
    assert.equal(off.code, 0, off.stderr);
    assert.match(off.stdout, /sandbox: off — .*--no-sandbox/);
    const offId = /session (\S+) started/.exec(off.stdout)?.[1] as string;
    const offCall = byId((await buildAudit(client, offId)).toolCalls, 'toolu_nosb');
    assert.deepEqual([offCall.status, offCall.sandbox?.sandboxed], ['ok', false]);
  });
});

test('integration: an excluded command leaves the sandbox only after a human approves it, even with an allow rule; the audit says it ran unsandboxed', async (t) => {
  if (skip) return t.skip(skip);
  await withAgent({}, async ({ fake, start, client }) => {
    const outsideDir = await fs.mkdtemp(join(tmpdir(), 'da-excluded-'));
    const target = join(outsideDir, 'excluded.txt');
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_excl', name: 'Bash', input: { command: `touch ${target}` } }]),
      textResponse('done'),
    );
    const handle = await start({
      prompt: 'touch it',
      permissionMode: 'acceptEdits',
      rules: { allow: ['Bash(touch:*)'], ask: [], deny: [] },
      sandbox: { excludedCommands: ['touch'] },
    });
    const pending = await waitFor(
      'the approval request',
      async () => (await sessionStatus(client, handle.workflowId)).pendingApprovals[0],
    );
    assert.equal(pending.toolUseId, 'toolu_excl');
    assert.match(pending.message, /outside the sandbox: "touch" is in sandbox\.excludedCommands/);
    assert.equal(existsSync(target), false, 'nothing ran before the approval');
    await approveToolUse(client, handle.workflowId, 'toolu_excl', 'alice');
    assert.equal((await handle.result()).status, 'completed');
    assert.equal(existsSync(target), true, 'approved: it ran outside the sandbox');
    const call = byId((await buildAudit(client, handle.workflowId)).toolCalls, 'toolu_excl');
    assert.equal(call.approval?.asked.source, 'sandbox');
    assert.deepEqual([call.decision?.source, call.decision?.by], ['human', 'alice']);
    assert.equal(call.sandbox?.sandboxed, false);
    assert.match(call.sandbox?.reason ?? '', /excludedCommands/);
  });
});
