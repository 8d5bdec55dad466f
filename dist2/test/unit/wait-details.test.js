"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the Temporal UI's current details of a waiting session (engine/waitDetails.ts): the wait's
// line, then a Markdown list item per running task with its id, kind, start, what it runs and its
// output file; ended tasks are not listed.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const waitDetails_1 = require("../../src/engine/waitDetails");
const task = (over) => ({
    id: 'babc12345',
    kind: 'local_bash',
    toolUseId: 'toolu_1',
    description: 'Build',
    command: 'npm run build\n  && echo done',
    startedAt: Date.UTC(2026, 11, 2, 14, 0, 0),
    timeoutMs: 1_800_000,
    outputPath: '/tmp/s/tasks/babc12345.output',
    state: 'running',
    ...over,
});
(0, node_test_1.test)('unit: waitDetails lists each running task under the wait line', () => {
    const text = (0, waitDetails_1.waitDetails)({
        tasks: [
            task({}),
            task({ id: 'bdone0000', state: 'completed', endedAt: Date.UTC(2026, 11, 2, 14, 1, 0) }),
            task({
                id: 'bsrv00000',
                description: 'sleep 900',
                command: 'sleep 900',
                outputPath: undefined,
                stopRequested: true,
            }),
        ],
        crons: [],
    }, Date.UTC(2026, 11, 2, 15, 0, 0), '2 background tasks running');
    strict_1.default.equal(text, [
        'Waiting until 2026-12-02T15:00:00Z — 2 background tasks running',
        '',
        '- task `babc12345` (local_bash) since 2026-12-02T14:00:00Z — Build: `npm run build && echo done` — output `/tmp/s/tasks/babc12345.output`',
        '- task `bsrv00000` (local_bash) since 2026-12-02T14:00:00Z — sleep 900 — stopping',
    ].join('\n'));
    strict_1.default.equal((0, waitDetails_1.waitDetails)(undefined, undefined, 'background work'), 'Waiting — background work');
    // A command with backticks keeps them inside a longer fence.
    strict_1.default.match((0, waitDetails_1.waitDetails)({ tasks: [task({ command: 'echo `date`' })], crons: [] }, undefined, 'x'), /Build: `` echo `date` `` — output/);
});
//# sourceMappingURL=wait-details.test.js.map