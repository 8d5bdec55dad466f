"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: what `status` says of a session's background tasks (src/cli/autonomyText.ts): the command
// while it runs, the state, start/end, exit code, output size and the output file.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const autonomyText_1 = require("../../src/cli/autonomyText");
(0, node_test_1.test)('unit: status lines of a running and an ended background task', () => {
    const startedAt = Date.UTC(2026, 11, 2, 10, 0, 0);
    const lines = (0, autonomyText_1.autonomyLines)({
        autonomy: {
            crons: [],
            tasks: [
                {
                    id: 'babc12345',
                    kind: 'local_bash',
                    toolUseId: 'toolu_1',
                    description: 'Run the build',
                    command: 'npm run build',
                    startedAt,
                    timeoutMs: 60_000,
                    outputPath: '/tmp/s/tasks/babc12345.output',
                    state: 'running',
                },
                {
                    id: 'bdef67890',
                    kind: 'local_bash',
                    toolUseId: 'toolu_2',
                    description: 'false',
                    startedAt,
                    endedAt: startedAt + 5_000,
                    timeoutMs: 60_000,
                    state: 'failed',
                    exitCode: 3,
                    outputBytes: 12,
                },
            ],
        },
    });
    strict_1.default.deepEqual(lines, [
        'task babc12345 [running] Run the build ($ npm run build) — started 2026-12-02T10:00:00Z; output /tmp/s/tasks/babc12345.output',
        'task bdef67890 [failed] false — started 2026-12-02T10:00:00Z, ended 2026-12-02T10:00:05Z, exit 3, 12 B output',
    ]);
});
//# sourceMappingURL=autonomy-text.test.js.map