"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the attack suite (issue 8). Every row of test/support/attacks.ts goes through runToolPipeline —
// the one pipeline — with the real built-in tools over real temp directories, and must have no
// effect: no marker file (no command ran), nothing changed outside the project or in $HOME, no
// canary or forbidden text in the result; existence-oracle rows answer the same for a missing
// twin. A control first runs every Bash attack with bash itself, to prove each one is real.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const fs = __importStar(require("node:fs"));
const path = __importStar(require("node:path"));
const pipeline_1 = require("../../src/pipeline");
const bashParser_1 = require("../../src/permissions/bashParser");
const builtin_1 = require("../../src/tools/builtin");
const toolPool_1 = require("../../src/permissions/toolPool");
const attacks_1 = require("../support/attacks");
let fx;
const savedHome = process.env.HOME;
(0, node_test_1.before)(async () => {
    strict_1.default.equal(await (0, bashParser_1.loadShellParser)(), true);
    fx = (0, attacks_1.createAttackFixture)();
    process.env.HOME = fx.home; // `~` in attacks and in the permission checks means the fixture's home
});
(0, node_test_1.after)(() => {
    process.env.HOME = savedHome;
    fs.rmSync(fx.root, { recursive: true, force: true });
});
/** Puts the fixture back after a control run changed it. */
function repair() {
    for (const d of [fx.marks, path.join(fx.outside, 'drop')]) {
        fs.rmSync(d, { recursive: true, force: true });
        fs.mkdirSync(d);
    }
    fs.writeFileSync(path.join(fx.proj, 'sub', 'deep', 'x.txt'), 'x\n');
    fs.rmSync(path.join(fx.proj, 'copy'), { recursive: true, force: true });
}
async function run(c, input) {
    const cwd = path.join(fx.proj, c.cwd ?? '');
    const permission = {
        mode: c.mode,
        rules: { allow: [], ask: [], deny: [], ...c.rules },
        workingDirectories: [cwd],
    };
    return (0, pipeline_1.runToolPipeline)({ type: 'tool_use', id: `toolu_${c.id.replace(/[^A-Za-z0-9_]/g, '_')}`, name: c.tool, input }, {
        pool: (0, toolPool_1.createToolPool)(builtin_1.BUILTIN_TOOLS, permission),
        sessionId: 'attack-suite',
        agent: { cwd, additionalDirectories: [], readFiles: {}, ...(c.cwd ? { projectDir: fx.proj } : {}) },
        permission,
    });
}
function resultText(o) {
    const c = o.result?.content;
    if (c === undefined)
        return '';
    return typeof c === 'string' ? c : c.map((b) => ('text' in b ? b.text : '')).join('\n');
}
(0, node_test_1.test)('unit: the attack table has at least 150 rows, in every class and mode', (t) => {
    const counts = (0, attacks_1.countByClass)();
    const modes = [...new Set(attacks_1.ATTACK_CASES.map((c) => c.mode))].sort();
    t.diagnostic(`attack rows per class: ${JSON.stringify(counts)} (total ${attacks_1.ATTACK_CASES.length}); modes: ${modes.join(', ')}`);
    console.log(`attack rows per class: ${JSON.stringify(counts)} (total ${attacks_1.ATTACK_CASES.length})`);
    strict_1.default.ok(attacks_1.ATTACK_CASES.length >= 150, `${attacks_1.ATTACK_CASES.length} rows`);
    strict_1.default.equal(Object.keys(counts).length, 8);
    strict_1.default.deepEqual(modes, ['acceptEdits', 'bypassPermissions', 'default', 'dontAsk', 'plan']);
    strict_1.default.equal(new Set(attacks_1.ATTACK_CASES.map((c) => c.id)).size, attacks_1.ATTACK_CASES.length, 'ids are unique');
});
(0, node_test_1.test)('unit: control — every Bash attack has its effect when bash itself runs it', () => {
    const failed = [];
    const seen = new Set();
    for (const c of attacks_1.ATTACK_CASES) {
        if (c.tool !== 'Bash' || !c.effect)
            continue;
        const key = c.id.replace(/-[A-Za-z]+$/, '');
        if (seen.has(key))
            continue;
        seen.add(key);
        repair();
        const before = (0, attacks_1.snapshot)(fx.outside);
        const command = (0, attacks_1.fillInput)(c, fx).command;
        const r = (0, node_child_process_1.spawnSync)('bash', ['-c', command], {
            cwd: path.join(fx.proj, c.cwd ?? ''),
            env: { ...process.env, HOME: fx.home, FSM: `touch ${path.join(fx.marks, c.id)}` },
            encoding: 'utf8',
            timeout: 10_000,
            input: '',
        });
        const out = `${r.stdout}${r.stderr}`;
        const ok = c.effect === 'mark'
            ? fs.existsSync(path.join(fx.marks, c.id))
            : c.effect === 'leak'
                ? [...attacks_1.CANARIES, attacks_1.SECRET].some((k) => out.includes(k))
                : (0, attacks_1.snapshot)(fx.outside) !== before;
        if (!ok)
            failed.push(`${c.id}: ${JSON.stringify(command)} → ${out.slice(0, 200)}`);
    }
    repair();
    strict_1.default.deepEqual(failed, [], 'these attacks do nothing even without the permission layer: fix the table');
});
for (const c of attacks_1.ATTACK_CASES) {
    (0, node_test_1.test)(`unit: attack ${c.id} [${c.tool} ${JSON.stringify(c.input).slice(0, 90)}] has no effect`, async () => {
        repair();
        const input = (0, attacks_1.fillInput)(c, fx);
        const outsideBefore = (0, attacks_1.snapshot)(fx.outside);
        const homeBefore = (0, attacks_1.snapshot)(fx.home);
        const o = await run(c, input);
        const text = resultText(o);
        const where = `${c.id} → ${o.status}: ${text.slice(0, 300)}`;
        strict_1.default.equal(fs.existsSync(path.join(fx.marks, c.id)), false, `a command ran: ${where}`);
        strict_1.default.equal((0, attacks_1.snapshot)(fx.outside), outsideBefore, `a file outside changed: ${where}`);
        strict_1.default.equal((0, attacks_1.snapshot)(fx.home), homeBefore, `$HOME changed: ${where}`);
        for (const k of [...attacks_1.CANARIES, ...(c.forbid ?? [])])
            strict_1.default.ok(!text.includes(k), `the result shows ${k}: ${where}`);
        if (c.twin) {
            const twinInput = (0, attacks_1.fillInput)(c, fx, c.twin);
            const t = await run({ ...c, id: `${c.id}-twin` }, twinInput);
            const norm = (s, inp) => {
                let out = s;
                for (const v of Object.values(inp))
                    if (typeof v === 'string' && v.length > 1)
                        out = out.split(v).join('<ARG>');
                return out;
            };
            strict_1.default.equal(t.status, o.status, `existence oracle (status): ${where} / twin → ${t.status}: ${resultText(t)}`);
            strict_1.default.equal(norm(resultText(t), twinInput), norm(text, input), `existence oracle (text): ${where}`);
            strict_1.default.equal(t.ask?.message && norm(t.ask.message, twinInput), o.ask?.message && norm(o.ask.message, input), 'existence oracle (ask)');
        }
    });
}
// The other side: ordinary read-only work still runs unasked (in default and plan mode, with a
// `Read(./.env)` deny rule in force), and counts as read-only for concurrency.
const LEGIT = [
    { command: 'ls -la' },
    { command: 'ls sub/deep' },
    { command: 'cat a.txt' },
    { command: 'cat a.txt | wc -l' },
    { command: 'head -n 1 a.txt && tail -n 1 a.txt' },
    { command: 'grep -rn hello .' },
    { command: 'grep -c x sub/deep/x.txt' },
    { command: 'find . -name "*.txt" -not -path "./link-out/*"' },
    { command: 'git status --short' },
    { command: 'git log --oneline -1' },
    { command: 'git diff --stat' },
    { command: 'git branch --show-current' },
    { command: 'cd sub && ls' },
    { command: 'echo "$HOME"' },
    { command: 'sort -u a.txt' },
    { command: 'ls *.txt' },
    { command: 'wc -l sub/deep/*.txt' },
    { command: 'cat {a,sub/deep/x}.txt' },
    { command: 'diff a.txt sub/deep/x.txt; echo done' },
    { command: 'stat -c %s a.txt 2>/dev/null' },
    { command: 'LC_ALL=C grep -i HELLO a.txt' },
    { command: 'timeout 5 cat a.txt' },
    { command: '[ -f a.txt ] && echo yes' },
    { command: "printf '%s\\n' a b | cut -c1" },
    { command: 'ls', rules: { deny: ['Read(./.env)'] } },
    { command: 'cat a.txt', rules: { deny: ['Read(./.env)'] } },
    { command: 'git status', rules: { deny: ['Read(./.env)'] } },
    { command: 'grep -rn hello sub', rules: { deny: ['Read(./.env)'] } },
];
for (const [i, l] of LEGIT.entries()) {
    for (const mode of ['default', 'plan']) {
        (0, node_test_1.test)(`unit: legit read-only command runs unasked in ${mode}: ${l.command}`, async () => {
            repair();
            const c = {
                id: `legit-${i}-${mode}`,
                cls: 'hidden-paths',
                mode,
                tool: 'Bash',
                input: { command: l.command },
                ...(l.rules ? { rules: l.rules } : {}),
            };
            const o = await run(c, c.input);
            strict_1.default.equal(o.status, 'ok', `${l.command} → ${o.status}: ${o.ask?.message ?? resultText(o)}`);
            const pool = (0, toolPool_1.createToolPool)(builtin_1.BUILTIN_TOOLS, {
                mode,
                rules: { allow: [], ask: [], deny: [] },
                workingDirectories: [fx.proj],
            });
            strict_1.default.equal((0, pipeline_1.describeToolUse)({ type: 'tool_use', id: 't', name: 'Bash', input: { command: l.command } }, pool)
                .concurrencySafe, true);
        });
    }
}
(0, node_test_1.test)('unit: inside the working directories, the file checks still answer (no needless approval)', async () => {
    repair();
    const base = { cls: 'existence-oracles', mode: 'default' };
    const read = await run({ ...base, id: 'inside-read', tool: 'Read', input: {} }, { file_path: 'nope.txt' });
    strict_1.default.equal(read.status, 'error');
    strict_1.default.match(resultText(read), /File does not exist: nope\.txt/);
    const write = await run({ ...base, id: 'inside-write', tool: 'Write', input: {} }, { file_path: 'a.txt', content: 'new' });
    strict_1.default.equal(write.status, 'error', 'the mode would ask, but the call cannot work: the tool says why');
    strict_1.default.match(resultText(write), /has not been read yet/);
    const outside = await run({ ...base, id: 'outside-write', tool: 'Write', input: {} }, { file_path: path.join(fx.outside, 'secret-5d1e.txt'), content: 'x' });
    strict_1.default.equal(outside.status, 'ask', 'outside: the approval comes first, the file check after it');
    strict_1.default.equal(fs.readFileSync(path.join(fx.outside, 'secret-5d1e.txt'), 'utf8').includes('CANARY'), true);
});
//# sourceMappingURL=attacks.test.js.map