"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.waitFor = waitFor;
// Waiting on a condition instead of sleeping: polls `fn` until it returns something truthy.
async function waitFor(what, fn, timeoutMs = 30_000, everyMs = 100) {
    const deadline = Date.now() + timeoutMs;
    let last;
    while (Date.now() < deadline) {
        try {
            const v = await fn();
            if (v)
                return v;
        }
        catch (err) {
            last = err;
        }
        await new Promise((r) => setTimeout(r, everyMs));
    }
    throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
//# sourceMappingURL=wait.js.map