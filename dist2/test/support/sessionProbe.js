"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.contentTexts = contentTexts;
exports.processesWith = processesWith;
// What integration tests of background work look at: the texts a scripted model request carries
// (text blocks and tool results) and the live processes of a command (Linux /proc).
const node_fs_1 = require("node:fs");
/** The texts of one message's content: its text blocks and its tool_result contents (string or text blocks). */
function contentTexts(content) {
    if (typeof content === 'string')
        return [content];
    return content.flatMap((b) => {
        if (b.type === 'text' && typeof b.text === 'string')
            return [b.text];
        if (b.type === 'tool_result') {
            const c = b.content;
            if (typeof c === 'string')
                return [c];
            if (Array.isArray(c))
                return c.flatMap((x) => (x.type === 'text' ? [x.text ?? ''] : []));
        }
        return [];
    });
}
/** Live processes whose command line contains `needle` (Linux /proc; zombies left out). */
function processesWith(needle) {
    const out = [];
    for (const e of (0, node_fs_1.readdirSync)('/proc').filter((x) => /^\d+$/.test(x))) {
        try {
            const args = (0, node_fs_1.readFileSync)(`/proc/${e}/cmdline`, 'utf8').split('\0').join(' ');
            const state = (0, node_fs_1.readFileSync)(`/proc/${e}/stat`, 'utf8');
            if (state.slice(state.lastIndexOf(')') + 2).startsWith('Z'))
                continue;
            if (args.includes(needle))
                out.push(`${e} ${args}`);
        }
        catch {
            // gone
        }
    }
    return out;
}
//# sourceMappingURL=sessionProbe.js.map