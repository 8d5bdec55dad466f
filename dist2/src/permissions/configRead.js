"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readConfigFileSync = readConfigFileSync;
// Reading a configuration file the way the loaders must (settings, `.mcp.json`, agent definitions,
// `~/.claude.json`): they run in the client, outside the sandbox, and what they read configures
// the session or goes to the model (an agent file's body is a system prompt). So the file is read
// through a descriptor bound to its real path (src/tools/safeFs.ts), and refused — never read, so
// no message can quote it — when that real path is
//  - a credential file (the sandbox's read-deny list: `~/.ssh`, `~/.aws`, …) reached through a
//    link (`~/.claude.json`, on the list, is read as itself; `.claude/agents/x.md -> ~/.ssh/id_rsa`
//    and `~/.claude.json -> ~/.ssh/id_rsa` are refused), or
//  - for a project's file, outside the directory it configures (`within`): a symlink out of the
//    project, of the file or of a directory on its way (`.claude -> /elsewhere`), is not followed.
// The reference (Claude Code 2.1.328) follows such links (it loads an agent file linked from
// outside and sends its body, and starts the servers of a linked `.mcp.json`); this is a
// deliberate difference (docs/settings.md).
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const credentials_1 = require("./credentials");
const safeFs_1 = require("../tools/safeFs");
const paths_1 = require("./paths");
function realOrSelf(p) {
    try {
        return node_fs_1.realpathSync.native(p);
    }
    catch {
        return p;
    }
}
/** Reads one configuration file (see the header); throws only for what a plain read would (EISDIR, EACCES…). */
function readConfigFileSync(path, opts = {}) {
    const abs = (0, node_path_1.resolve)(path);
    const home = opts.home ?? (0, node_os_1.homedir)();
    let refusal;
    try {
        const { buf } = (0, safeFs_1.readFileBoundSync)(abs, (real) => {
            // `~/.claude.json` itself is on the list and is read; a link from it to another one is not followed.
            if ((0, credentials_1.isCredentialPath)(real, home) &&
                (!(0, credentials_1.isCredentialPath)(abs, home) || real !== (0, node_path_1.join)(realOrSelf((0, node_path_1.dirname)(abs)), (0, node_path_1.basename)(abs))))
                refusal = `it resolves to ${real}, a credential file`;
            else if (opts.within && !(0, paths_1.insideWorkingDirs)([real], opts.within)) {
                refusal = `it resolves to ${real}, outside ${opts.within.join(', ')} (a project's configuration must lie inside the project: a symlink out of it is not followed)`;
            }
            return refusal;
        });
        return { text: buf.toString('utf8') };
    }
    catch (err) {
        if ((0, safeFs_1.isAccessRefused)(err))
            return { refused: refusal ?? err.message };
        const code = err.code;
        if (code === 'ENOENT' || code === 'ENOTDIR')
            return { missing: true };
        throw err;
    }
}
//# sourceMappingURL=configRead.js.map