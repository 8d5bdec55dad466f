// integration: agent-controlled text never reaches the operator's terminal as control sequences. A
// scripted model asks for a Bash command carrying OSC 52 (write the clipboard), a `\r` and an
// erase-line that would hide its start, and a bidi override; `run` (follow), `run -p` (the approval
// line on stderr) and `status` print it — real CLI processes, the real dev server, a worker in this
// process. Oracle: the bytes written contain no raw ESC, BEL, CR or U+202E, and show the sequence.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { toolUseResponse } from '../../src/testing/fakeAnthropic';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';

after(closeTestEnv);

const MAIN = join(__dirname, '..', '..', 'src', 'cli', 'main.js');
const HOSTILE = 'ls\u001b]52;c;cm0gLXJmIH4=\u0007\r\u001b[2Kecho harmless \u202e txt.exe';

/** Runs the command until `until(stdout, stderr)` holds (or 60 s passed), then Ctrl-C (detach). */
function runUntil(
  args: string[],
  env: Record<string, string>,
  until: (stdout: string, stderr: string) => boolean,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let stopping = false;
    const check = (): void => {
      if (!stopping && until(stdout, stderr)) {
        stopping = true;
        setTimeout(() => child.kill('SIGINT'), 500);
      }
    };
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString('latin1');
      check();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString('latin1');
      check();
    });
    const giveUp = setTimeout(() => child.kill('SIGINT'), 60_000);
    const hard = setTimeout(() => child.kill('SIGKILL'), 75_000);
    child.on('exit', (code) => {
      clearTimeout(giveUp);
      clearTimeout(hard);
      resolve({ code, stdout, stderr });
    });
  });
}

/** No raw control of the agent's text: ESC, BEL, CR, and U+202E (UTF-8 e2 80 ae, read as latin1). */
function assertInert(bytes: string, what: string): void {
  for (const [name, raw] of [
    ['ESC', '\u001b'],
    ['BEL', '\u0007'],
    ['CR', '\r'],
    ['U+202E', '\u00e2\u0080\u00ae'],
  ] as const)
    assert.ok(!bytes.includes(raw), `${what} wrote a raw ${name}: ${JSON.stringify(bytes)}`);
}

test('integration: follow, the approval line of run -p and status show an escape sequence in a Bash command instead of sending it to the terminal', async () => {
  await withAgent({}, async ({ fake, taskQueue, workDir }) => {
    // Leaving the sandbox asks a human in the default mode: the session parks on the approval.
    for (const id of ['toolu_esc1', 'toolu_esc2'])
      fake.enqueue(
        toolUseResponse([{ id, name: 'Bash', input: { command: HOSTILE, dangerouslyDisableSandbox: true } }]),
      );
    const env = { TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string, DURABLE_AGENT_TASK_QUEUE: taskQueue };
    const followed = `esc-follow-${taskQueue}`;
    const r = await runUntil(
      ['run', '--id', followed, '--cwd', workDir, '--model', 'claude-test', 'list', 'files'],
      env,
      (out) => /approval needed/.test(out),
    );
    assert.match(r.stdout, /approval needed: /, r.stdout + r.stderr);
    assertInert(r.stdout, 'run (follow)');
    assert.ok(r.stdout.includes('ls\u00e2\u0090\u009b]52;c;cm0gLXJmIH4=\u00e2\u0090\u0087\\r'), `shown: ${r.stdout}`);
    const st = await cli(['status', followed], env);
    assert.equal(st.code, 0, st.stderr);
    assert.match(st.stdout, /pending/);
    assertInert(Buffer.from(st.stdout, 'utf8').toString('latin1'), 'status');
    assert.ok(st.stdout.includes('␛]52;c;'), st.stdout);
    // Print mode: the approval is named on stderr.
    const printed = `esc-print-${taskQueue}`;
    const p = await runUntil(
      ['run', '-p', '--id', printed, '--cwd', workDir, '--model', 'claude-test', 'list', 'files'],
      env,
      (_out, err) => /approval needed/.test(err),
    );
    assert.match(p.stderr, /approval needed: /, p.stderr);
    assertInert(p.stderr, 'run -p (the approval line)');
    assert.ok(p.stderr.includes('\\r'), p.stderr);
    for (const id of [followed, printed]) assert.equal((await cli(['cancel', id], env)).code, 0);
  });
});
