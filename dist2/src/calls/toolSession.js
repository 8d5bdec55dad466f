"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sessionMcp = sessionMcp;
exports.withWorkerHooks = withWorkerHooks;
exports.sessionPermission = sessionPermission;
exports.withTaskDirectory = withTaskDirectory;
exports.withResultDirectory = withResultDirectory;
// What a session's tool calls run with, derived from its settings: the MCP servers a pool lists,
// the hooks (the session's and the worker's), and the permission context (result directory,
// default sandbox, protected control files). Shared by describing, running and the ledger.
const node_fs_1 = require("node:fs");
const config_1 = require("../hooks/config");
const pins_1 = require("../mcp/pins");
const protectedPaths_1 = require("../permissions/protectedPaths");
const host_1 = require("../sandbox/host");
function sessionMcp(session, wanted) {
    if (!session.mcpServers || Object.keys(session.mcpServers).length === 0)
        return undefined;
    return {
        servers: session.mcpServers,
        cwd: session.permission.workingDirectories[0] ?? process.cwd(),
        ...(wanted !== undefined ? { wanted } : {}),
    };
}
/** The session's hooks followed by the worker's own (library users add them programmatically), per event. */
function withWorkerHooks(worker, session) {
    if (!worker)
        return session;
    if (!session)
        return worker;
    const out = { ...session };
    for (const [event, matchers] of Object.entries(worker)) {
        out[event] = [
            ...(session[event] ?? []),
            ...(matchers ?? []),
        ];
    }
    return out;
}
/**
 * The permission context a session's tool calls see: its result directory counts as a working
 * directory (see withResultDirectory), a session whose input says nothing about the sandbox
 * gets the default sandbox settings (`{}`: Bash sandboxed where the platform supports it), and
 * the files its command hooks and its stdio MCP servers run are protected paths (`controlFiles`,
 * from the hooks of the session's settings, resolved against the session's cwd and the project
 * root, and from the servers' command lines, resolved where the worker starts them).
 */
function sessionPermission(permission, store, hooks, cwd, mcpServers) {
    const p = withResultDirectory(permission, store);
    const commands = (0, config_1.hookCommandsOf)(hooks);
    const bases = [...new Set([...(cwd ? [cwd] : []), ...permission.workingDirectories.slice(0, 1)])];
    const controlFiles = [
        ...new Set([
            ...bases.flatMap((b) => (0, protectedPaths_1.hookControlFiles)(commands, b, permission.workingDirectories)),
            // The scripts the session's stdio MCP servers run: the worker starts them (unsandboxed) in the session's first working directory.
            ...(0, protectedPaths_1.mcpServerControlFiles)((0, pins_1.stdioCommands)(mcpServers), permission.workingDirectories[0] ?? cwd ?? process.cwd(), permission.workingDirectories, undefined, node_fs_1.existsSync),
        ]),
    ];
    const withFiles = controlFiles.length > 0 ? { ...p, controlFiles: [...new Set([...(p.controlFiles ?? []), ...controlFiles])] } : p;
    return withFiles.sandbox ? withFiles : { ...withFiles, sandbox: {} };
}
/**
 * The session's background task outputs (Bash `run_in_background`) are files the model is told to
 * Read: their directory on this worker counts as a working directory, as the result directory does.
 */
function withTaskDirectory(permission, sessionId) {
    const dir = (0, host_1.sessionTasksPath)(sessionId);
    return permission.workingDirectories.includes(dir)
        ? permission
        : { ...permission, workingDirectories: [...permission.workingDirectories, dir] };
}
/**
 * Large results are stored outside the working directory and the model is told to Read them:
 * the session's own result directory counts as a working directory, so that Read never asks.
 */
function withResultDirectory(permission, store) {
    const dir = store.dir;
    return typeof dir === 'string' && !permission.workingDirectories.includes(dir)
        ? { ...permission, workingDirectories: [...permission.workingDirectories, dir] }
        : permission;
}
//# sourceMappingURL=toolSession.js.map