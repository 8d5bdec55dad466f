"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.CLAUDE_BIN = exports.CACHE_DIR = exports.REFERENCE_VERSION = exports.PINNED_VERSION = void 0;
exports.ensureReference = ensureReference;
exports.normaliseSchedule = normaliseSchedule;
exports.runReference = runReference;
exports.runDurableAgent = runDurableAgent;
exports.compare = compare;
// `npm run test:reference`: differential tests against the reference agent (Claude Code), opt-in,
// not part of `npm test`. Installs @anthropic-ai/claude-code into ~/.cache/durable-agent/claude-code
// (reused when present), then for every case in ./cases sends the same scripted tool_use blocks
// through the reference (`claude -p`, against the fake Messages API) and through durable-agent
// (the in-process runner, against another fake) and compares per tool_use_id: is_error, the effect
// on files, the size policy (persisted with a preview) and the PreToolUse/PostToolUse hook input.
// Exits non-zero only on a difference not listed in DELIBERATE.
//
//   node dist/test/reference/run.js [--verbose] [--json FILE] [--jobs N] [case-name-substring...]
//
// --jobs: cases run at a time (default 2; both sides of a case always run together).
//
// The reference is pinned (REFERENCE_VERSION). DURABLE_AGENT_CLAUDE_CODE_VERSION=2.1.197 runs the
// cases against another version (installed into ~/.cache/durable-agent/claude-code-<version>);
// DURABLE_AGENT_CLAUDE_CODE_CACHE names the install directory.
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
require("../support/isolatedHome");
const claudeOffline_1 = require("../support/claudeOffline");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const runSession_1 = require("../../src/local/runSession");
const client_1 = require("../../src/client");
const cases_1 = require("./cases");
const claudeMd_1 = require("../../src/memory/claudeMd");
const config_1 = require("../../src/mcp/config");
const session_1 = require("./session");
const webSite_1 = require("./webSite");
const outputFormats_1 = require("./outputFormats");
/** Tools 2.1.328 defers behind ToolSearch (test/fixtures/reference-tools/2.1.328/index.json): a case calling one gets every tool up front there. */
const DEFERRED_IN_REFERENCE = new Set([
    'EnterWorktree',
    'ExitWorktree',
    'NotebookEdit',
    'WebFetch',
    'WebSearch',
    'Monitor',
    'TaskStop',
    'CronCreate',
    'CronList',
    'CronDelete',
]);
/** The version of @anthropic-ai/claude-code the cases are checked against. */
exports.PINNED_VERSION = '2.1.328';
exports.REFERENCE_VERSION = process.env.DURABLE_AGENT_CLAUDE_CODE_VERSION ?? exports.PINNED_VERSION;
exports.CACHE_DIR = process.env.DURABLE_AGENT_CLAUDE_CODE_CACHE ??
    (0, node_path_1.join)((0, node_os_1.homedir)(), '.cache', 'durable-agent', exports.REFERENCE_VERSION === exports.PINNED_VERSION ? 'claude-code' : `claude-code-${exports.REFERENCE_VERSION}`);
exports.CLAUDE_BIN = (0, node_path_1.join)(exports.CACHE_DIR, 'node_modules', '.bin', 'claude');
/** The tool events whose input the capture hook records on both sides. */
const TOOL_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'];
/** Every event captured on both sides: the tool events and the session-level ones (./session.ts). */
const CAPTURED_EVENTS = [...TOOL_EVENTS, ...session_1.SESSION_EVENTS];
/** The version installed in CACHE_DIR (undefined: none). */
function installedVersion() {
    try {
        return JSON.parse((0, node_fs_1.readFileSync)((0, node_path_1.join)(exports.CACHE_DIR, 'node_modules', '@anthropic-ai', 'claude-code', 'package.json'), 'utf8')).version;
    }
    catch {
        return undefined;
    }
}
function ensureReference() {
    const have = (0, node_fs_1.existsSync)(exports.CLAUDE_BIN) ? installedVersion() : undefined;
    if (have === exports.REFERENCE_VERSION)
        return;
    if (have !== undefined) {
        throw new Error(`${exports.CACHE_DIR} holds @anthropic-ai/claude-code ${have}, the cases are pinned to ${exports.REFERENCE_VERSION}: remove that directory (it is reinstalled), or set DURABLE_AGENT_CLAUDE_CODE_VERSION=${have} to run against it`);
    }
    console.error(`[reference] installing @anthropic-ai/claude-code@${exports.REFERENCE_VERSION} into ${exports.CACHE_DIR} (once; ~370 MB)`);
    const r = (0, node_child_process_1.spawnSync)('npm', ['i', '--prefix', exports.CACHE_DIR, '--no-audit', '--no-fund', `@anthropic-ai/claude-code@${exports.REFERENCE_VERSION}`], { stdio: 'inherit' });
    if (r.status !== 0 || installedVersion() !== exports.REFERENCE_VERSION)
        throw new Error(`could not install @anthropic-ai/claude-code@${exports.REFERENCE_VERSION} into ${exports.CACHE_DIR} (npm exit ${r.status})`);
}
/** A case's second working directory (`$OTHER`, passed as `--add-dir` / additionalDirectories when the case asks): a sibling of the project. */
const otherOf = (dir) => (0, node_path_1.join)((0, node_path_1.dirname)(dir), 'other');
/** The WebFetch cases' site (`$WEB`: `https://127.0.0.1:<port>`), started before the cases when one needs it. */
let site;
const subText = (text, dir) => text
    .split('$OTHER')
    .join(otherOf(dir))
    .split('$DIR')
    .join(dir)
    .split('$WEB')
    .join(site?.base ?? '$WEB');
const sub = (value, dir) => JSON.parse(subText(JSON.stringify(value), dir));
/** A case's MCP servers with the paths of node and the servers filled in. */
const mcpServersOf = (c) => c.mcpServers &&
    JSON.parse(JSON.stringify(c.mcpServers)
        .split('$NODE')
        .join(process.execPath)
        .split('$MCP_EVERYTHING')
        .join(require.resolve('@modelcontextprotocol/server-everything/dist/index.js'))
        .split('$MCP_FILESYSTEM')
        .join(require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'))
        .split('$MCP_TEST')
        .join((0, node_path_1.join)(__dirname, '..', 'support', 'mcpServer.js')));
const unsub = (text, dirs) => dirs.reduce((t, d) => t.split(otherOf(d)).join('$OTHER').split(d).join('$DIR'), text);
async function setupDir(c, prefix) {
    const root = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), prefix));
    const dir = (0, node_path_1.join)(root, 'project');
    const capture = (0, node_path_1.join)(root, 'hooks');
    const home = (0, node_path_1.join)(root, 'home');
    const store = (0, node_path_1.join)(root, 'store');
    for (const d of [dir, capture, home, store, otherOf(dir)])
        await (0, promises_1.mkdir)(d, { recursive: true });
    const at = (name) => (name.startsWith('$OTHER/') ? subText(name, dir) : (0, node_path_1.join)(dir, name));
    for (const [name, text] of Object.entries(c.files ?? {})) {
        await (0, promises_1.mkdir)((0, node_path_1.dirname)(at(name)), { recursive: true });
        await (0, promises_1.writeFile)(at(name), text);
    }
    for (const [name, target] of Object.entries(c.symlinks ?? {})) {
        await (0, promises_1.mkdir)((0, node_path_1.dirname)(at(name)), { recursive: true });
        await (0, promises_1.symlink)(subText(target, dir), at(name));
    }
    const mcp = mcpServersOf(c);
    if (mcp)
        await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.mcp.json'), JSON.stringify({ mcpServers: sub(mcp, dir) }));
    if (c.git) {
        const g = (...args) => (0, node_child_process_1.execFileSync)('git', args, { cwd: dir, stdio: 'ignore' });
        g('init', '-q', '-b', 'main');
        g('config', 'user.email', 'ref@example.com');
        g('config', 'user.name', 'ref');
        g('add', '-A');
        g('commit', '-qm', 'init', '--allow-empty');
    }
    return { dir, capture, home, store };
}
/** The reference's own bookkeeping in a project (`.claude/.cc-writes/`, in the start directory and where a `cd` led it). */
const isBookkeeping = (rel) => /(^|\/)\.claude\/\.cc-writes(\/|$)/.test(rel);
/**
 * What the reference's sandbox leaves in a `.git` directory that is not a full repository: empty
 * mount points for the git paths it masks (`.git/config.worktree`, `.git/info/`, `.git/worktrees/`, …,
 * `.claude-sandbox-noreplace`). An artefact of its bubblewrap binds, not an effect of the command;
 * ignored on both sides (an empty file or directory under `.git/` runs nothing).
 */
const isSandboxPlaceholder = (rel, text) => rel.includes('.claude-sandbox-noreplace') || (text === '' && /(^|\/)\.git\//.test(rel));
/**
 * Every file, directory and symlink under the project (and `$OTHER/…` under the second working
 * directory): control files included, so a write to `.claude/settings.json` or `.mcp.json` is
 * compared. Left out: the reference's bookkeeping (and a `.claude/` that holds nothing else), in
 * MCP cases the `.mcp.json` the harness wrote, and empty entries under `.git/` the case did not
 * create (the reference's sandbox placeholders).
 */
async function snapshot(c, dir) {
    const out = {};
    for (const [base, prefix] of [
        [dir, ''],
        [otherOf(dir), '$OTHER/'],
    ]) {
        for (const e of await (0, promises_1.readdir)(base, { withFileTypes: true, recursive: true })) {
            const full = (0, node_path_1.join)(e.parentPath ?? e.path, e.name);
            const rel = (0, node_path_1.relative)(base, full);
            if (isBookkeeping(rel))
                continue;
            if (prefix === '' && rel === '.mcp.json' && c.mcpServers)
                continue;
            const key = `${prefix}${rel}`;
            const text = e.isSymbolicLink() ? `-> ${await (0, promises_1.readlink)(full)}` : e.isFile() ? await (0, promises_1.readFile)(full, 'utf8') : '';
            if (isSandboxPlaceholder(key, text) &&
                !Object.keys(c.files ?? {}).some((f) => f === key || f.startsWith(`${key}/`)))
                continue;
            if (e.isSymbolicLink() || e.isFile())
                out[key] = text;
            else if (e.isDirectory())
                out[`${key}/`] = '';
        }
    }
    // A repository: its worktrees (path relative to the project, branch) and branches instead of `.git`'s bookkeeping.
    if (c.git) {
        for (const k of Object.keys(out))
            if (/(^|\/)\.git(\/|$)/.test(k))
                delete out[k];
        const list = (0, node_child_process_1.execFileSync)('git', ['worktree', 'list', '--porcelain'], { cwd: dir, encoding: 'utf8' });
        const worktrees = list
            .split('\n\n')
            .filter((b) => b.trim())
            .map((b) => {
            const path = /^worktree (.*)$/m.exec(b)?.[1] ?? '?';
            const branch = /^branch refs\/heads\/(.*)$/m.exec(b)?.[1] ?? '(detached)';
            return `${(0, node_path_1.relative)(dir, path) || '.'} ${branch}`;
        });
        const branches = (0, node_child_process_1.execFileSync)('git', ['branch', '--format=%(refname:short)'], { cwd: dir, encoding: 'utf8' });
        out['$GIT'] = `worktrees: ${worktrees.join(', ')}; branches: ${branches.trim().split('\n').join(', ')}`;
    }
    // A `.claude/` directory with nothing left in it (the reference made it for its bookkeeping).
    for (const k of Object.keys(out))
        if (/(^|\/)\.claude\/$/.test(k) && !Object.keys(out).some((o) => o !== k && o.startsWith(k)))
            delete out[k];
    return out;
}
/** The capture hook of each event; a case's `hookReplies` are printed after capturing (the hook's answer). */
async function hookSettings(capture, events, c, dir) {
    const out = {};
    for (const e of events) {
        const reply = c.hookReplies?.[e] ?? c.hookRepliesOnce?.[e];
        let command = `cat > '${capture}'/$$.json`;
        if (reply !== undefined) {
            const file = (0, node_path_1.join)(capture, '..', `reply-${e}.json`);
            await (0, promises_1.writeFile)(file, JSON.stringify(sub(reply, dir)));
            command +=
                c.hookReplies?.[e] !== undefined
                    ? `; cat '${file}'`
                    : `; if [ ! -e '${file}.used' ]; then touch '${file}.used'; cat '${file}'; fi`;
        }
        const exit2 = c.hookExit2Once?.[e];
        if (exit2 !== undefined) {
            const used = (0, node_path_1.join)(capture, '..', `exit2-${e}.used`);
            command += `; if [ ! -e '${used}' ]; then touch '${used}'; echo '${exit2}' >&2; exit 2; fi`;
        }
        out[e] = [{ matcher: '*', hooks: [{ type: 'command', command }] }];
    }
    return out;
}
/** Does the model's conversation (every request after the first) mention the text? */
function modelSaw(fake, text) {
    return fake.messageRequests().some((r) => JSON.stringify(r.messages).includes(text));
}
/** The fake's script: turn n's tool_use blocks for the n-th request that offers tools, then end_turn; side requests get text. */
function scriptFake(fake, c, dir) {
    let turn = 0;
    fake.script((req) => {
        if (!req.tools || req.tools.length === 0)
            return (0, fakeAnthropic_1.textResponse)('ok');
        // WebSearch's own request (the server tool only): the same scripted search on both sides.
        if (req.tools.every((t) => t.type?.startsWith('web_search_')))
            return SEARCH_ANSWER;
        const calls = c.turns[turn++];
        if (!calls)
            return (0, fakeAnthropic_1.textResponse)('done');
        return (0, fakeAnthropic_1.toolUseResponse)(calls.map((call) => ({ id: call.id, name: call.name, input: withJobIds(sub(call.input, dir), req.messages) })));
    });
}
/** What the fake answers a WebSearch's own request (both sides): one search, two results, a text. */
const SEARCH_ANSWER = {
    content: [
        { type: 'server_tool_use', input: { query: 'durable execution' } },
        {
            type: 'web_search_tool_result',
            results: [
                { url: 'https://temporal.io/', title: 'Temporal', page_age: '2 days ago' },
                { url: 'https://docs.temporal.io/', title: 'Temporal docs' },
            ],
        },
        { type: 'text', text: 'Temporal runs durable workflows.' },
    ],
};
/** `$JOB(<tool_use_id>)` in an input: the job or background task id that call's tool_result names (ids are random in the reference, derived from the call in durable-agent). */
function withJobIds(input, messages) {
    const text = JSON.stringify(input);
    if (!text.includes('$JOB('))
        return input;
    const resultOf = (id) => {
        for (const m of messages)
            if (Array.isArray(m.content))
                for (const b of m.content)
                    if (b.type === 'tool_result' && b.tool_use_id === id)
                        return textOf(b.content);
        return '';
    };
    return JSON.parse(text.replace(/\$JOB\(([^)]+)\)/g, (_, id) => {
        const m = /\b(?:job|task) ([0-9a-f]{8})\b|\bwith ID: (b[a-z0-9]{8})\b/.exec(resultOf(id));
        return m?.[1] ?? m?.[2] ?? 'none';
    }));
}
/** The scheduling tools: their texts are compared with what differs by nature normalised. */
const SCHEDULE_TOOLS = new Set(['ScheduleWakeup', 'CronCreate', 'CronList', 'CronDelete']);
/**
 * A scheduling tool's text without what differs by nature between two runs: job ids (random in the
 * reference, derived from the call in durable-agent), clock times and dates of the next run, the
 * seconds until a wake-up (the reference rounds up to a whole minute).
 */
function normaliseSchedule(text) {
    return text
        .replace(/^<tool_use_error>([\s\S]*)<\/tool_use_error>$/, '$1') // the pipeline's error wrapper, not the tool's text
        .replace(/\b[0-9a-f]{8}\b/g, '<id>')
        .replace(/\b\d{2}:\d{2}:\d{2}\b/g, '<clock>')
        .replace(/\(in \d+s\)/g, '(in <n>s)')
        .replace(/\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2} \d{1,2}:\d{2}(?:am|pm)/g, '<date>');
}
/** A text without the pipeline's error wrapper (`<tool_use_error>…</tool_use_error>`: the reference's, not the tool's). */
const unwrapError = (text) => text.replace(/^<tool_use_error>([\s\S]*)<\/tool_use_error>$/, '$1');
function textOf(content) {
    if (typeof content === 'string')
        return content;
    if (Array.isArray(content))
        return content
            .map((b) => b && typeof b === 'object' && 'text' in b ? String(b.text) : JSON.stringify(b))
            .join('\n');
    return JSON.stringify(content ?? '');
}
/** The calls of a case that start a background task: Bash `run_in_background`, Monitor, Agent (unless `run_in_background: false`). */
const backgroundCalls = (c) => c.turns
    .flat()
    .filter((t) => t.name === 'Monitor' ||
    (t.name === 'Bash' && t.input.run_in_background) ||
    (t.name === 'Agent' && t.input.run_in_background !== false));
/**
 * A background Agent's launched result: its first line and the `agentId: <id>` it gives (the
 * reference's words, ours too); the guidance lines after them are each side's own words.
 */
const agentLaunchLines = (text) => {
    const [first, second] = text.split('\n');
    return `${first ?? ''}\n${/^agentId: \S+/.exec(second ?? '')?.[0] ?? second ?? ''}`;
};
/** A Monitor result's first sentence (its task id and expiry); the guidance after it is each side's own words. */
const monitorSentence = (text) => text.split('). ')[0] ?? text;
/**
 * Background Bash and Monitor calls: each task's id and output file (from its tool_result; a
 * Monitor's output file from its end notification), replaced in every
 * text by `$TASK(<tool_use_id>)` and `$OUTPUT(<tool_use_id>)` (ids are random in the reference,
 * derived from the call in durable-agent; the output files live in each side's temp dir); the
 * output files' contents at the end; and the `<task-notification>` texts the model got (each once,
 * the preamble — each side's own words — as `$PREAMBLE`). The results' texts are normalised in place.
 */
async function backgroundOf(fake, c, results) {
    const calls = backgroundCalls(c);
    const tasks = [];
    const texts = fake.messageRequests().flatMap((req) => req.messages.map((m) => ({
        role: m.role,
        texts: typeof m.content === 'string'
            ? [m.content]
            : m.content.flatMap((b) => (b.type === 'text' ? [b.text ?? ''] : [])),
    })));
    for (const call of calls) {
        const result = results.get(call.id)?.content ?? '';
        const m = /with ID: (\S+)\. Output is being written to: (\S+\.output)\./.exec(result);
        if (m)
            tasks.push({ call: call.id, id: m[1], path: m[2] });
        // An Agent's result names its agent id (and, in the reference, its transcript file: not compared).
        const agent = call.name === 'Agent' ? /^agentId: (\S+)/m.exec(result) : null;
        if (agent)
            tasks.push({ call: call.id, id: agent[1], path: /^output_file: (\S+)/m.exec(result)?.[1] ?? '' });
        // A Monitor's result names its task only; its output file is in its end notification.
        const mon = /^Monitor started \(task (\S+),/.exec(result);
        if (!mon)
            continue;
        const end = texts
            .flatMap((t) => t.texts)
            .map((t) => new RegExp(`<task-id>${mon[1]}</task-id>\\n<tool-use-id>[^<]*</tool-use-id>\\n<output-file>([^<]+)</output-file>`).exec(t))
            .find((x) => x);
        tasks.push({ call: call.id, id: mon[1], path: end?.[1] ?? '' });
    }
    const normalise = (text) => tasks.reduce((t, k) => (k.path ? t.split(k.path).join(`$OUTPUT(${k.call})`) : t).split(k.id).join(`$TASK(${k.call})`), text);
    if (calls.length === 0 && !c.turns.flat().some((t) => t.name === 'TaskStop'))
        return { normalise };
    for (const o of results.values())
        o.content = normalise(o.content);
    const outputs = {};
    const agentCalls = new Set(calls.filter((x) => x.name === 'Agent').map((x) => x.id));
    for (const k of tasks.filter((x) => !agentCalls.has(x.call)))
        outputs[k.call] = await (0, promises_1.readFile)(k.path || '/nonexistent', 'utf8').catch(() => '(no output file)');
    const notifications = [];
    for (const m of texts)
        for (const t of m.texts) {
            if (!t.includes('<task-notification>'))
                continue;
            // An agent's usage (tokens, duration) differs by nature: its numbers as N.
            const n = `${m.role}: ${normalise(t)
                .replace(/^(<system-reminder>\n)[\s\S]*?(\n+<task-notification>)/, '$1$PREAMBLE$2')
                .replace(/(<(subagent_tokens|tool_uses|duration_ms)>)\d+(<\/\2>)/g, '$1N$3')}`;
            if (!notifications.includes(n))
                notifications.push(n);
        }
    return { normalise, side: { outputs, notifications: notifications.sort() } };
}
async function collect(fake, c, dir, capture) {
    const results = new Map();
    const ids = new Set(c.turns.flat().map((t) => t.id));
    for (const req of fake.messageRequests()) {
        for (const m of req.messages) {
            if (m.role !== 'user' || typeof m.content === 'string')
                continue;
            for (const b of m.content) {
                if (b.type !== 'tool_result' || !b.tool_use_id || !ids.has(b.tool_use_id))
                    continue;
                const content = unsub(textOf(b.content), [dir]);
                results.set(b.tool_use_id, {
                    content,
                    isError: b.is_error === true,
                    persisted: /<persisted-output>/.test(content),
                });
            }
        }
    }
    const background = await backgroundOf(fake, c, results);
    const inputs = {};
    for (const f of await (0, promises_1.readdir)(capture)) {
        let input;
        let at;
        try {
            input = JSON.parse(background.normalise(unsub(await (0, promises_1.readFile)((0, node_path_1.join)(capture, f), 'utf8'), [dir])));
            at = (await (0, promises_1.stat)((0, node_path_1.join)(capture, f))).mtimeMs;
        }
        catch {
            continue;
        }
        const event = String(input['hook_event_name'] ?? '');
        if (session_1.SESSION_EVENTS.includes(event)) {
            (inputs[event] ??= []).push({ at, input });
            continue;
        }
        const id = String(input['tool_use_id'] ?? '');
        const o = results.get(id) ?? { content: '(no tool_result)', isError: false, persisted: false };
        if (input['hook_event_name'] === 'PreToolUse')
            o.pre = input;
        else if (input['hook_event_name'] === 'PostToolUse')
            o.post = input;
        else if (input['hook_event_name'] === 'PostToolUseFailure')
            o.failure = input;
        results.set(id, o);
    }
    const session = { inputs: {}, transcript: [] };
    for (const [event, list] of Object.entries(inputs))
        session.inputs[event] = list.sort((a, b) => a.at - b.at).map((x) => x.input);
    session.transcript = (0, session_1.readTranscript)(session.inputs);
    const called = [...new Set(c.turns.flat().map((t) => t.name))].filter((n) => n !== 'ToolSearch');
    const offered = c.toolSearch
        ? fake
            .messageRequests()
            .filter((r) => r.tools &&
            r.tools.length > 0 &&
            !r.tools.every((t) => t.type?.startsWith('web_search_')))
            .map((r) => called.filter((n) => r.tools.some((t) => t.name === n && t.input_schema)))
        : undefined;
    return {
        ...(offered ? { offered } : {}),
        ...(background.side ? { background: background.side } : {}),
        results,
        files: await snapshot(c, dir),
        seen: (c.modelSees ?? []).filter((t) => modelSaw(fake, t)),
        session,
    };
}
async function runReference(c) {
    const { dir, capture, home } = await setupDir(c, 'da-ref-cc-');
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)({ validateToolPairing: false, allowSystemMessages: true });
    try {
        scriptFake(fake, c, dir);
        const config = (0, node_path_1.join)(home, '.claude');
        await (0, promises_1.mkdir)(config, { recursive: true });
        const settings = {
            ...sub(c.settings ?? {}, dir),
            hooks: await hookSettings(capture, CAPTURED_EVENTS, c, dir),
            ...(c.mcpServers ? { enableAllProjectMcpServers: true } : {}),
            // WebFetch cases: no domain check with claude.ai (offline), as durable-agent has none.
            ...(c.web ? { skipWebFetchPreflight: true } : {}),
        };
        await (0, promises_1.writeFile)((0, node_path_1.join)(config, 'settings.json'), JSON.stringify(settings));
        const addDirs = (c.additionalDirectories ?? []).flatMap((d) => ['--add-dir', subText(d, dir)]);
        const r = await (0, claudeOffline_1.runToExit)(exports.CLAUDE_BIN, [
            '-p',
            'run the scripted tools',
            '--output-format',
            'stream-json',
            '--verbose',
            '--permission-mode',
            c.permissionMode ?? 'bypassPermissions',
            ...addDirs,
        ], {
            cwd: dir,
            env: (0, claudeOffline_1.offlineEnv)(home, fake.baseURL, {
                // MCP cases: wait for the servers before the first request (else, on a loaded machine, the
                // first call may come before the server is connected: "No such tool available").
                ...(c.mcpServers ? { MCP_CONNECTION_NONBLOCKING: 'false' } : {}),
                // MCP cases: every tool's schema in the first request (2.1.328 defers MCP tools behind its
                // tool search and tells a model that calls one unloaded that the schema was not in its prompt).
                ...(!c.toolSearch &&
                    (c.mcpServers || c.git || c.turns.flat().some((t) => DEFERRED_IN_REFERENCE.has(t.name)))
                    ? { ENABLE_TOOL_SEARCH: 'false' }
                    : {}),
                // ToolSearch cases: the reference defers as it does by default (ENABLE_TOOL_SEARCH unset).
                ...(c.web && site ? { NODE_EXTRA_CA_CERTS: site.caFile } : {}),
            }, config),
        });
        const side = await collect(fake, c, dir, capture);
        const failed = (0, claudeOffline_1.exitError)(r);
        if (failed)
            side.error = failed;
        return side;
    }
    finally {
        await fake.close();
    }
}
async function runDurableAgent(c) {
    const { dir, capture, store, home } = await setupDir(c, 'da-ref-da-');
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        scriptFake(fake, c, dir);
        // The case's CLAUDE.md files, loaded as `run` loads them (the reference reads them from its cwd).
        const mem = (0, claudeMd_1.loadMemory)(dir, {
            home,
            configDir: (0, node_path_1.join)(home, '.claude'),
            managed: (0, node_path_1.join)(home, 'no-managed-CLAUDE.md'),
        });
        const memText = (0, claudeMd_1.memoryReminder)(mem.files);
        const r = await (0, runSession_1.runLocalSession)({
            prompt: 'run the scripted tools',
            cwd: dir,
            // ToolSearch cases: the deferred tools are sent deferred whatever the tool count (the reference's default with its larger tool set).
            tools: c.toolSearch ? [...client_1.BUILTIN_TOOL_NAMES, 'ToolSearch'] : [...client_1.BUILTIN_TOOL_NAMES],
            ...(c.toolSearch ? { contextManagement: { toolSearch: 'on' } } : {}),
            permissionMode: c.permissionMode ?? 'bypassPermissions',
            // The case's user settings, as `run` reads them: permission rules and the sandbox.
            ...(c.settings?.permissions
                ? { rules: { allow: [], ask: [], deny: [], ...sub(c.settings.permissions, dir) } }
                : {}),
            ...(c.settings?.sandbox ? { sandbox: sub(c.settings.sandbox, dir) } : {}),
            ...(c.additionalDirectories
                ? { additionalDirectories: c.additionalDirectories.map((d) => subText(d, dir)) }
                : {}),
            model: { model: 'claude-test', maxTokens: 1024 },
            hooks: (await hookSettings(capture, CAPTURED_EVENTS, c, dir)),
            ...(mem.files.length > 0
                ? { memory: { files: mem.files.map((f) => f.path), text: memText, sha256: (0, claudeMd_1.sha256)(memText) } }
                : {}),
            // The case's .mcp.json, read and approved as `run` does.
            ...(c.mcpServers
                ? { mcpServers: (0, config_1.resolveMcpServers)({ cwd: dir, approval: { enableAllProjectMcpServers: true } }).servers }
                : {}),
        }, { storeDir: store, anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) });
        const side = await collect(fake, c, dir, capture);
        if (r.status !== (c.ends ?? 'completed'))
            side.error = `session ${r.status}: ${r.endReason}`;
        return side;
    }
    finally {
        await fake.close();
    }
}
const keys = (o) => o && typeof o === 'object' && !Array.isArray(o) ? Object.keys(o).sort().join(',') : typeof o;
/**
 * JSON with object keys sorted (two values that differ only in key order compare equal) and the
 * store path of a persisted output reduced to its presence (each agent has its own store).
 */
const canonical = (v) => JSON.stringify(v, (k, x) => {
    if (k === 'persistedOutputPath' && typeof x === 'string')
        return '<stored>';
    return x && typeof x === 'object' && !Array.isArray(x)
        ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : x;
});
/** Built-in tools whose tool_result text is compared when it is not an error (besides every MCP tool; error texts are durable-agent's own format). */
const CONTENT_COMPARED = new Set([
    'EnterWorktree',
    'ExitWorktree',
    'NotebookEdit',
    'ToolSearch',
    'WebFetch',
    'WebSearch',
]);
/** Tools whose PostToolUse tool_response is compared value for value (the others: keys only), and every MCP tool. */
const TOOL_RESPONSE_VALUES = new Set(['Read', 'Write', 'Edit', 'Bash']);
const valuesCompared = (tool) => TOOL_RESPONSE_VALUES.has(tool) || tool.startsWith('mcp__');
/** What differs between the two sides of one case (empty: they agree). */
function compare(c, ref, ours) {
    const diffs = [];
    if (ref.error)
        diffs.push({ aspect: 'run', text: `reference: ${ref.error}` });
    if (ours.error)
        diffs.push({ aspect: 'run', text: `durable-agent: ${ours.error}` });
    for (const call of c.turns.flat()) {
        const d = (aspect, text) => void diffs.push({ tool: call.name, aspect, text: `${call.id}: ${text}` });
        const a = ref.results.get(call.id);
        const b = ours.results.get(call.id);
        if (!a && !b)
            continue; // neither agent ran it (a blocked prompt): they agree
        if (!a || !b) {
            d('tool_result', `tool_result ${a ? '' : 'missing in reference '}${b ? '' : 'missing in durable-agent'}`.trim());
            continue;
        }
        if (a.isError !== b.isError)
            d('is_error', `is_error ref=${a.isError} ours=${b.isError}`);
        if (a.persisted !== b.persisted)
            d('persisted', `persisted ref=${a.persisted} ours=${b.persisted}`);
        // MCP and worktree results: the text the model gets (the reference's words for resources, links,
        // structuredContent, errors; where a worktree is and what it did).
        if (SCHEDULE_TOOLS.has(call.name) && normaliseSchedule(a.content) !== normaliseSchedule(b.content))
            d('content', `tool_result ref=${JSON.stringify(normaliseSchedule(a.content).slice(0, 400))} ours=${JSON.stringify(normaliseSchedule(b.content).slice(0, 400))}`);
        // Background tasks: the texts the model gets, task ids and output files normalised, error wrapper left out.
        if (call.name === 'Monitor' && monitorSentence(a.content) !== monitorSentence(b.content))
            d('content', `tool_result ref=${JSON.stringify(monitorSentence(a.content))} ours=${JSON.stringify(monitorSentence(b.content))}`);
        else if (call.name === 'Monitor' && a.content !== b.content)
            d('guidance', `Monitor result after its first sentence ref=${JSON.stringify(a.content.slice(0, 400))} ours=${JSON.stringify(b.content.slice(0, 400))}`);
        else if (call.name === 'Agent' && backgroundCalls(c).includes(call)) {
            if (agentLaunchLines(a.content) !== agentLaunchLines(b.content))
                d('content', `tool_result ref=${JSON.stringify(agentLaunchLines(a.content))} ours=${JSON.stringify(agentLaunchLines(b.content))}`);
            else if (a.content !== b.content)
                d('guidance', `Agent result after its agentId ref=${JSON.stringify(a.content.slice(0, 600))} ours=${JSON.stringify(b.content.slice(0, 600))}`);
        }
        else if (call.name !== 'Monitor' &&
            (call.name === 'TaskStop' || backgroundCalls(c).includes(call)) &&
            unwrapError(a.content) !== unwrapError(b.content))
            d('content', `tool_result ref=${JSON.stringify(unwrapError(a.content).slice(0, 400))} ours=${JSON.stringify(unwrapError(b.content).slice(0, 400))}`);
        if ((call.name.startsWith('mcp__') || (CONTENT_COMPARED.has(call.name) && !a.isError)) && a.content !== b.content)
            d('content', `tool_result ref=${JSON.stringify(a.content.slice(0, 300))} ours=${JSON.stringify(b.content.slice(0, 300))}`);
        if (call.name.startsWith('mcp__') && a.failure && b.failure && a.failure['error'] !== b.failure['error'])
            d('content', `PostToolUseFailure error ref=${JSON.stringify(a.failure['error'])} ours=${JSON.stringify(b.failure['error'])}`);
        if (!!a.pre !== !!b.pre)
            d('PreToolUse ran', `PreToolUse hook ran ref=${!!a.pre} ours=${!!b.pre}`);
        else if (a.pre && b.pre) {
            const input = (o) => SCHEDULE_TOOLS.has(call.name)
                ? normaliseSchedule(JSON.stringify(o['tool_input']))
                : JSON.stringify(o['tool_input']);
            if (input(a.pre) !== input(b.pre))
                d('tool_input', `PreToolUse tool_input ref=${JSON.stringify(a.pre['tool_input'])} ours=${JSON.stringify(b.pre['tool_input'])}`);
            if (a.pre['tool_name'] !== b.pre['tool_name'])
                d('tool_name', 'PreToolUse tool_name differs');
        }
        if (!!a.post !== !!b.post)
            d('PostToolUse ran', `PostToolUse hook ran ref=${!!a.post} ours=${!!b.post}`);
        else if (a.post && b.post && keys(a.post['tool_response']) !== keys(b.post['tool_response']))
            d('tool_response keys', `tool_response keys ref={${keys(a.post['tool_response'])}} ours={${keys(b.post['tool_response'])}}`);
        else if (a.post &&
            b.post &&
            valuesCompared(call.name) &&
            canonical(a.post['tool_response']) !== canonical(b.post['tool_response']))
            d('tool_response', `tool_response ref=${canonical(a.post['tool_response']).slice(0, 400)} ours=${canonical(b.post['tool_response']).slice(0, 400)}`);
        if (!!a.failure !== !!b.failure)
            d('PostToolUseFailure ran', `PostToolUseFailure hook ran ref=${!!a.failure} ours=${!!b.failure}`);
        else if (a.failure &&
            b.failure &&
            JSON.stringify(a.failure['tool_input']) !== JSON.stringify(b.failure['tool_input']))
            d('tool_input', `PostToolUseFailure tool_input ref=${JSON.stringify(a.failure['tool_input'])} ours=${JSON.stringify(b.failure['tool_input'])}`);
    }
    for (const d of (0, session_1.compareSession)(ref.session, ours.session))
        diffs.push(d);
    // Background tasks: each task's output file, and the notifications the model got.
    for (const [call, text] of Object.entries(ref.background?.outputs ?? {}))
        if (ours.background?.outputs[call] !== text)
            diffs.push({
                tool: 'Bash',
                aspect: 'output file',
                text: `${call}: output file ref=${JSON.stringify(text.slice(0, 300))} ours=${JSON.stringify(ours.background?.outputs[call]?.slice(0, 300))}`,
            });
    if (JSON.stringify(ref.background?.notifications) !== JSON.stringify(ours.background?.notifications))
        diffs.push({
            aspect: 'notification',
            text: `task notifications ref=${JSON.stringify(ref.background?.notifications)} ours=${JSON.stringify(ours.background?.notifications)}`,
        });
    // ToolSearch cases: a deferred tool's schema reaches the model only once loaded, on both sides.
    if (JSON.stringify(ref.offered) !== JSON.stringify(ours.offered))
        diffs.push({
            aspect: 'offered',
            text: `schemas of the called tools per request ref=${JSON.stringify(ref.offered)} ours=${JSON.stringify(ours.offered)}`,
        });
    for (const t of c.modelSees ?? []) {
        if (ref.seen.includes(t) !== ours.seen.includes(t))
            diffs.push({
                aspect: 'model sees',
                text: `the model sees ${JSON.stringify(t)}: ref=${ref.seen.includes(t)} ours=${ours.seen.includes(t)}`,
            });
    }
    const names = new Set([...Object.keys(ref.files), ...Object.keys(ours.files)]);
    for (const n of [...names].sort()) {
        if (ref.files[n] !== ours.files[n])
            diffs.push({
                aspect: 'file',
                path: n,
                text: `file ${n}: ${ref.files[n] === undefined ? 'only ours' : ours.files[n] === undefined ? 'only reference' : 'contents differ'}`,
            });
    }
    return diffs;
}
async function pool(items, n, fn) {
    const out = new Array(items.length);
    let next = 0;
    await Promise.all(Array.from({ length: n }, async () => {
        while (next < items.length) {
            const i = next++;
            out[i] = await fn(items[i]);
        }
    }));
    return out;
}
async function main() {
    const args = process.argv.slice(2);
    const verbose = args.includes('--verbose');
    const jsonAt = args.indexOf('--json');
    const jsonFile = jsonAt >= 0 ? args[jsonAt + 1] : undefined;
    const jobsAt = args.indexOf('--jobs');
    const jobs = jobsAt >= 0 ? Number(args[jobsAt + 1]) : 2;
    if (!Number.isInteger(jobs) || jobs < 1)
        throw new Error(`--jobs wants a positive integer, got ${JSON.stringify(args[jobsAt + 1])}`);
    const filters = args.filter((a, i) => !a.startsWith('--') && (jsonAt < 0 || i !== jsonAt + 1) && (jobsAt < 0 || i !== jobsAt + 1));
    ensureReference();
    const version = (0, node_child_process_1.spawnSync)(exports.CLAUDE_BIN, ['--version'], { encoding: 'utf8' }).stdout.trim();
    console.log(`reference: ${version} (${exports.CLAUDE_BIN})`);
    const cases = cases_1.CASES.filter((c) => filters.length === 0 || filters.some((f) => c.name.includes(f)));
    if (cases.some((c) => c.web))
        site = await (0, webSite_1.webSite)();
    const formatCases = outputFormats_1.FORMAT_CASES.filter((c) => filters.length === 0 || filters.some((f) => c.name.includes(f)));
    const rows = await pool(cases, jobs, async (c) => {
        const [ref, ours] = await Promise.all([runReference(c), runDurableAgent(c)]);
        return { c, ref, ours, diffs: compare(c, ref, ours) };
    });
    let agree = 0;
    let deliberate = 0;
    let unexpected = 0;
    const report = [];
    for (const { c, ref, ours, diffs } of rows) {
        const reasons = diffs.map((d) => (0, cases_1.deliberateReason)(c.name, d));
        const verdict = diffs.length === 0 ? 'agree' : reasons.every((r) => r !== undefined) ? 'deliberate' : 'DIFFER';
        if (verdict === 'agree')
            agree++;
        else if (verdict === 'deliberate')
            deliberate++;
        else
            unexpected++;
        console.log(`${verdict.padEnd(10)} ${c.name.padEnd(40)} ${diffs.map((d, i) => `${d.text}${reasons[i] ? ' [deliberate]' : ''}`).join('; ')}`);
        const detail = (s) => ({
            error: s.error,
            files: s.files,
            seen: s.seen,
            results: Object.fromEntries(s.results),
            offered: s.offered,
            background: s.background,
            session: s.session.inputs,
        });
        if (verbose && diffs.length)
            console.log(JSON.stringify({ reference: detail(ref), ours: detail(ours) }, null, 1).slice(0, 6000));
        report.push({ case: c.name, verdict, diffs, reasons, reference: detail(ref), ours: detail(ours) });
    }
    // Output formats (./outputFormats.ts): the CLI's -p output against the reference's, case by case.
    for (const c of formatCases) {
        const [ref, ours] = await Promise.all([(0, outputFormats_1.referenceSide)(c, exports.CLAUDE_BIN), (0, outputFormats_1.durableSide)(c)]);
        const diffs = (0, outputFormats_1.compareFormat)(c, ref, ours);
        const reasons = diffs.map((text) => (0, cases_1.deliberateReason)(c.name, { aspect: 'output', path: text }));
        const verdict = diffs.length === 0 ? 'agree' : reasons.every((r) => r !== undefined) ? 'deliberate' : 'DIFFER';
        if (verdict === 'agree')
            agree++;
        else if (verdict === 'deliberate')
            deliberate++;
        else
            unexpected++;
        console.log(`${verdict.padEnd(10)} ${c.name.padEnd(40)} ${diffs.map((d, i) => `${d}${reasons[i] ? ' [deliberate]' : ''}`).join('; ')}`);
        if (verbose && diffs.length)
            console.log(JSON.stringify({ reference: ref, ours }, null, 1).slice(0, 6000));
        report.push({ case: c.name, verdict, diffs, reasons, reference: ref, ours });
    }
    if (formatCases.length)
        await (0, outputFormats_1.closeFormatSides)();
    await site?.close();
    console.log('\nDeliberate differences (docs/tools.md):');
    for (const d of cases_1.DELIBERATE)
        console.log(`  ${d.cases}${d.tools ? ` [${d.tools.join(', ')}]` : ''}${d.aspect ? ` (${d.aspect})` : ''}: ${d.reason}`);
    console.log(`\n${cases.length + formatCases.length} cases: ${agree} agree, ${deliberate} deliberate differences, ${unexpected} unexpected differences`);
    if (jsonFile)
        await (0, promises_1.writeFile)(jsonFile, JSON.stringify(report, null, 1));
    // Exit explicitly: the in-process runner's worker deps keep handles open.
    process.exit(unexpected > 0 ? 1 : 0);
}
if (require.main === module) {
    main().catch((err) => {
        console.error(`test:reference: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(2);
    });
}
//# sourceMappingURL=run.js.map