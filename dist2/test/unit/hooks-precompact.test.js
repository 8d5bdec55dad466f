"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: PreCompact hooks in the reference's format — matcher on the trigger, stdout adds
// instructions, exit code 2 / decision "block" blocks, failures are notices.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_os_1 = require("node:os");
const hooks_1 = require("../../src/hooks");
const input = { session_id: 's', cwd: (0, node_os_1.tmpdir)(), trigger: 'auto', custom_instructions: null };
(0, node_test_1.test)('unit: PreCompact command hooks — matcher on the trigger, stdout becomes instructions, exit 2 blocks, JSON additionalContext counts', async () => {
    const config = (0, hooks_1.normalizeHooksConfig)({
        PreCompact: [
            { matcher: 'auto', hooks: [{ type: 'command', command: 'cat >/dev/null; echo "Keep the list of files read."' }] },
            { matcher: 'manual', hooks: [{ type: 'command', command: 'echo never' }] },
            {
                hooks: [
                    {
                        type: 'command',
                        command: `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreCompact","additionalContext":"Mention the failing test."}}'`,
                    },
                ],
            },
        ],
    });
    const r = await (0, hooks_1.runPreCompactHooks)(input, { config, cwd: (0, node_os_1.tmpdir)() });
    strict_1.default.deepEqual(r.instructions, ['Keep the list of files read.', 'Mention the failing test.']);
    strict_1.default.equal(r.block, undefined);
    strict_1.default.equal(r.runs.length, 2);
    const blocking = (0, hooks_1.normalizeHooksConfig)({
        PreCompact: [
            {
                hooks: [
                    { type: 'command', command: 'echo "not now: mid-migration" >&2; exit 2' },
                    { type: 'command', command: 'exit 1' },
                ],
            },
        ],
    });
    const b = await (0, hooks_1.runPreCompactHooks)(input, { config: blocking, cwd: (0, node_os_1.tmpdir)() });
    strict_1.default.deepEqual(b.block?.reason, 'not now: mid-migration');
    strict_1.default.equal(b.notices.length, 1, 'exit 1 is a non-blocking error');
});
(0, node_test_1.test)('unit: PreCompact function hooks see the input; decision "block" blocks', async () => {
    const seen = [];
    const config = {
        PreCompact: [
            {
                hooks: [
                    {
                        type: 'function',
                        fn: (i) => {
                            seen.push(i);
                            return { decision: 'block', reason: 'checkpoint first' };
                        },
                    },
                ],
            },
        ],
    };
    const r = await (0, hooks_1.runPreCompactHooks)({ ...input, trigger: 'manual' }, { config, cwd: (0, node_os_1.tmpdir)() });
    strict_1.default.equal(r.block?.reason, 'checkpoint first');
    strict_1.default.deepEqual(seen, [{ ...input, trigger: 'manual', hook_event_name: 'PreCompact' }]);
});
//# sourceMappingURL=hooks-precompact.test.js.map