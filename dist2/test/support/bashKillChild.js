"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const node_fs_1 = require("node:fs");
const bash_1 = require("../../src/tools/builtin/bash");
const host_1 = require("../../src/sandbox/host");
const [cwd, command, when] = process.argv.slice(2);
const die = () => {
    process.kill(process.pid, 'SIGKILL');
};
if (when.startsWith('spawn+')) {
    const ms = Number(when.slice('spawn+'.length));
    // The module object itself (bash.ts calls child_process.spawn through it), not an import copy.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const cp = require('node:child_process');
    const original = cp.spawn;
    cp.spawn = function (...args) {
        const child = original.apply(this, args);
        const argv = args[1];
        // The call's own `bash -c` (not the sandbox probe's, not the guardian's).
        if (args[0] === 'bash' && argv?.[1]?.includes(command)) {
            if (ms === 0)
                die();
            setTimeout(die, ms);
        }
        return child;
    };
}
else if (when.startsWith('file:')) {
    const file = when.slice('file:'.length);
    const timer = setInterval(() => {
        if ((0, node_fs_1.existsSync)(file))
            die();
    }, 20);
    timer.unref();
}
const sandbox = process.env.SANDBOX === '1' ? { network: { allowedDomains: ['example.com'] } } : undefined;
bash_1.BashTool.call({ command }, {
    sessionId: `reaper-test-${process.pid}`,
    toolUseId: 'toolu_reaper',
    idempotencyKey: 'k',
    agent: { cwd, additionalDirectories: [], readFiles: {} },
    permission: {
        mode: 'bypassPermissions',
        rules: { allow: [], ask: [], deny: [] },
        workingDirectories: [cwd],
        ...(sandbox ? { sandbox } : {}),
    },
    abortSignal: new AbortController().signal,
    sandboxHost: new host_1.SandboxHost(),
}, () => undefined).then((r) => {
    console.log(`finished ${JSON.stringify(r.data.exitCode)}`);
    process.exit(0);
}, (err) => {
    console.error(String(err));
    process.exit(1);
});
//# sourceMappingURL=bashKillChild.js.map