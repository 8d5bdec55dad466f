"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TAG_ENV = void 0;
exports.newTag = newTag;
exports.taggedProcesses = taggedProcesses;
exports.waitUntilNoneTagged = waitUntilNoneTagged;
exports.countByName = countByName;
exports.describe = describe;
exports.killAll = killAll;
// Processes a test left behind, found by a tag in their environment: the test starts its worker
// (or child) with `<TAG_ENV>=<unique value>`, every process below it inherits the variable —
// bwrap passes it into the sandbox too — whatever marker the product itself sets or forgets.
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
exports.TAG_ENV = 'DURABLE_AGENT_TEST_TAG';
function newTag() {
    return (0, node_crypto_1.randomUUID)();
}
/** Live processes (not zombies) whose environment holds `TAG_ENV=tag`. Empty where /proc is missing. */
function taggedProcesses(tag) {
    let entries;
    try {
        entries = (0, node_fs_1.readdirSync)('/proc').filter((e) => /^\d+$/.test(e) && Number(e) !== process.pid);
    }
    catch {
        return [];
    }
    const needle = `\0${exports.TAG_ENV}=${tag}\0`;
    const out = [];
    for (const e of entries) {
        try {
            const env = `\0${(0, node_fs_1.readFileSync)(`/proc/${e}/environ`, 'latin1')}`;
            if (!env.includes(needle))
                continue;
            const stat = (0, node_fs_1.readFileSync)(`/proc/${e}/stat`, 'utf8');
            const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
            if (rest[0] === 'Z')
                continue; // a zombie waits for its parent's wait(), it holds nothing
            const comm = (0, node_fs_1.readFileSync)(`/proc/${e}/comm`, 'utf8').trim();
            const args = (0, node_fs_1.readFileSync)(`/proc/${e}/cmdline`, 'utf8').split('\0').join(' ').trim();
            out.push({ pid: Number(e), ppid: Number(rest[1]), comm, args });
        }
        catch {
            // gone, or not ours to read
        }
    }
    return out;
}
/** Polls until no tagged process is left, or `timeoutMs` passed; returns what is left. */
async function waitUntilNoneTagged(tag, timeoutMs, filter = () => true) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        const left = taggedProcesses(tag).filter(filter);
        if (left.length === 0 || Date.now() >= deadline)
            return left;
        await new Promise((r) => setTimeout(r, 200));
    }
}
/** `bwrap 2, socat 3` */
function countByName(ps) {
    const counts = new Map();
    for (const p of ps)
        counts.set(p.comm, (counts.get(p.comm) ?? 0) + 1);
    return [...counts].map(([c, n]) => `${c} ${n}`).join(', ');
}
function describe(ps) {
    return ps.map((p) => `${p.pid} (ppid ${p.ppid}) ${p.args.slice(0, 160)}`).join('\n');
}
/** SIGKILLs them (a test's own leftovers, after it reported them). */
function killAll(ps) {
    for (const p of ps) {
        try {
            process.kill(p.pid, 'SIGKILL');
        }
        catch {
            // gone
        }
    }
}
//# sourceMappingURL=leftovers.js.map