"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createCompactActivities = createCompactActivities;
// The compaction activity (`compact-<n>`): the core (src/calls/compact.ts) with the activity's runtime.
const compact_1 = require("../calls/compact");
const runtime_1 = require("./runtime");
function createCompactActivities(deps) {
    async function compactContext(input) {
        return (0, compact_1.compactContextWith)(deps, input, (0, runtime_1.activityRuntime)());
    }
    return { compactContext };
}
//# sourceMappingURL=compact.js.map