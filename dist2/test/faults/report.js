"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.printReport = printReport;
const workerKills_1 = require("./workerKills");
function printReport(size, results, extra) {
    const all = results.flatMap((r) => r.sessions);
    const kills = results.flatMap((r) => r.kills ?? []);
    const sum = (f) => all.reduce((n, s) => n + (s.check ? f(s.check) : 0), 0);
    const violations = [];
    const lines = [];
    lines.push('', `=== test:faults (${size}) — ${extra.seconds.toFixed(0)} s`);
    for (const r of results) {
        const done = r.sessions.filter((s) => s.result && !s.failure).length;
        lines.push(`--- ${r.title}: sessions completed ${done} / started ${r.sessions.length}`);
        if (r.kills) {
            const byPhase = (0, workerKills_1.killsByPhase)(r.kills);
            lines.push(`    kills performed: ${r.kills.length} (by phase: ${Object.entries(byPhase)
                .map(([p, n]) => `${p} ${n}`)
                .join(', ')}); continue-as-new seen: ${r.continuesAsNew ?? 0}`);
        }
        if (r.serverRestarts !== undefined)
            lines.push(`    server restarts: ${r.serverRestarts}`);
        if (r.approvals !== undefined)
            lines.push(`    approvals answered: ${r.approvals}`);
        const calls = r.sessions.flatMap((s) => s.check?.calls ?? []);
        if (calls.length > 0) {
            const c = (f) => r.sessions.reduce((n, s) => n + (s.check ? f(s.check) : 0), 0);
            lines.push(`    ledger calls checked: ${calls.length}; completed ${c((x) => x.completed)}, duplicated effects of completed calls ${c((x) => x.duplicated)}, ` +
                `unknown outcomes reported ${c((x) => x.unknownOutcomes)}, re-runs of idempotent calls ${c((x) => x.idempotentReruns)}`);
        }
        for (const n of r.notes)
            lines.push(`    ${n}`);
        for (const v of r.violations)
            violations.push(`[${r.name}] ${v}`);
        for (const s of r.sessions) {
            if (s.failure)
                violations.push(`[${r.name}] ${s.name} (${s.id}): ${s.failure}`);
            for (const v of s.check?.violations ?? [])
                violations.push(`[${r.name}] ${s.name}: ${v}`);
        }
    }
    for (const u of extra.fake.unexpected) {
        // Requests of no fault session (none expected) and requests the fake refused as invalid.
        violations.push(`[model] the fake Messages API saw ${u.kind}: ${u.message.slice(0, 300)}`);
    }
    if (extra.leftovers !== undefined && extra.leftovers !== 'none') {
        violations.push(`[processes] left by the workers (killed or stopped) after the run: ${extra.leftovers}`);
    }
    const completed = all.filter((s) => s.result && !s.failure).length;
    lines.push('=== totals');
    lines.push(`kills performed: ${kills.length} (${Object.entries((0, workerKills_1.killsByPhase)(kills))
        .map(([p, n]) => `${p} ${n}`)
        .join(', ')})`);
    lines.push(`server restarts: ${extra.serverRestarts}`);
    lines.push(`sessions completed / started: ${completed} / ${all.length}`);
    lines.push(`duplicated effects of completed calls: ${sum((c) => c.duplicated)}`);
    lines.push(`unknown outcomes reported: ${sum((c) => c.unknownOutcomes)}`);
    lines.push(`re-runs of idempotent calls: ${sum((c) => c.idempotentReruns)}`);
    if (extra.leftovers !== undefined)
        lines.push(`processes left by the workers (bwrap, socat, bash, …): ${extra.leftovers}`);
    lines.push(`invariant violations: ${violations.length}`);
    for (const v of violations.slice(0, 50))
        lines.push(`  ✗ ${v}`);
    if (violations.length > 50)
        lines.push(`  … and ${violations.length - 50} more`);
    lines.push(violations.length === 0 ? 'test:faults: PASS' : 'test:faults: FAIL');
    console.log(lines.join('\n'));
    return violations.length === 0;
}
//# sourceMappingURL=report.js.map