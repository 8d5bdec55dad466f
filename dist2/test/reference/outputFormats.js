"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.REFERENCE_ONLY_KEYS = exports.FORMAT_CASES = void 0;
exports.referenceSide = referenceSide;
exports.durableSide = durableSide;
exports.closeFormatSides = closeFormatSides;
exports.compareFormat = compareFormat;
// test:reference, output formats (issue 20.7): the same scripted session through `claude -p
// --output-format text|json|stream-json` (the reference, against the fake Messages API) and through
// `durable-agent -p …` (the real CLI against a Temporal dev server and a worker of this process),
// compared line by line: the sequence of line types, every key the reference sends (but those in
// REFERENCE_ONLY_KEYS, docs/tools.md) present in ours with the same JSON type, and the values that
// are deterministic (content blocks, result, subtype, is_error, num_turns, stop_reason, errors…).
// Flags: the exit code and the message after each side's prefix.
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const agent_1 = require("../support/agent");
const claudeOffline_1 = require("../support/claudeOffline");
const temporal_1 = require("../support/temporal");
const read = (t, dir) => t === 0
    ? (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_of_read', name: 'Read', input: { file_path: (0, node_path_1.join)(dir, 'a.txt') } }])
    : (0, fakeAnthropic_1.textResponse)('The file says hello.');
const multi = (t, dir) => t === 0
    ? (0, fakeAnthropic_1.toolUseResponse)([
        { id: 'toolu_of_m1', name: 'Read', input: { file_path: (0, node_path_1.join)(dir, 'a.txt') } },
        { id: 'toolu_of_m2', name: 'Bash', input: { command: 'echo hi' } },
    ], { text: 'Let me look.' })
    : (0, fakeAnthropic_1.textResponse)('Done.');
const plain = () => (0, fakeAnthropic_1.textResponse)('Just text.');
const api400 = () => (0, fakeAnthropic_1.errorResponse)(400, { message: 'bad request here' });
exports.FORMAT_CASES = [
    { name: 'output text: a Read, then the answer', args: ['read a.txt'], script: read },
    { name: 'output json: a Read, then the answer', args: ['read a.txt', '--output-format', 'json'], script: read },
    {
        name: 'output stream-json: text and two tool calls in one message',
        args: ['look', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'bypassPermissions'],
        script: multi,
    },
    { name: 'output json: the prompt on stdin', args: ['--output-format', 'json'], script: plain, stdin: 'say it\n' },
    { name: 'output text: an API error', args: ['x'], script: api400 },
    { name: 'output json: an API error', args: ['x', '--output-format', 'json'], script: api400 },
    {
        name: 'output stream-json: an API error',
        args: ['x', '--output-format', 'stream-json', '--verbose'],
        script: api400,
    },
    {
        name: 'output json: --max-turns 1 reached',
        args: ['read', '--output-format', 'json', '--max-turns', '1'],
        script: read,
    },
    { name: 'output text: --max-turns 1 reached', args: ['read', '--max-turns', '1'], script: read },
    { name: 'output flags: a bad format', args: ['x', '--output-format', 'bogus'], script: plain, flags: true },
    {
        name: 'output flags: stream-json without --verbose',
        args: ['x', '--output-format', 'stream-json'],
        script: plain,
        flags: true,
    },
    { name: 'output flags: no prompt and no stdin', args: ['--output-format', 'json'], script: plain, flags: true },
    { name: 'output flags: an unknown option', args: ['x', '--bogus'], script: plain, flags: true },
];
/**
 * Keys the reference sends that durable-agent does not, per line (docs/tools.md, "Output formats"):
 * the reference's own client, UI and plugin state, timings it measures inside its process, and the
 * tool's structured output on a tool_result line.
 */
exports.REFERENCE_ONLY_KEYS = {
    init: [
        'terminal_slash_commands',
        'capabilities',
        'analytics_disabled',
        'product_feedback_disabled',
        'memory_paths',
        'messaging_socket_path',
        'fast_mode_state',
        'fast_mode_disabled_reason',
        'per_turn_effort_active',
        'ultrathink_available',
        'ultrathink_typed_raises',
        'view_mode',
    ],
    user: ['tool_use_result', 'tool_result_meta'],
    'message.usage': ['service_tier'],
    result: [
        'ttft_ms',
        'ttft_stream_ms',
        'time_to_request_ms',
        'first_content_frame_ms',
        'queued_turn_count',
        'result_index',
        'model_usage_since_last_result',
        'fast_mode_state',
        'fast_mode_disabled_reason',
        'subagent_stats',
        'safety_stops',
    ],
    'result.usage': [
        'output_tokens_details',
        'service_tier',
        'cache_creation',
        'inference_geo',
        'iterations',
        'speed',
        'fallback_credit',
    ],
};
async function projectDir() {
    const dirs = await (0, claudeOffline_1.offlineDirs)('da-ref-of-');
    await (0, promises_1.writeFile)((0, node_path_1.join)(dirs.dir, 'a.txt'), 'hello\n');
    return dirs;
}
function scripted(fake, c, dir) {
    let turn = 0;
    fake.script((req) => (!req.tools || req.tools.length === 0 ? (0, fakeAnthropic_1.textResponse)('ok') : c.script(turn++, dir)));
}
async function run(cmd, args, cwd, env, stdin) {
    const r = await (0, claudeOffline_1.runToExit)(cmd, args, { cwd, env, ...(stdin !== undefined ? { stdin } : {}) });
    return { code: r.code, stdout: r.stdout.split(cwd).join('$DIR'), stderr: r.stderr.split(cwd).join('$DIR') };
}
async function referenceSide(c, claudeBin) {
    const { dir, home } = await projectDir();
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)({ validateToolPairing: false, allowSystemMessages: true });
    try {
        scripted(fake, c, dir);
        return await run(claudeBin, ['-p', ...c.args], dir, (0, claudeOffline_1.offlineEnv)(home, fake.baseURL), c.stdin);
    }
    finally {
        await fake.close();
    }
}
const MAIN = (0, node_path_1.join)(__dirname, '..', '..', 'src', 'cli', 'main.js');
/** durable-agent's side: the real CLI, a dev server (TEMPORAL_TEST_ADDRESS or one of its own) and a worker in this process. */
async function durableSide(c) {
    const { dir, home } = await projectDir();
    return (0, agent_1.withAgent)({}, async ({ fake, taskQueue, storeDir, env }) => {
        scripted(fake, c, dir);
        const address = process.env.TEMPORAL_TEST_ADDRESS ?? env.connection.options.address;
        return run(process.execPath, [MAIN, '-p', ...c.args, ...(c.flags ? [] : ['--cwd', dir, '--model', 'claude-test', '--no-sandbox'])], dir, {
            PATH: process.env.PATH ?? '/usr/bin:/bin',
            HOME: home,
            DURABLE_AGENT_HOME: (0, node_path_1.join)(home, '.durable-agent'),
            TEMPORAL_ADDRESS: address,
            DURABLE_AGENT_TASK_QUEUE: taskQueue,
            DURABLE_AGENT_STORE_DIR: storeDir,
            ANTHROPIC_API_KEY: 'test-key',
        }, c.stdin);
    });
}
async function closeFormatSides() {
    await (0, temporal_1.closeTestEnv)();
}
const typeOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const lineKind = (l) => (l['subtype'] === 'init' ? 'init' : String(l['type']));
function parseLines(s) {
    try {
        return s
            .split('\n')
            .filter((l) => l.trim())
            .map((l) => JSON.parse(l));
    }
    catch (err) {
        return `not JSON lines: ${err instanceof Error ? err.message : String(err)}: ${s.slice(0, 200)}`;
    }
}
/** Keys of the reference's object that ours lacks or holds with another JSON type. */
function keyDiffs(where, ref, ours, skip = []) {
    const out = [];
    for (const [k, v] of Object.entries(ref)) {
        if (skip.includes(k))
            continue;
        if (!(k in ours))
            out.push(`${where} lacks ${k}`);
        else if (typeOf(v) !== typeOf(ours[k]))
            out.push(`${where}.${k} is ${typeOf(ours[k])}, ref ${typeOf(v)}`);
    }
    return out;
}
/**
 * A content block as compared, keys sorted: a tool_result by its id and is_error (false as absent),
 * not its text (each tool's texts are compared by the tool cases; Read numbers lines its own way).
 */
function block(b) {
    const { is_error, content, ...rest } = b;
    const o = { ...rest, ...(is_error ? { is_error } : {}) };
    if (b['type'] !== 'tool_result' && content !== undefined)
        o['content'] = content;
    return JSON.stringify(Object.fromEntries(Object.entries(o).sort(([x], [y]) => (x < y ? -1 : 1))));
}
const RESULT_VALUES = [
    'type',
    'subtype',
    'is_error',
    'num_turns',
    'result',
    'stop_reason',
    'terminal_reason',
    'errors',
    'permission_denials',
    'api_error_status',
    'api_error_type',
];
function lineDiffs(i, ref, ours) {
    const kind = lineKind(ref);
    const at = `line ${i + 1} (${kind})`;
    const out = keyDiffs(at, ref, ours, exports.REFERENCE_ONLY_KEYS[kind]);
    if (kind === 'assistant' || kind === 'user') {
        const rm = ref['message'];
        const om = (ours['message'] ?? {});
        out.push(...keyDiffs(`${at} message`, rm, om));
        if (rm['usage'] && om['usage'])
            out.push(...keyDiffs(`${at} message.usage`, rm['usage'], om['usage'], exports.REFERENCE_ONLY_KEYS['message.usage']));
        const rb = (rm['content'] ?? []).map(block).join(' ');
        const ob = (om['content'] ?? []).map(block).join(' ');
        if (rb !== ob)
            out.push(`${at} content ref=${rb.slice(0, 200)} ours=${ob.slice(0, 200)}`);
        if (kind === 'assistant' && ref['is_api_error_message'] !== ours['is_api_error_message'])
            out.push(`${at} is_api_error_message ref=${String(ref['is_api_error_message'])} ours=${String(ours['is_api_error_message'])}`);
    }
    if (kind === 'init') {
        for (const k of ['cwd', 'permissionMode', 'output_style'])
            if (ref[k] !== ours[k])
                out.push(`${at} ${k} ref=${JSON.stringify(ref[k])} ours=${JSON.stringify(ours[k])}`);
    }
    if (kind === 'result') {
        out.push(...keyDiffs(`${at} usage`, ref['usage'], (ours['usage'] ?? {}), exports.REFERENCE_ONLY_KEYS['result.usage']));
        for (const k of RESULT_VALUES)
            if (JSON.stringify(ref[k]) !== JSON.stringify(ours[k]))
                out.push(`${at} ${k} ref=${JSON.stringify(ref[k])} ours=${JSON.stringify(ours[k])}`);
    }
    return out;
}
/** The message of a one-line error without its prefix (`Error: `, `error: `, `durable-agent: `). */
const errorMessage = (stderr) => stderr
    .trim()
    .split('\n')[0]
    .replace(/^(Error: |error: |durable-agent: )/, '');
/** What differs between the two sides of a case (empty: they agree). */
function compareFormat(c, ref, ours) {
    const diffs = [];
    if (ref.code !== ours.code)
        diffs.push(`exit ref=${ref.code} ours=${ours.code} (ours stderr: ${ours.stderr.trim().slice(0, 200)})`);
    if (c.flags) {
        if (errorMessage(ref.stderr) !== errorMessage(ours.stderr))
            diffs.push(`message ref=${JSON.stringify(errorMessage(ref.stderr))} ours=${JSON.stringify(errorMessage(ours.stderr))}`);
        if (ours.stdout !== '')
            diffs.push(`stdout not empty: ${ours.stdout.slice(0, 100)}`);
        return diffs;
    }
    if (!c.args.includes('--output-format')) {
        if (ref.stdout !== ours.stdout)
            diffs.push(`stdout ref=${JSON.stringify(ref.stdout)} ours=${JSON.stringify(ours.stdout)}`);
        return diffs;
    }
    const a = parseLines(ref.stdout);
    const b = parseLines(ours.stdout);
    if (typeof a === 'string')
        return [...diffs, `reference ${a}`];
    if (typeof b === 'string')
        return [...diffs, `durable-agent ${b}`];
    const ka = a.map(lineKind).join(',');
    const kb = b.map(lineKind).join(',');
    if (ka !== kb)
        return [...diffs, `lines ref=[${ka}] ours=[${kb}]`];
    a.forEach((l, i) => diffs.push(...lineDiffs(i, l, b[i])));
    return diffs;
}
//# sourceMappingURL=outputFormats.js.map