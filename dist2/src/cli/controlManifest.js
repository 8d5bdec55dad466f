"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.dataHome = dataHome;
exports.manifestPath = manifestPath;
exports.runFilesOf = runFilesOf;
exports.controlFilesSinceLastSession = controlFilesSinceLastSession;
exports.recordSessionStart = recordSessionStart;
exports.recordSessionEnd = recordSessionEnd;
exports.changeLines = changeLines;
// The per-directory manifest of control files: `run` hashes the control files of the session's
// working directories when a session starts and when it ends (followed to its end), and keeps the
// hashes in the user's data directory, outside every working directory. The next `run` in that
// directory compares the files with the previous session's start and names every one that changed
// — during that session (what a session wrote for the next one to load) or after it.
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const controlFiles_1 = require("../permissions/controlFiles");
const protectedPaths_1 = require("../permissions/protectedPaths");
const config_1 = require("../hooks/config");
const pins_1 = require("../mcp/pins");
const controlWrites_1 = require("../permissions/controlWrites");
/** The user's data directory (env DURABLE_AGENT_HOME, default ~/.durable-agent): the same base as the store's default. */
function dataHome(env = process.env) {
    return (0, node_path_1.resolve)(env.DURABLE_AGENT_HOME ?? (0, node_path_1.join)((0, node_os_1.homedir)(), '.durable-agent'));
}
function manifestPath(cwd, home = dataHome()) {
    const key = (0, node_crypto_1.createHash)('sha256').update((0, node_path_1.resolve)(cwd)).digest('hex').slice(0, 32);
    return (0, node_path_1.join)(home, 'control-manifests', `${key}.json`);
}
const record = (s) => Object.fromEntries([...s.entries].sort(([a], [b]) => (a < b ? -1 : 1)));
async function readManifest(cwd, home) {
    let text;
    try {
        text = await node_fs_1.promises.readFile(manifestPath(cwd, home), 'utf8');
    }
    catch {
        return undefined;
    }
    try {
        const m = JSON.parse(text);
        return m && m.version === 1 && m.last && typeof m.last.start === 'object' ? m : undefined;
    }
    catch {
        return undefined; // a damaged manifest is replaced by the next start
    }
}
async function writeManifest(cwd, home, m) {
    const path = manifestPath(cwd, home);
    await node_fs_1.promises.mkdir((0, node_path_1.join)(home, 'control-manifests'), { recursive: true, mode: 0o700 });
    const tmp = `${path}.${(0, node_crypto_1.randomUUID)()}.tmp`;
    await node_fs_1.promises.writeFile(tmp, `${JSON.stringify(m, null, 1)}\n`, { mode: 0o600 });
    await node_fs_1.promises.rename(tmp, path);
}
/**
 * The files the session's hooks and stdio MCP servers run (protectedPaths hookControlFiles,
 * mcpServerControlFiles): control files of the manifest too, so that a script rewritten by one
 * session is named before the next one runs it. A package runner's local copy counts even when
 * absent: one planted by a session is named as created.
 */
function runFilesOf(cwd, dirs, hooks, servers) {
    const all = [(0, node_path_1.resolve)(cwd), ...dirs.map((d) => (0, node_path_1.resolve)(d))];
    return [
        ...new Set([
            ...(0, protectedPaths_1.hookControlFiles)((0, config_1.hookCommandsOf)(hooks), cwd, all),
            ...(0, protectedPaths_1.mcpServerControlFiles)((0, pins_1.stdioCommands)(servers), cwd, all, undefined, () => true),
        ]),
    ];
}
/** Which control files of `dirs` (cwd first) changed since the previous session in `cwd` started. `runFiles`: runFilesOf. */
async function controlFilesSinceLastSession(cwd, dirs, home = dataHome(), runFiles = []) {
    const previous = (await readManifest(cwd, home))?.last;
    // The previous session's run files are compared too (a server dropped from .mcp.json still had its script rewritten);
    // only this session's are recorded. A run file the previous session did not watch has no "before".
    const before = new Set(previous?.runFiles ?? []);
    const current = new Set(runFiles.map((f) => (0, node_path_1.resolve)(f)));
    const all = await (0, controlWrites_1.hashControlFiles)((0, controlFiles_1.controlPathSet)([cwd, ...dirs], [...current, ...before]));
    const notWatchedNow = [...before].filter((f) => !current.has(f));
    const now = {
        entries: new Map([...all.entries].filter(([p]) => !notWatchedNow.includes(p))),
        truncated: all.truncated,
        ...(current.size > 0 ? { runFiles: [...current] } : {}),
    };
    if (!previous)
        return { now, changes: [] };
    const paths = [...new Set([...Object.keys(previous.start), ...all.entries.keys()])].sort();
    const changes = [];
    for (const path of paths) {
        const was = previous.start[path];
        const is = all.entries.get(path);
        if (was === is || (was === 'dir' && is === 'dir'))
            continue;
        if (was === undefined && current.has(path) && !before.has(path))
            continue; // newly watched, not new
        const change = was === undefined ? 'created' : is === undefined ? 'deleted' : 'modified';
        const when = !previous.end ? 'unknown' : previous.end[path] !== was ? 'during' : 'after';
        changes.push({ path, change, when });
    }
    // A directory that came or went with its entries is named by its entries.
    const named = changes.filter((c) => !((previous.start[c.path] ?? now.entries.get(c.path)) === 'dir' &&
        changes.some((o) => o !== c && o.path.startsWith(`${c.path}/`))));
    return { previous, changes: named, now };
}
/** The manifest entry of a session that starts now, with the snapshot taken just before it started. */
async function recordSessionStart(cwd, session, now, home = dataHome(), at = new Date()) {
    await writeManifest(cwd, home, {
        version: 1,
        dir: (0, node_path_1.resolve)(cwd),
        last: {
            session,
            startedAt: at.toISOString(),
            start: record(now),
            ...(now.runFiles ? { runFiles: now.runFiles } : {}),
        },
    });
}
/** The end of a session: its control files now (kept only while it is still the last session there). */
async function recordSessionEnd(cwd, dirs, session, home = dataHome(), at = new Date(), runFiles = []) {
    const m = await readManifest(cwd, home);
    if (!m || m.last.session !== session)
        return;
    const end = await (0, controlWrites_1.hashControlFiles)((0, controlFiles_1.controlPathSet)([cwd, ...dirs], runFiles));
    await writeManifest(cwd, home, { ...m, last: { ...m.last, endedAt: at.toISOString(), end: record(end) } });
}
/** One line per change, as `run` prints them. */
function changeLines(since, cwd) {
    const p = since.previous;
    if (!p)
        return [];
    const when = p.startedAt.slice(0, 16).replace('T', ' ');
    const rel = (path) => (path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path);
    const how = {
        during: 'during that session',
        after: 'after that session ended',
        unknown: 'while that session ran or after it (it was not followed to its end)',
    };
    return since.changes.map((c) => `⚠ ${rel(c.path)} ${c.change === 'modified' ? 'changed' : c.change} since the last session here (${when} UTC, session ${p.session}): ${how[c.when]}`);
}
//# sourceMappingURL=controlManifest.js.map