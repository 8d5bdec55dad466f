"use strict";
// Test conveniences over the fake Anthropic Messages API in src/testing/fakeAnthropic (which holds the server itself).
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
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.fakeClient = fakeClient;
exports.withFakeAnthropic = withFakeAnthropic;
exports.readSseFixture = readSseFixture;
const node_fs_1 = require("node:fs");
const node_path_1 = __importDefault(require("node:path"));
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
__exportStar(require("../../src/testing/fakeAnthropic"), exports);
/** A real SDK client pointed at the fake server; no retries unless asked. */
function fakeClient(server, opts = {}) {
    return new sdk_1.default({
        apiKey: opts.apiKey ?? 'test-key',
        baseURL: server.baseURL,
        maxRetries: opts.maxRetries ?? 0,
        ...(opts.timeout === undefined ? {} : { timeout: opts.timeout }),
    });
}
/** Start a server, run `fn`, always close it. */
async function withFakeAnthropic(opts, fn) {
    const server = await (0, fakeAnthropic_1.startFakeAnthropic)(opts);
    try {
        return await fn(server);
    }
    finally {
        await server.close();
    }
}
// Fixtures are not copied by tsc, so find them from the source tree whether we run from test/ or dist/test/.
function fixturesDir() {
    for (let dir = __dirname;; dir = node_path_1.default.dirname(dir)) {
        const candidate = node_path_1.default.join(dir, 'test', 'fixtures', 'sse');
        if ((0, node_fs_1.existsSync)(candidate))
            return candidate;
        if (node_path_1.default.dirname(dir) === dir)
            throw new Error(`test/fixtures/sse not found above ${__dirname}`);
    }
}
/** The text of `test/fixtures/sse/<name>` (a recorded-format SSE body). */
function readSseFixture(name) {
    return (0, node_fs_1.readFileSync)(node_path_1.default.join(fixturesDir(), name), 'utf8');
}
//# sourceMappingURL=fakeAnthropic.js.map