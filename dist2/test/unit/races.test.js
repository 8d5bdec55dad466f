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
// unit: check-then-open races (issue 18, finding 3). For each file tool, a worker thread swaps a
// project file (or a directory on the way to it) with a symlink to a bait outside the project in
// a tight loop while the tool runs through runToolPipeline thousands of times; the oracle is the
// real file system (test/support/races.ts): the bait never in a result, nothing outside changed
// or created. Zero wins. `node dist/bench/races.js` runs 100,000 attempts per scenario.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const fs = __importStar(require("node:fs"));
const grepEngine_1 = require("../../src/tools/builtin/grepEngine");
const races_1 = require("../support/races");
// Per scenario; Grep spawns rg per call, so its four scenarios share 2,000 attempts.
const ATTEMPTS = { Read: 2000, Write: 2000, Edit: 2000, Glob: 2000, Grep: 500 };
for (const scenario of races_1.RACE_SCENARIOS) {
    const tool = scenario.split(' ')[0];
    const skip = scenario.includes('(rg)') && !(0, grepEngine_1.isRipgrepAvailable)() ? 'ripgrep is not installed' : false;
    (0, node_test_1.test)(`unit: ${scenario}: a symlink swapped in after the check never wins`, { skip }, async (t) => {
        const fx = (0, races_1.createRaceFixture)();
        try {
            const counts = await (0, races_1.runRace)(fx, scenario, ATTEMPTS[tool] ?? 2000);
            t.diagnostic(JSON.stringify({ ...counts, failures: undefined }));
            strict_1.default.ok(counts.flips > 0, 'the swapper ran during the calls');
            strict_1.default.equal(counts.wins, 0, `the attacker won ${counts.wins} of ${counts.attempts}: ${counts.example}`);
            strict_1.default.equal(counts.controlOk, true, 'with the swapper stopped, the same call works on the project file');
        }
        finally {
            fs.rmSync(fx.root, { recursive: true, force: true });
        }
    });
}
// What the binding keeps working (real files, the real pipeline): symlinks inside the project,
// a file's mode, a FIFO refused without blocking, an outside file through a symlink when the
// mode allows it; and what a rename changes (a hard link keeps the old content).
(0, node_test_1.test)('unit: bound file access keeps in-project symlinks, modes and allowed outside reads working', async () => {
    const { runToolPipeline } = await Promise.resolve().then(() => __importStar(require('../../src/pipeline')));
    const { BUILTIN_TOOLS } = await Promise.resolve().then(() => __importStar(require('../../src/tools/builtin')));
    const { createToolPool } = await Promise.resolve().then(() => __importStar(require('../../src/permissions/toolPool')));
    const { toolResultText } = await Promise.resolve().then(() => __importStar(require('../../src/engine/messages')));
    const { execFileSync } = await Promise.resolve().then(() => __importStar(require('node:child_process')));
    const path = await Promise.resolve().then(() => __importStar(require('node:path')));
    const fx = (0, races_1.createRaceFixture)();
    try {
        const p = (...s) => path.join(fx.proj, ...s);
        fs.mkdirSync(p('real'));
        fs.writeFileSync(p('real', 'a.txt'), 'alpha\n');
        fs.chmodSync(p('real', 'a.txt'), 0o640);
        fs.symlinkSync(p('real', 'a.txt'), p('link.txt'));
        fs.symlinkSync(p('real'), p('linkdir'));
        fs.linkSync(p('real', 'a.txt'), p('hard.txt'));
        execFileSync('mkfifo', [p('fifo')]);
        const run = async (mode, name, input, readFiles = {}) => {
            const permission = { mode, rules: { allow: [], ask: [], deny: [] }, workingDirectories: [fx.proj] };
            const out = await runToolPipeline({ type: 'tool_use', id: `toolu_${name}_${Math.random().toString(36).slice(2)}`, name, input }, {
                pool: createToolPool(BUILTIN_TOOLS, permission),
                sessionId: 'bound',
                agent: { cwd: fx.proj, additionalDirectories: [], readFiles },
                permission,
            });
            return { out, text: out.result ? toolResultText(out.result) : '' };
        };
        const read = await run('acceptEdits', 'Read', { file_path: p('link.txt') });
        strict_1.default.equal(read.out.status, 'ok');
        strict_1.default.match(read.text, /alpha/);
        const mtimeMs = fs.statSync(p('link.txt')).mtimeMs;
        const write = await run('acceptEdits', 'Write', { file_path: p('link.txt'), content: 'beta\n' }, { [p('link.txt')]: { mtimeMs, partial: false } });
        strict_1.default.equal(write.out.status, 'ok', write.text);
        strict_1.default.ok(fs.lstatSync(p('link.txt')).isSymbolicLink(), 'the symlink is kept: its target was written');
        strict_1.default.equal(fs.readFileSync(p('real', 'a.txt'), 'utf8'), 'beta\n');
        strict_1.default.equal(fs.statSync(p('real', 'a.txt')).mode & 0o777, 0o640, 'the mode is kept');
        strict_1.default.equal(fs.readFileSync(p('hard.txt'), 'utf8'), 'alpha\n', 'a rename leaves another hard link with the old content (docs/tools.md)');
        const glob = await run('acceptEdits', 'Glob', { pattern: '*.txt', path: p('linkdir') });
        strict_1.default.equal(glob.text, p('linkdir', 'a.txt'));
        for (const engine of ['rg', 'js']) {
            process.env.DURABLE_AGENT_GREP_ENGINE = engine;
            try {
                const grep = await run('acceptEdits', 'Grep', { pattern: 'beta', path: p('linkdir'), output_mode: 'content' });
                strict_1.default.match(grep.text, /a\.txt:1:beta/, engine);
            }
            finally {
                delete process.env.DURABLE_AGENT_GREP_ENGINE;
            }
        }
        const fifo = await run('acceptEdits', 'Read', { file_path: p('fifo') });
        strict_1.default.equal(fifo.out.status, 'error');
        strict_1.default.match(fifo.text, /not a regular file/);
        // bypassPermissions reads outside: through a symlink too (the decision covered its real path).
        fs.symlinkSync(fx.baitFile, p('out-link'));
        const outside = await run('bypassPermissions', 'Read', { file_path: p('out-link') });
        strict_1.default.equal(outside.out.status, 'ok', outside.text);
    }
    finally {
        fs.rmSync(fx.root, { recursive: true, force: true });
    }
});
//# sourceMappingURL=races.test.js.map