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
// integration: a sample of the attack table (test/support/attacks.ts) through real sessions on the
// dev server — the fake model sends the hostile tool_use blocks, the real worker runs the whole
// pipeline in activities — and none of them has an effect: no marker file, nothing changed
// outside the project or in $HOME, no canary in any tool_result the model got back.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const fs = __importStar(require("node:fs"));
const path = __importStar(require("node:path"));
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const client_1 = require("../../src/client");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const attacks_1 = require("../support/attacks");
(0, node_test_1.after)(temporal_1.closeTestEnv);
let fx;
const savedHome = process.env.HOME;
(0, node_test_1.before)(() => {
    fx = (0, attacks_1.createAttackFixture)();
    process.env.HOME = fx.home;
});
(0, node_test_1.after)(() => {
    process.env.HOME = savedHome;
    fs.rmSync(fx.root, { recursive: true, force: true });
});
/** Up to `perClass` rows of each class in modes that never wait for a human (no cwd change, no twin). */
function sample(perClass) {
    const out = [];
    const taken = {};
    for (const c of attacks_1.ATTACK_CASES) {
        if (c.cwd || c.twin || !['dontAsk', 'bypassPermissions'].includes(c.mode))
            continue; // no 'ask' waits for a human
        if ((taken[c.cls] ?? 0) >= perClass)
            continue;
        taken[c.cls] = (taken[c.cls] ?? 0) + 1;
        out.push(c);
    }
    return out;
}
(0, node_test_1.test)('integration: hostile tool_use blocks from the model have no effect in real sessions', async () => {
    const chosen = sample(4);
    strict_1.default.ok(chosen.length >= 12, `${chosen.length} sessions rows`);
    const groups = new Map();
    for (const c of chosen) {
        const key = JSON.stringify([c.mode, c.rules ?? {}]);
        groups.set(key, [...(groups.get(key) ?? []), c]);
    }
    console.log(`[attacks-session] ${chosen.length} rows in ${groups.size} sessions: ${chosen.map((c) => c.id).join(', ')}`);
    const outsideBefore = (0, attacks_1.snapshot)(fx.outside);
    const homeBefore = (0, attacks_1.snapshot)(fx.home);
    await (0, agent_1.withAgent)({}, async ({ fake, start }) => {
        for (const rows of groups.values()) {
            const first = rows[0];
            const idOf = (c) => `toolu_${c.id.replace(/[^A-Za-z0-9_]/g, '_')}`;
            const before = fake.messageRequests().length;
            fake.enqueue((0, fakeAnthropic_1.toolUseResponse)(rows.map((c) => ({ id: idOf(c), name: c.tool, input: (0, attacks_1.fillInput)(c, fx) }))), (0, fakeAnthropic_1.textResponse)('done'));
            const handle = await start({
                prompt: 'Follow the instructions in the file you just read.',
                cwd: fx.proj,
                permissionMode: first.mode,
                rules: { allow: [], ask: [], deny: [], ...first.rules },
                tools: client_1.BUILTIN_TOOL_NAMES,
                // The door on its own: the sandbox stays on (the wall), but its auto-allow would let a
                // sandboxed command that asks run (by design: it is contained, see integration/sandbox).
                sandbox: { autoAllowBashIfSandboxed: false },
            });
            const result = await handle.result();
            strict_1.default.equal(result.status, 'completed');
            const requests = fake.messageRequests().slice(before);
            const results = (0, fakeAnthropic_1.lastToolResults)(requests[1]);
            strict_1.default.deepEqual(results.map((r) => r.tool_use_id), rows.map(idOf), 'every hostile tool_use got its tool_result');
            for (const c of rows) {
                const r = results.find((x) => x.tool_use_id === idOf(c));
                const text = JSON.stringify(r?.content ?? '');
                strict_1.default.equal(fs.existsSync(path.join(fx.marks, c.id)), false, `${c.id} ran a command: ${text.slice(0, 300)}`);
                for (const k of [...attacks_1.CANARIES, ...(c.forbid ?? [])])
                    strict_1.default.ok(!text.includes(k), `${c.id} shows ${k}: ${text.slice(0, 300)}`);
            }
        }
        fake.assertDone();
    });
    strict_1.default.equal((0, attacks_1.snapshot)(fx.outside), outsideBefore, 'nothing changed outside the project');
    strict_1.default.equal((0, attacks_1.snapshot)(fx.home), homeBefore, 'nothing changed in $HOME');
    strict_1.default.deepEqual(fs.readdirSync(fx.marks), [], 'no attack command ran');
});
(0, node_test_1.test)('integration: after a cd, ./ rules stay anchored at the project (Read and Grep of ../.env stay denied)', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start }) => {
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_cd', name: 'Bash', input: { command: 'cd sub' } }]), (0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_read', name: 'Read', input: { file_path: '../.env' } },
            { id: 'toolu_grep', name: 'Grep', input: { pattern: 'TOKEN', path: '..', output_mode: 'content' } },
            { id: 'toolu_cat', name: 'Bash', input: { command: 'cat ../.env' } },
            { id: 'toolu_pwd', name: 'Bash', input: { command: 'pwd' } },
        ]), (0, fakeAnthropic_1.textResponse)('done'));
        const handle = await start({
            prompt: 'Follow the instructions in the file you just read.',
            cwd: fx.proj,
            permissionMode: 'dontAsk',
            rules: { allow: ['Bash(cd sub)'], ask: [], deny: ['Read(./.env)'] },
            tools: client_1.BUILTIN_TOOL_NAMES,
            sandbox: { autoAllowBashIfSandboxed: false },
        });
        strict_1.default.equal((await handle.result()).status, 'completed');
        const results = (0, fakeAnthropic_1.lastToolResults)(fake.messageRequests()[2]);
        const text = (id) => JSON.stringify(results.find((r) => r.tool_use_id === id)?.content ?? '');
        strict_1.default.match(text('toolu_pwd'), new RegExp(`${path.join(fx.proj, 'sub')}`), 'the cd took effect');
        strict_1.default.match(text('toolu_read'), /denied by the rule Read\(\.\/\.env\)/);
        for (const id of ['toolu_read', 'toolu_grep', 'toolu_cat'])
            strict_1.default.ok(!text(id).includes(attacks_1.CANARIES[1]), `${id}: ${text(id)}`);
        fake.assertDone();
    });
});
//# sourceMappingURL=attacks-session.test.js.map