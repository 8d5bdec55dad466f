"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: `run -p` / `--output-format text|json|stream-json` (issue 20.7) on the real dev
// server, a worker in this process, the fake Messages API: what each format prints (the reference's
// message types and keys, test/reference/outputFormats.ts compares them with Claude Code's), the
// prompt from stdin, a failing session and bad flags (one line, exit 1), and stream-json read line by
// line through a pipe while the session runs.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_path_1 = require("node:path");
const promises_1 = require("node:fs/promises");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const cli_1 = require("../support/cli");
(0, node_test_1.after)(temporal_1.closeTestEnv);
const MAIN = (0, node_path_1.join)(__dirname, '..', '..', 'src', 'cli', 'main.js');
function envOf(taskQueue, storeDir) {
    return {
        TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
        DURABLE_AGENT_TASK_QUEUE: taskQueue,
        DURABLE_AGENT_STORE_DIR: storeDir,
    };
}
function oneLineError(r, pattern) {
    strict_1.default.equal(r.code, 1, `exit 1, got ${r.code}: ${r.stderr}`);
    const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
    strict_1.default.equal(lines.length, 1, `one line on stderr, got: ${JSON.stringify(r.stderr)}`);
    strict_1.default.match(lines[0], pattern);
    strict_1.default.equal(r.stdout, '', 'nothing on stdout');
}
(0, node_test_1.test)('print: bad flags and a missing prompt get one line and exit 1, before anything starts', async () => {
    oneLineError(await (0, cli_1.cli)(['-p', 'x', '--output-format', 'bogus']), /argument 'bogus' is invalid.*text, json, stream-json/);
    oneLineError(await (0, cli_1.cli)(['-p', 'x', '--output-format', 'stream-json']), /When using --print, --output-format=stream-json requires --verbose/);
    oneLineError(await (0, cli_1.cli)(['-p', '--output-format', 'json']), /Input must be provided either through stdin or as a prompt argument/);
    oneLineError(await (0, cli_1.cli)(['run', '-p', 'x', '--bogus']), /unknown option '--bogus'/);
    oneLineError(await (0, cli_1.cli)(['run', '-p', '--detach', 'x']), /does not take --detach/);
    oneLineError(await (0, cli_1.cli)(['run']), /missing required argument 'prompt'/);
});
(0, node_test_1.test)('print: text prints the final text only; json the one result object; the prompt from stdin', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, taskQueue, workDir, storeDir }) => {
        const env = envOf(taskQueue, storeDir);
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, 'a.txt'), 'hello\n');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_p_read', name: 'Read', input: { file_path: (0, node_path_1.join)(workDir, 'a.txt') } }]), (0, fakeAnthropic_1.textResponse)('The file says hello.'));
        const text = await (0, cli_1.cli)(['-p', 'read a.txt', '--cwd', workDir, '--model', 'claude-test'], env, 60_000);
        strict_1.default.equal(text.code, 0, text.stderr);
        strict_1.default.equal(text.stdout, 'The file says hello.\n');
        fake.enqueue((0, fakeAnthropic_1.textResponse)('Just text.'));
        const json = await (0, cli_1.cli)(['--output-format', 'json', '--cwd', workDir, '--model', 'claude-test'], env, 60_000, 'say something\n');
        strict_1.default.equal(json.code, 0, json.stderr);
        const lines = json.stdout.trim().split('\n');
        strict_1.default.equal(lines.length, 1, json.stdout);
        const r = JSON.parse(lines[0]);
        strict_1.default.equal(r['type'], 'result');
        strict_1.default.equal(r['subtype'], 'success');
        strict_1.default.equal(r['is_error'], false);
        strict_1.default.equal(r['result'], 'Just text.');
        strict_1.default.equal(r['num_turns'], 1);
        strict_1.default.equal(r['stop_reason'], 'end_turn');
        strict_1.default.equal(typeof r['duration_ms'], 'number');
        strict_1.default.equal(typeof r['duration_api_ms'], 'number');
        strict_1.default.equal(typeof r['total_cost_usd'], 'number');
        strict_1.default.deepEqual(r['permission_denials'], []);
        strict_1.default.match(String(r['session_id']), /\S/);
        const usage = r['usage'];
        strict_1.default.ok(usage['output_tokens'] > 0, JSON.stringify(usage));
        strict_1.default.deepEqual(Object.keys(r['modelUsage']), ['claude-test']);
        // The prompt came from stdin: the model was asked it.
        const last = fake.messageRequests().at(-1);
        strict_1.default.match(JSON.stringify(last.messages[0]), /say something/);
    });
});
(0, node_test_1.test)('print: a failing session is an error result (json exit 1; text prints the error, exit 1)', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, taskQueue, workDir, storeDir }) => {
        const env = envOf(taskQueue, storeDir);
        fake.enqueue((0, fakeAnthropic_1.errorResponse)(400, { message: 'bad request here' }));
        const json = await (0, cli_1.cli)(['-p', 'x', '--output-format', 'json', '--cwd', workDir, '--model', 'claude-test'], env, 60_000);
        strict_1.default.equal(json.code, 1, json.stderr);
        const r = JSON.parse(json.stdout);
        strict_1.default.equal(r['type'], 'result');
        strict_1.default.equal(r['is_error'], true);
        strict_1.default.equal(r['subtype'], 'success');
        strict_1.default.equal(r['result'], 'API Error: 400 bad request here');
        strict_1.default.equal(r['api_error_status'], 400);
        strict_1.default.equal(r['terminal_reason'], 'api_error');
        fake.enqueue((0, fakeAnthropic_1.errorResponse)(400, { message: 'bad request here' }));
        const text = await (0, cli_1.cli)(['-p', 'x', '--cwd', workDir, '--model', 'claude-test'], env, 60_000);
        strict_1.default.equal(text.code, 1);
        strict_1.default.equal(text.stdout, 'API Error: 400 bad request here\n');
        // --max-turns reached: the reference's error_max_turns.
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_p_ls', name: 'Bash', input: { command: 'true' } }]), (0, fakeAnthropic_1.textResponse)('never'));
        const max = await (0, cli_1.cli)([
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
        ], env, 60_000);
        strict_1.default.equal(max.code, 1, max.stderr);
        const m = JSON.parse(max.stdout);
        strict_1.default.equal(m['subtype'], 'error_max_turns');
        strict_1.default.equal(m['is_error'], true);
        strict_1.default.deepEqual(m['errors'], ['Reached maximum number of turns (1)']);
        strict_1.default.equal('result' in m, false);
    });
});
(0, node_test_1.test)('print: stream-json read line by line through a pipe: init, the tool call, its result, the answer, the result', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, taskQueue, workDir, storeDir }) => {
        const env = { ...process.env, ...envOf(taskQueue, storeDir) };
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_p_bash', name: 'Bash', input: { command: 'echo piped' } }], {
            text: 'Running it.',
        }), (0, fakeAnthropic_1.textResponse)('It printed piped.'));
        // durable-agent … | a JSON parser reading one line at a time (a separate process, as a script would).
        const parser = `const rl=require('readline').createInterface({input:process.stdin});const out=[];rl.on('line',l=>{out.push(JSON.parse(l))});rl.on('close',()=>process.stdout.write(JSON.stringify(out)))`;
        const child = (0, node_child_process_1.spawn)('sh', [
            '-c',
            `"${process.execPath}" "${MAIN}" -p 'run echo' --output-format stream-json --verbose --permission-mode bypassPermissions --no-sandbox --cwd "${workDir}" --model claude-test | "${process.execPath}" -e "${parser.replace(/"/g, '\\"')}"; echo " exit=$?"`,
        ], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d.toString()));
        child.stderr.on('data', (d) => (stderr += d.toString()));
        await new Promise((r) => child.on('close', r));
        strict_1.default.match(stdout, / exit=0\n$/, stderr);
        const events = JSON.parse(stdout.replace(/ exit=0\n$/, ''));
        const kinds = events.map((e) => `${String(e['type'])}${e['subtype'] ? `/${String(e['subtype'])}` : ''}`);
        strict_1.default.deepEqual(kinds, ['system/init', 'assistant', 'assistant', 'user', 'assistant', 'result/success']);
        const init = events[0];
        strict_1.default.equal(init['cwd'], workDir);
        strict_1.default.equal(init['model'], 'claude-test');
        strict_1.default.equal(init['permissionMode'], 'bypassPermissions');
        strict_1.default.ok(init['tools'].includes('Bash'));
        const sid = init['session_id'];
        strict_1.default.ok(events.every((e) => e['session_id'] === sid), 'one session id on every line');
        const blocks = events.slice(1, 5).map((e) => e['message']['content'][0]);
        strict_1.default.deepEqual(blocks[0], { type: 'text', text: 'Running it.' });
        strict_1.default.equal(blocks[1]['type'], 'tool_use');
        strict_1.default.equal(blocks[1]['id'], 'toolu_p_bash');
        strict_1.default.equal(blocks[2]['type'], 'tool_result');
        strict_1.default.equal(blocks[2]['tool_use_id'], 'toolu_p_bash');
        strict_1.default.match(JSON.stringify(blocks[2]['content']), /piped/);
        strict_1.default.deepEqual(blocks[3], { type: 'text', text: 'It printed piped.' });
        // The two blocks of one model message share its id; its usage and request id come from the audit.
        const m1 = events[1]['message'];
        strict_1.default.equal(m1['id'], events[2]['message']['id']);
        strict_1.default.match(String(m1['id']), /^msg_/);
        strict_1.default.equal(typeof events[1]['request_id'], 'string');
        const result = events.at(-1);
        strict_1.default.equal(result['result'], 'It printed piped.');
        strict_1.default.equal(result['num_turns'], 2);
        strict_1.default.equal(result['is_error'], false);
    });
});
//# sourceMappingURL=print-formats.test.js.map