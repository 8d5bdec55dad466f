"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the reference's auto-compact switches — env vars, settings file key, session input checks.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const client_1 = require("../../src/client");
const settings_1 = require("../../src/cli/settings");
const sessionInput_1 = require("../../src/sessionInput");
(0, node_test_1.test)('unit: context settings from the reference env vars; an explicit setting wins, except that either switch turns auto-compaction off', () => {
    // Tool search is `auto` unless ENABLE_TOOL_SEARCH says otherwise (test/unit/tool-search).
    const auto = { toolSearch: 'auto' };
    strict_1.default.deepEqual((0, client_1.contextSettings)({}, {}), auto);
    strict_1.default.deepEqual((0, client_1.contextSettings)({}, {
        DISABLE_AUTO_COMPACT: '1',
        CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '60',
        CLAUDE_CODE_AUTO_COMPACT_WINDOW: '400000',
        CLAUDE_CODE_DISABLE_1M_CONTEXT: 'true',
        DISABLE_PROMPT_CACHING: '1',
    }), {
        ...auto,
        autoCompact: false,
        autoCompactPct: 60,
        autoCompactWindow: 400_000,
        disable1mContext: true,
        promptCaching: false,
    });
    strict_1.default.deepEqual((0, client_1.contextSettings)({ autoCompact: true }, { DISABLE_COMPACT: 'yes' }), { ...auto, autoCompact: false });
    strict_1.default.deepEqual((0, client_1.contextSettings)({ autoCompactPct: 50 }, { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '70' }), {
        ...auto,
        autoCompactPct: 50,
    });
    strict_1.default.deepEqual((0, client_1.contextSettings)({}, { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: 'abc', DISABLE_AUTO_COMPACT: '0' }), auto);
});
(0, node_test_1.test)('unit: settings file autoCompactEnabled (project over user); a non-boolean is an error naming the file', async () => {
    const dir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-ctx-settings-'));
    await (0, promises_1.mkdir)((0, node_path_1.join)(dir, 'u'));
    await (0, promises_1.mkdir)((0, node_path_1.join)(dir, 'p'));
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, 'u', 'settings.json'), JSON.stringify({ autoCompactEnabled: true }));
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, 'p', 'settings.json'), JSON.stringify({ autoCompactEnabled: false }));
    strict_1.default.equal((0, settings_1.loadSettings)(dir, [(0, node_path_1.join)(dir, 'u', 'settings.json'), (0, node_path_1.join)(dir, 'p', 'settings.json')]).autoCompactEnabled, false);
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, 'p', 'settings.json'), JSON.stringify({ autoCompactEnabled: 'no' }));
    strict_1.default.throws(() => (0, settings_1.loadSettings)(dir, [(0, node_path_1.join)(dir, 'p', 'settings.json')]), (e) => e instanceof settings_1.SettingsError && /p\/settings\.json: autoCompactEnabled must be true or false/.test(e.message));
});
(0, node_test_1.test)('unit: a session input with malformed contextManagement is refused with a readable problem', () => {
    const base = {
        prompt: 'x',
        model: { model: 'm', maxTokens: 10 },
        tools: [],
        permissionMode: 'default',
        rules: { allow: [], ask: [], deny: [] },
        cwd: '/w',
    };
    strict_1.default.deepEqual((0, sessionInput_1.sessionInputProblems)({ ...base, contextManagement: { autoCompactWindow: 30_000, autoCompact: false } }), []);
    strict_1.default.deepEqual((0, sessionInput_1.sessionInputProblems)({ ...base, contextManagement: { autoCompactPct: 'x', promptCaching: 1 } }), [
        'contextManagement.autoCompactPct must be a non-negative number',
        'contextManagement.promptCaching must be true or false',
    ]);
});
//# sourceMappingURL=context-settings.test.js.map