"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createModelActivities = createModelActivities;
// The model and transcript activities: `callModel` runs the core (src/calls/model.ts) with the
// activity's runtime; its ModelCallError becomes an ApplicationFailure at the boundary
// (errors.ts, applied to every activity in index.ts). `appendTranscript` and `loadTranscript` are
// the transcript store's two operations.
const model_1 = require("../calls/model");
const payloads_1 = require("../engine/payloads");
const runtime_1 = require("./runtime");
function createModelActivities(deps) {
    async function callModel(input) {
        return (0, model_1.callModelWith)(deps, input, (0, runtime_1.activityRuntime)());
    }
    /** Appends messages; tool results given by reference are read from the payload store first. */
    async function appendTranscript(input) {
        const messages = await (0, payloads_1.resolveMessages)(input.messages, (ref) => {
            if (!deps.payloads)
                throw new Error('this worker has no payload store to resolve tool result references');
            return deps.payloads.getToolResult(ref);
        });
        return deps.transcripts.append(input.head, messages);
    }
    async function loadTranscript(input) {
        return deps.transcripts.load(input.head);
    }
    return { callModel, appendTranscript, loadTranscript };
}
//# sourceMappingURL=model.js.map