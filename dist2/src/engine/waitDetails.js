"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.waitDetails = waitDetails;
const utc = (ms) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
const oneLine = (s, max) => {
    const flat = s.replace(/\s+/g, ' ').trim();
    return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
/** An inline code span that holds any text (a fence longer than any run of backticks in it). */
function code(s) {
    const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((r) => r.length));
    const fence = '`'.repeat(longest + 1);
    return s.startsWith('`') || s.endsWith('`') ? `${fence} ${s} ${fence}` : `${fence}${s}${fence}`;
}
function waitDetails(a, until, reason) {
    const lines = [`Waiting${until !== undefined ? ` until ${utc(until)}` : ''} — ${reason}`];
    const running = (a?.tasks ?? []).filter((t) => t.state === 'running');
    if (running.length > 0)
        lines.push('');
    for (const t of running) {
        const command = t.command && t.command !== t.description ? `: ${code(oneLine(t.command, 120))}` : '';
        lines.push(`- task ${code(t.id)} (${t.kind}) since ${utc(t.startedAt)} — ${oneLine(t.description, 120)}${command}${t.stopRequested ? ' — stopping' : ''}${t.outputPath ? ` — output ${code(t.outputPath)}` : ''}`);
    }
    return lines.join('\n');
}
//# sourceMappingURL=waitDetails.js.map