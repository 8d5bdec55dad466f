"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.durableAgentHome = durableAgentHome;
exports.defaultDevDb = defaultDevDb;
// The user's data directory: durable-agent's user settings, the local store and the embedded dev
// server's database live here, outside every working directory (and out of sandboxed Bash's reach).
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
/** `$DURABLE_AGENT_HOME`, else `~/.durable-agent`. */
function durableAgentHome(env = process.env) {
    return (0, node_path_1.resolve)(env.DURABLE_AGENT_HOME ?? (0, node_path_1.join)((0, node_os_1.homedir)(), '.durable-agent'));
}
/** The dev server's SQLite file: `$DURABLE_AGENT_DEV_DB`, else `<data home>/temporal.db`. */
function defaultDevDb(env = process.env) {
    return (0, node_path_1.resolve)(env.DURABLE_AGENT_DEV_DB ?? (0, node_path_1.join)(durableAgentHome(env), 'temporal.db'));
}
//# sourceMappingURL=dataHome.js.map