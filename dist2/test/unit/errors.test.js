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
// unit: the library's errors carry a code (DurableAgentError), so callers branch on `code`, not on
// `.name` strings; a Temporal failure whose type is a code reads back as that code.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const common_1 = require("@temporalio/common");
const errors_1 = require("../../src/engine/errors");
const client_1 = require("../../src/client");
const connection_1 = require("../../src/temporal/connection");
const cli_1 = require("../../src/temporal/cli");
const manager_1 = require("../../src/mcp/manager");
const main_1 = require("../../src/cli/main");
(0, node_test_1.test)('unit: every library error is a DurableAgentError with its code', () => {
    const cases = [
        [new client_1.SessionNotFoundError('s1'), 'NOT_FOUND'],
        [new client_1.SessionEndedError('s1', 'completed'), 'SESSION_ENDED'],
        [new client_1.ApprovalRejectedError('no pending approval'), 'NOT_PENDING'],
        [new connection_1.TemporalUnavailableError('localhost:1', 'connection refused'), 'SERVER_UNREACHABLE'],
        [new cli_1.TemporalCliNotFoundError(['PATH']), 'CLI_NOT_FOUND'],
        [new client_1.SandboxUnavailableError('no bwrap'), 'SANDBOX_UNAVAILABLE'],
        [new manager_1.McpUnavailableError('gone'), 'MCP_UNAVAILABLE'],
    ];
    for (const [err, code] of cases) {
        strict_1.default.ok(err instanceof errors_1.DurableAgentError, err.name);
        strict_1.default.equal(err.code, code);
        strict_1.default.equal((0, errors_1.errorCodeOf)(err), code);
        strict_1.default.equal(err.name, err.constructor.name);
    }
});
(0, node_test_1.test)('unit: a Temporal failure typed with a code reads back as that code; others have none', () => {
    strict_1.default.equal((0, errors_1.errorCodeOf)(common_1.ApplicationFailure.nonRetryable('no pending approval x', 'NOT_PENDING')), 'NOT_PENDING');
    strict_1.default.equal((0, errors_1.errorCodeOf)(common_1.ApplicationFailure.nonRetryable('boom', 'ModelHttp401')), undefined);
    strict_1.default.equal((0, errors_1.errorCodeOf)(new Error('plain')), undefined);
    strict_1.default.equal((0, errors_1.errorCodeOf)(undefined), undefined);
});
(0, node_test_1.test)('unit: the CLI prints a coded error in one line, the whole message where it is made for the terminal', () => {
    strict_1.default.equal((0, main_1.describeError)(new client_1.SessionNotFoundError('abc')), 'No session with id abc. List sessions with `durable-agent ls`.');
    strict_1.default.equal((0, main_1.describeError)(new cli_1.TemporalCliNotFoundError(['PATH'])), 'Could not find or build the Temporal CLI (`temporal`). Tried:');
});
(0, node_test_1.test)('unit: a DurableAgentError thrown by an activity fails it with its code as the failure type', async () => {
    const { withErrorCodes } = await Promise.resolve().then(() => __importStar(require('../../src/activities/errors')));
    const act = withErrorCodes(async (what) => {
        if (what === 'mcp')
            throw new manager_1.McpUnavailableError('MCP server x is gone');
        if (what === 'plain')
            throw new Error('disk full');
        return 'ok';
    });
    strict_1.default.equal(await act('fine'), 'ok');
    await strict_1.default.rejects(act('mcp'), (e) => e instanceof common_1.ApplicationFailure &&
        e.type === 'MCP_UNAVAILABLE' &&
        e.message === 'MCP server x is gone' &&
        (0, errors_1.errorCodeOf)(e) === 'MCP_UNAVAILABLE');
    await strict_1.default.rejects(act('plain'), (e) => !(e instanceof common_1.ApplicationFailure) && e.message === 'disk full');
});
(0, node_test_1.test)('unit: the model core throws a ModelCallError, and the activity boundary keeps its type, retryability and details', async () => {
    const Anthropic = (await Promise.resolve().then(() => __importStar(require('@anthropic-ai/sdk')))).default;
    const { classifyModelError, ModelCallError } = await Promise.resolve().then(() => __importStar(require('../../src/calls/model')));
    const { toApplicationFailure } = await Promise.resolve().then(() => __importStar(require('../../src/activities/errors')));
    const overloaded = classifyModelError(new Anthropic.APIError(529, { type: 'overloaded_error' }, 'Overloaded', new Headers({ 'retry-after': '7' })));
    strict_1.default.ok(overloaded instanceof ModelCallError && !(overloaded instanceof common_1.ApplicationFailure));
    strict_1.default.equal(overloaded.retryable, true);
    strict_1.default.equal(overloaded.code, 'MODEL_UNAVAILABLE');
    strict_1.default.deepEqual(overloaded.transient, { kind: 'overloaded', message: overloaded.message, retryAfterMs: 7000 });
    const f = toApplicationFailure(overloaded);
    strict_1.default.ok(f instanceof common_1.ApplicationFailure);
    strict_1.default.equal(f.type, 'ModelHttp529');
    strict_1.default.equal(f.nonRetryable, false);
    strict_1.default.deepEqual(f.details, [overloaded.transient]);
    strict_1.default.equal(f.nextRetryDelay, 7000);
    const denied = classifyModelError(new Anthropic.APIError(401, { type: 'authentication_error' }, 'bad key', undefined));
    strict_1.default.ok(denied instanceof ModelCallError);
    strict_1.default.equal(denied.code, 'MODEL_FAILED');
    const g = toApplicationFailure(denied);
    strict_1.default.equal(g.type, 'ModelHttp401');
    strict_1.default.equal(g.nonRetryable, true);
    strict_1.default.equal(g.details, undefined);
    const lost = toApplicationFailure(classifyModelError(new Error('socket hang up')));
    strict_1.default.equal(lost.type, 'ModelError');
    strict_1.default.equal(lost.nonRetryable, false);
    strict_1.default.deepEqual(lost.details, [{ kind: 'other', message: 'model call failed: socket hang up' }]);
});
(0, node_test_1.test)('unit: a missing memory blob is a MEMORY_MISSING DurableAgentError, non-retryable at the activity boundary', async () => {
    const { withErrorCodes } = await Promise.resolve().then(() => __importStar(require('../../src/activities/errors')));
    const { loadMemoryText } = await Promise.resolve().then(() => __importStar(require('../../src/memory/blobs')));
    const { LocalBlobStore } = await Promise.resolve().then(() => __importStar(require('../../src/stores/messageStore')));
    const { mkdtemp } = await Promise.resolve().then(() => __importStar(require('node:fs/promises')));
    const { tmpdir } = await Promise.resolve().then(() => __importStar(require('node:os')));
    const { join } = await Promise.resolve().then(() => __importStar(require('node:path')));
    const blobs = new LocalBlobStore(await mkdtemp(join(tmpdir(), 'da-err-')));
    const ref = { ref: `memory-${'0'.repeat(64)}`, sha256: '0'.repeat(64), chars: 10 };
    await strict_1.default.rejects(loadMemoryText(blobs, ref), (e) => e instanceof errors_1.DurableAgentError && e.code === 'MEMORY_MISSING');
    await strict_1.default.rejects(withErrorCodes(() => loadMemoryText(blobs, ref))(), (e) => e instanceof common_1.ApplicationFailure && e.type === 'MEMORY_MISSING' && e.nonRetryable);
    // Other codes stay retryable, as before.
    await strict_1.default.rejects(withErrorCodes(async () => {
        throw new manager_1.McpUnavailableError('gone');
    })(), (e) => e instanceof common_1.ApplicationFailure && e.type === 'MCP_UNAVAILABLE' && !e.nonRetryable);
});
//# sourceMappingURL=errors.test.js.map