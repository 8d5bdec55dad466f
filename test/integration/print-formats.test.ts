// integration: `run -p` / `--output-format text|json|stream-json` (issue 20.7) on the real dev
// server, a worker in this process, the fake Messages API: what each format prints (the reference's
// message types and keys, test/reference/outputFormats.ts compares them with Claude Code's), the
// prompt from stdin, a failing session and bad flags (one line, exit 1), and stream-json read line by
// line through a pipe while the session runs.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { errorResponse, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';

after(closeTestEnv);

const MAIN = join(__dirname, '..', '..', 'src', 'cli', 'main.js');
type Json = Record<string, unknown>;

function envOf(taskQueue: string, storeDir: string): Record<string, string> {
  return {
    TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
    DURABLE_AGENT_TASK_QUEUE: taskQueue,
    DURABLE_AGENT_STORE_DIR: storeDir,
  };
}

function oneLineError(r: { code: number | null; stdout: string; stderr: string }, pattern: RegExp): void {
  assert.equal(r.code, 1, `exit 1, got ${r.code}: ${r.stderr}`);
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
  assert.equal(lines.length, 1, `one line on stderr, got: ${JSON.stringify(r.stderr)}`);
  assert.match(lines[0] as string, pattern);
  assert.equal(r.stdout, '', 'nothing on stdout');
}

test('print: bad flags and a missing prompt get one line and exit 1, before anything starts', async () => {
  oneLineError(
    await cli(['-p', 'x', '--output-format', 'bogus']),
    /argument 'bogus' is invalid.*text, json, stream-json/,
  );
  oneLineError(
    await cli(['-p', 'x', '--output-format', 'stream-json']),
    /When using --print, --output-format=stream-json requires --verbose/,
  );
  oneLineError(
    await cli(['-p', '--output-format', 'json']),
    /Input must be provided either through stdin or as a prompt argument/,
  );
  oneLineError(await cli(['run', '-p', 'x', '--bogus']), /unknown option '--bogus'/);
  oneLineError(await cli(['run', '-p', '--detach', 'x']), /does not take --detach/);
  oneLineError(await cli(['run']), /missing required argument 'prompt'/);
});

test('print: text prints the final text only; json the one result object; the prompt from stdin', async () => {
  await withAgent({}, async ({ fake, taskQueue, workDir, storeDir }) => {
    const env = envOf(taskQueue, storeDir);
    await writeFile(join(workDir, 'a.txt'), 'hello\n');
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_p_read', name: 'Read', input: { file_path: join(workDir, 'a.txt') } }]),
      textResponse('The file says hello.'),
    );
    const text = await cli(['-p', 'read a.txt', '--cwd', workDir, '--model', 'claude-test'], env, 60_000);
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout, 'The file says hello.\n');

    fake.enqueue(textResponse('Just text.'));
    const json = await cli(
      ['--output-format', 'json', '--cwd', workDir, '--model', 'claude-test'],
      env,
      60_000,
      'say something\n',
    );
    assert.equal(json.code, 0, json.stderr);
    const lines = json.stdout.trim().split('\n');
    assert.equal(lines.length, 1, json.stdout);
    const r = JSON.parse(lines[0]!) as Json;
    assert.equal(r['type'], 'result');
    assert.equal(r['subtype'], 'success');
    assert.equal(r['is_error'], false);
    assert.equal(r['result'], 'Just text.');
    assert.equal(r['num_turns'], 1);
    assert.equal(r['stop_reason'], 'end_turn');
    assert.equal(typeof r['duration_ms'], 'number');
    assert.equal(typeof r['duration_api_ms'], 'number');
    // claude-test has no price (src/core/prices.ts): the cost is unknown, never 0 (issue 31).
    assert.equal(r['total_cost_usd'], null);
    assert.match(String(r['cost_note']), /no price for claude-test/);
    assert.equal((r['modelUsage'] as Record<string, Json>)['claude-test']!['costUSD'], null);
    assert.deepEqual(r['permission_denials'], []);
    assert.match(String(r['session_id']), /\S/);
    const usage = r['usage'] as Json;
    assert.ok((usage['output_tokens'] as number) > 0, JSON.stringify(usage));
    assert.deepEqual(Object.keys(r['modelUsage'] as Json), ['claude-test']);
    // The prompt came from stdin: the model was asked it.
    const last = fake.messageRequests().at(-1)!;
    assert.match(JSON.stringify(last.messages[0]), /say something/);
  });
});

test('print: a failing session is an error result (json exit 1; text prints the error, exit 1)', async () => {
  await withAgent({}, async ({ fake, taskQueue, workDir, storeDir }) => {
    const env = envOf(taskQueue, storeDir);
    fake.enqueue(errorResponse(400, { message: 'bad request here' }));
    const json = await cli(
      ['-p', 'x', '--output-format', 'json', '--cwd', workDir, '--model', 'claude-test'],
      env,
      60_000,
    );
    assert.equal(json.code, 1, json.stderr);
    const r = JSON.parse(json.stdout) as Json;
    assert.equal(r['type'], 'result');
    assert.equal(r['is_error'], true);
    assert.equal(r['subtype'], 'success');
    assert.equal(r['result'], 'API Error: 400 bad request here');
    assert.equal(r['api_error_status'], 400);
    assert.equal(r['terminal_reason'], 'api_error');
    fake.enqueue(errorResponse(400, { message: 'bad request here' }));
    const text = await cli(['-p', 'x', '--cwd', workDir, '--model', 'claude-test'], env, 60_000);
    assert.equal(text.code, 1);
    assert.equal(text.stdout, 'API Error: 400 bad request here\n');
    // --max-turns reached: the reference's error_max_turns.
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_p_ls', name: 'Bash', input: { command: 'true' } }]),
      textResponse('never'),
    );
    const max = await cli(
      [
        '-p',
        'x',
        '--output-format',
        'json',
        '--max-turns',
        '1',
        '--permission-mode',
        'bypassPermissions',
        '--no-sandbox',
        '--cwd',
        workDir,
        '--model',
        'claude-test',
      ],
      env,
      60_000,
    );
    assert.equal(max.code, 1, max.stderr);
    const m = JSON.parse(max.stdout) as Json;
    assert.equal(m['subtype'], 'error_max_turns');
    assert.equal(m['is_error'], true);
    assert.deepEqual(m['errors'], ['Reached maximum number of turns (1)']);
    assert.equal('result' in m, false);
  });
});

test('print: stream-json read line by line through a pipe: init, the tool call, its result, the answer, the result', async () => {
  await withAgent({}, async ({ fake, taskQueue, workDir, storeDir }) => {
    const env = { ...process.env, ...envOf(taskQueue, storeDir) };
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_p_bash', name: 'Bash', input: { command: 'echo piped' } }], {
        text: 'Running it.',
      }),
      textResponse('It printed piped.'),
    );
    // durable-agent … | a JSON parser reading one line at a time (a separate process, as a script would).
    const parser = `const rl=require('readline').createInterface({input:process.stdin});const out=[];rl.on('line',l=>{out.push(JSON.parse(l))});rl.on('close',()=>process.stdout.write(JSON.stringify(out)))`;
    const child = spawn(
      'sh',
      [
        '-c',
        `"${process.execPath}" "${MAIN}" -p 'run echo' --output-format stream-json --verbose --permission-mode bypassPermissions --no-sandbox --cwd "${workDir}" --model claude-test | "${process.execPath}" -e "${parser.replace(/"/g, '\\"')}"; echo " exit=$?"`,
      ],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await new Promise((r) => child.on('close', r));
    assert.match(stdout, / exit=0\n$/, stderr);
    const events = JSON.parse(stdout.replace(/ exit=0\n$/, '')) as Json[];
    const kinds = events.map((e) => `${String(e['type'])}${e['subtype'] ? `/${String(e['subtype'])}` : ''}`);
    assert.deepEqual(kinds, ['system/init', 'assistant', 'assistant', 'user', 'assistant', 'result/success']);
    const init = events[0]!;
    assert.equal(init['cwd'], workDir);
    assert.equal(init['model'], 'claude-test');
    assert.equal(init['permissionMode'], 'bypassPermissions');
    assert.ok((init['tools'] as string[]).includes('Bash'));
    const sid = init['session_id'];
    assert.ok(
      events.every((e) => e['session_id'] === sid),
      'one session id on every line',
    );
    const blocks = events.slice(1, 5).map((e) => ((e['message'] as Json)['content'] as Json[])[0]!);
    assert.deepEqual(blocks[0], { type: 'text', text: 'Running it.' });
    assert.equal(blocks[1]!['type'], 'tool_use');
    assert.equal(blocks[1]!['id'], 'toolu_p_bash');
    assert.equal(blocks[2]!['type'], 'tool_result');
    assert.equal(blocks[2]!['tool_use_id'], 'toolu_p_bash');
    assert.match(JSON.stringify(blocks[2]!['content']), /piped/);
    assert.deepEqual(blocks[3], { type: 'text', text: 'It printed piped.' });
    // The two blocks of one model message share its id; its usage and request id come from the audit.
    const m1 = events[1]!['message'] as Json;
    assert.equal(m1['id'], (events[2]!['message'] as Json)['id']);
    assert.match(String(m1['id']), /^msg_/);
    assert.equal(typeof events[1]!['request_id'], 'string');
    const result = events.at(-1)!;
    assert.equal(result['result'], 'It printed piped.');
    assert.equal(result['num_turns'], 2);
    assert.equal(result['is_error'], false);
  });
});
