"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.claudeJsonPath = claudeJsonPath;
exports.claudeJsonProjectKey = claudeJsonProjectKey;
exports.readClaudeJsonServers = readClaudeJsonServers;
// The reference's own state file, `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json` when that is
// set): where `claude mcp add` keeps user-scope servers (top-level `mcpServers`) and local-scope
// servers (`projects[<project>].mcpServers`, the project being the git root of the working
// directory, else the directory). Only those two keys are read; the rest of the file (history,
// onboarding state, caches) is the reference's business and is left alone.
const node_fs_1 = require("node:fs");
const configRead_1 = require("../permissions/configRead");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const config_1 = require("./config");
const jsonPosition_1 = require("../engine/jsonPosition");
/** Where the reference keeps `.claude.json`. */
function claudeJsonPath(env = process.env) {
    const dir = env.CLAUDE_CONFIG_DIR ? (0, node_path_1.resolve)(env.CLAUDE_CONFIG_DIR) : (0, node_os_1.homedir)();
    return (0, node_path_1.join)(dir, '.claude.json');
}
/** The key of a project in `.claude.json`: the git root holding `cwd`, else `cwd` itself. */
function claudeJsonProjectKey(cwd) {
    let dir = (0, node_path_1.resolve)(cwd);
    for (;;) {
        if ((0, node_fs_1.existsSync)((0, node_path_1.join)(dir, '.git')))
            return dir.normalize('NFC');
        const up = (0, node_path_1.dirname)(dir);
        if (up === dir)
            return (0, node_path_1.resolve)(cwd).normalize('NFC');
        dir = up;
    }
}
/**
 * The user- and local-scope servers of `.claude.json` (undefined when the file is absent). A file
 * that is not JSON, or a malformed server, is an McpConfigError naming the file and the key.
 */
function readClaudeJsonServers(path, cwd) {
    if (!(0, node_fs_1.existsSync)(path) || !(0, node_fs_1.statSync)(path).isFile())
        return undefined;
    // The user's own file, read as itself; a link from it to another credential file is not followed (src/permissions/configRead.ts).
    const read = (0, configRead_1.readConfigFileSync)(path);
    if ('missing' in read)
        return undefined;
    if ('refused' in read)
        throw new config_1.McpConfigError(`${path}: not read: ${read.refused}`);
    const parsed = (0, jsonPosition_1.parseConfigJson)(path, read.text, (m) => new config_1.McpConfigError(m));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        throw new config_1.McpConfigError(`${path} must hold a JSON object`);
    const top = parsed;
    const user = top.mcpServers === undefined ? {} : (0, config_1.parseMcpServers)(top.mcpServers, path);
    const key = claudeJsonProjectKey(cwd);
    const projects = top.projects && typeof top.projects === 'object' && !Array.isArray(top.projects)
        ? top.projects
        : {};
    const project = projects[key];
    const local = project && typeof project === 'object' && project.mcpServers !== undefined
        ? (0, config_1.parseMcpServers)(project.mcpServers, path, `projects["${key}"].mcpServers`)
        : {};
    return { path, user, local };
}
//# sourceMappingURL=claudeJson.js.map