"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the turn child's input (src/workflows/turnInput.ts) and the tool session its activities get
// from it: by reference (the session stored its settings) or inline (a run before the patch, or a
// store that refused them), the tool activities see the same settings, skills included.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const client_1 = require("../../src/client");
const context_1 = require("../../src/engine/context");
const session_1 = require("../../src/engine/session");
const tools_1 = require("../../src/calls/tools");
const messageStore_1 = require("../../src/stores/messageStore");
const toolSettingsStore_1 = require("../../src/stores/toolSettingsStore");
const toolSettings_1 = require("../../src/workflows/toolSettings");
const turnInput_1 = require("../../src/workflows/turnInput");
const SKILL = {
    name: 'greet',
    description: 'Say hello',
    allowedTools: ['Bash(echo:*)'],
    body: 'Greet.\n',
    dir: '/w/.claude/skills/greet',
    scope: 'project',
    source: '/w/.claude/skills/greet/SKILL.md',
};
(0, node_test_1.test)("unit: a turn's tool session has the session's skills whether its settings travel by reference or inline (the store refused them)", async () => {
    const input = (0, client_1.sessionInput)({
        prompt: 'x',
        cwd: '/w',
        tools: ['Read', 'Bash', 'Skill', 'Agent'],
        skills: [SKILL],
        rules: { allow: ['Read'], ask: [], deny: [] },
    });
    const state = (0, session_1.initialSessionState)('x', (0, context_1.initialContext)('/w'));
    const run = { sessionId: 's', turn: 1, append: [], agentHooks: undefined };
    const inline = (0, toolSettings_1.toolSession)((0, turnInput_1.turnWorkflowInput)(input, state, { ...run, toolSettingsRef: undefined }));
    strict_1.default.deepEqual(inline.skills, [SKILL]);
    const store = new toolSettingsStore_1.ToolSettingsStore(new messageStore_1.LocalBlobStore(await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-turn-input-'))));
    const ref = await store.put((0, toolSettings_1.storedToolSettings)(input));
    const byRef = (0, turnInput_1.turnWorkflowInput)(input, state, { ...run, toolSettingsRef: ref });
    // By reference the skills are in the store, not in the turn's input (nor in any tool activity's).
    strict_1.default.equal(byRef.skills, undefined);
    strict_1.default.deepEqual(await (0, tools_1.resolveToolSession)((0, toolSettings_1.toolSession)(byRef), store), inline);
});
(0, node_test_1.test)('unit: a session without the Skill tool sends no skills inline', () => {
    const input = (0, client_1.sessionInput)({ prompt: 'x', cwd: '/w', tools: ['Read'], skills: [SKILL] });
    const state = (0, session_1.initialSessionState)('x', (0, context_1.initialContext)('/w'));
    const t = (0, turnInput_1.turnWorkflowInput)(input, state, {
        sessionId: 's',
        turn: 1,
        append: [],
        agentHooks: undefined,
        toolSettingsRef: undefined,
    });
    strict_1.default.equal(t.skills, undefined);
    strict_1.default.equal((0, toolSettings_1.toolSession)(t).skills, undefined);
});
//# sourceMappingURL=turn-input.test.js.map