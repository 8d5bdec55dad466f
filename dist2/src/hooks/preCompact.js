"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runPreCompactHooks = runPreCompactHooks;
// PreCompact hooks, in the reference's format: the matcher selects the trigger (`auto`/`manual`);
// what a hook prints on stdout (exit 0) is added to the summary's instructions; exit code 2 or
// `decision: "block"` holds back the compaction (honoured for automatic ones only: a compaction the
// API forced must happen, or the session could not go on).
const config_1 = require("./config");
const run_1 = require("./run");
async function runPreCompactHooks(input, env) {
    const full = { ...input, hook_event_name: 'PreCompact' };
    const matched = (0, config_1.hooksFor)(env.config, 'PreCompact', input.trigger);
    const result = { runs: [], instructions: [], notices: [] };
    if (matched.length === 0)
        return result;
    result.runs = await Promise.all(matched.map((h) => (0, run_1.runOne)(h, 'PreCompact', full, env)));
    for (const run of result.runs) {
        if (run.outcome === 'blocking') {
            result.block ??= {
                reason: run.stderr?.trim() || `PreCompact hook "${run.hook}" exited with code 2`,
                hook: run.hook,
            };
            continue;
        }
        if (run.outcome !== 'success') {
            result.notices.push(`PreCompact hook "${run.hook}" ${run.error ?? run.outcome} (compaction proceeded)`);
            continue;
        }
        const out = run.output ?? (0, run_1.parseHookStdout)(run.stdout ?? '');
        if (out) {
            if (out.decision === 'block')
                result.block ??= { reason: out.reason || `blocked by PreCompact hook "${run.hook}"`, hook: run.hook };
            const extra = out.hookSpecificOutput?.additionalContext;
            if (typeof extra === 'string' && extra.trim())
                result.instructions.push(extra.trim());
            if (typeof out.systemMessage === 'string' && out.systemMessage)
                result.notices.push(`PreCompact hook "${run.hook}": ${out.systemMessage}`);
        }
        else if (run.stdout?.trim()) {
            result.instructions.push(run.stdout.trim());
        }
    }
    return result;
}
//# sourceMappingURL=preCompact.js.map