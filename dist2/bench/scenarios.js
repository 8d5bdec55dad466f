"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.REALISTIC_PACE = exports.ScriptBook = void 0;
exports.firstUserText = firstUserText;
exports.readsScript = readsScript;
exports.writesScript = writesScript;
exports.batchScript = batchScript;
exports.rng = rng;
exports.paced = paced;
exports.copyTree = copyTree;
exports.realisticScript = realisticScript;
exports.streamingScript = streamingScript;
// The bench's scripted model: one fake Messages API serves every scenario; the first user message
// ("bench:<scenario>:<run>") says which script answers. Turn n = assistant messages so far + 1.
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../src/testing/fakeAnthropic");
const sleepTool_1 = require("./sleepTool");
function firstUserText(req) {
    const first = req.messages.find((m) => m.role === 'user');
    if (!first)
        return '';
    if (typeof first.content === 'string')
        return first.content;
    return first.content.map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('');
}
/** Routes each request to the script its session was started with (prompt `bench:<key>`). */
class ScriptBook {
    scripts = new Map();
    add(key, script) {
        this.scripts.set(key, script);
        return `bench:${key}`;
    }
    answer(req) {
        const text = firstUserText(req);
        const key = /bench:(\S+)/.exec(text)?.[1];
        const script = key ? this.scripts.get(key) : undefined;
        if (!script)
            return (0, fakeAnthropic_1.textResponse)(`no bench script for ${JSON.stringify(text.slice(0, 60))}`);
        const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
        return script(turn, req);
    }
}
exports.ScriptBook = ScriptBook;
/** N turns of three parallel Reads, then a text answer (the overhead-per-turn script). */
function readsScript(turns, files) {
    return (turn) => turn > turns
        ? (0, fakeAnthropic_1.textResponse)('done')
        : (0, fakeAnthropic_1.toolUseResponse)(files.map((f, i) => ({ id: `toolu_r${turn}_${i}`, name: 'Read', input: { file_path: f } })));
}
/** N turns of `k` Writes each (Write is not concurrency-safe: each call is its own batch). */
function writesScript(turns, k, dir) {
    return (turn) => turn > turns
        ? (0, fakeAnthropic_1.textResponse)('done')
        : (0, fakeAnthropic_1.toolUseResponse)(Array.from({ length: k }, (_, i) => ({
            id: `toolu_w${turn}_${i}`,
            name: 'Write',
            input: { file_path: (0, node_path_1.join)(dir, `w${turn}_${i}.txt`), content: `turn ${turn} call ${i}\n` },
        })));
}
/** One turn of `n` parallel sleeps of `ms` (the batch row). */
function batchScript(n, ms) {
    return (turn) => turn > 1
        ? (0, fakeAnthropic_1.textResponse)('done')
        : (0, fakeAnthropic_1.toolUseResponse)(Array.from({ length: n }, (_, i) => ({ id: `toolu_s${i}`, name: sleepTool_1.SLEEP_TOOL_NAME, input: { ms } })));
}
/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed) {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}
exports.REALISTIC_PACE = { ttftMs: [300, 600], tokensPerSecond: 60 };
/** Streams `spec` at `pace`: one ≈4-character token per event. */
function paced(spec, pace, random) {
    const [lo, hi] = pace.ttftMs;
    return {
        ...spec,
        latencyMs: Math.round(lo + (hi - lo) * random()),
        delayMs: Math.round(1000 / pace.tokensPerSecond),
        textChunkSize: 4,
        jsonChunkSize: 4,
    };
}
const WORDS = 'the turn reads the files it needs then changes what the task asks and checks the result before it answers'.split(' ');
function prose(tokens, random) {
    const out = [];
    while (out.join(' ').length < tokens * 4)
        out.push(WORDS[Math.floor(random() * WORDS.length)]);
    return `${out.join(' ')}.`;
}
function listTs(dir, root = dir) {
    const out = [];
    for (const e of (0, node_fs_1.readdirSync)(dir, { withFileTypes: true })) {
        const p = (0, node_path_1.join)(dir, e.name);
        if (e.isDirectory())
            out.push(...listTs(p, root));
        else if (e.name.endsWith('.ts'))
            out.push((0, node_path_1.relative)(root, p));
    }
    return out.sort();
}
/** A copy of a real source tree for the realistic session (each run edits its own copy). */
function copyTree(from, to) {
    (0, node_fs_1.mkdirSync)(to, { recursive: true });
    (0, node_fs_1.cpSync)(from, (0, node_path_1.join)(to, 'src'), { recursive: true });
    (0, node_fs_1.writeFileSync)((0, node_path_1.join)(to, 'NOTES.md'), '# Notes\n');
    return to;
}
/**
 * 20 turns on a copy of a source tree mixing Glob, Grep, Read, Edit and Bash; the model streams at
 * `pace` (text before the calls, the calls' JSON). The plan is fixed by the tree and the seed, so
 * the in-process and Temporal runs see the same messages.
 */
function realisticScript(tree, pace, seed = 7, turns = 20) {
    const files = listTs((0, node_path_1.join)(tree, 'src'));
    const pick = (k) => (0, node_path_1.join)(tree, 'src', files[(k * 37) % files.length]);
    const random = rng(seed);
    const edited = new Set();
    const plan = [];
    for (let t = 1; t < turns; t++) {
        const kind = t % 5;
        plan.push(() => {
            const text = prose(20 + Math.floor(random() * 40), random);
            const id = (i) => `toolu_x${t}_${i}`;
            switch (kind) {
                case 1:
                    return (0, fakeAnthropic_1.toolUseResponse)([
                        { id: id(0), name: 'Glob', input: { pattern: '**/*.ts', path: (0, node_path_1.join)(tree, 'src') } },
                        { id: id(1), name: 'Read', input: { file_path: pick(t) } },
                    ], { text });
                case 2:
                    return (0, fakeAnthropic_1.toolUseResponse)([
                        {
                            id: id(0),
                            name: 'Grep',
                            input: {
                                pattern: 'export (async )?function',
                                path: (0, node_path_1.join)(tree, 'src'),
                                output_mode: 'files_with_matches',
                            },
                        },
                        { id: id(1), name: 'Read', input: { file_path: pick(t + 1) } },
                        { id: id(2), name: 'Read', input: { file_path: pick(t + 2) } },
                    ], { text });
                case 3: {
                    // Edit the file read in the previous turn: its first line is replaced by itself plus a marker.
                    const file = pick(t + 1);
                    const first = (0, node_fs_1.readFileSync)(file, 'utf8').split('\n')[0] ?? '';
                    const marker = edited.has(file) ? ` (edited again ${t})` : ` (edited ${t})`;
                    edited.add(file);
                    return first.trim()
                        ? (0, fakeAnthropic_1.toolUseResponse)([
                            {
                                id: id(0),
                                name: 'Edit',
                                input: { file_path: file, old_string: first, new_string: first + marker },
                            },
                        ], { text })
                        : (0, fakeAnthropic_1.toolUseResponse)([{ id: id(0), name: 'Read', input: { file_path: file } }], { text });
                }
                case 4:
                    return (0, fakeAnthropic_1.toolUseResponse)([
                        {
                            id: id(0),
                            name: 'Bash',
                            input: {
                                command: `wc -l src/engine/*.ts | tail -1 && grep -c import src/worker.ts`,
                                description: 'Count lines',
                            },
                        },
                    ], { text });
                default:
                    return (0, fakeAnthropic_1.toolUseResponse)([
                        {
                            id: id(0),
                            name: 'Grep',
                            input: { pattern: 'TODO|FIXME', path: (0, node_path_1.join)(tree, 'src'), output_mode: 'count' },
                        },
                        { id: id(1), name: 'Glob', input: { pattern: 'engine/*.ts', path: (0, node_path_1.join)(tree, 'src') } },
                    ], { text });
            }
        });
    }
    const cache = new Map();
    return (turn) => {
        let spec = cache.get(turn);
        if (!spec) {
            spec = paced(turn <= plan.length ? plan[turn - 1]() : (0, fakeAnthropic_1.textResponse)(prose(60, random)), pace, random);
            cache.set(turn, spec);
        }
        return spec;
    };
}
/**
 * Streaming execution: each turn's message streams `blocks` safe calls over ~2.5 s (some text
 * before each), the first calls the slowest — the case the reference's streaming executor wins.
 */
function streamingScript(turns, blocks = 5, streamMs = 2500) {
    return (turn) => {
        if (turn > turns)
            return (0, fakeAnthropic_1.textResponse)('done');
        const content = [];
        for (let i = 0; i < blocks; i++) {
            content.push({ type: 'text', text: `Step ${i + 1}: looking at part ${i + 1} of the code base now.` });
            content.push({
                type: 'tool_use',
                id: `toolu_st${turn}_${i}`,
                name: sleepTool_1.SLEEP_TOOL_NAME,
                input: { ms: (blocks - i) * Math.round(streamMs / blocks) },
            });
        }
        // Events: per block ~1 start + text pieces + stop, tool start + json pieces + stop; spread evenly.
        const spec = { content, textChunkSize: 6, jsonChunkSize: 4 };
        const events = content.reduce((n, b) => n +
            2 +
            (b.type === 'text'
                ? Math.ceil(b.text.length / 6)
                : 1 + Math.ceil(JSON.stringify(b.type === 'tool_use' ? b.input : '').length / 4)), 4);
        return { ...spec, latencyMs: 300, delayMs: Math.max(1, Math.round(streamMs / events)) };
    };
}
//# sourceMappingURL=scenarios.js.map