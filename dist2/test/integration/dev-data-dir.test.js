"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: `durable-agent dev` keeps the Temporal server's database, its pid file and the store
// in the user's data directory (~/.durable-agent), not in the directory it was started from; an
// older ./.durable-agent/temporal.db is named in one line; and a session's sandboxed Bash can
// neither read nor overwrite any of it. Real CLI processes, a fake HOME, the real sandbox; the
// oracle is what the command wrote into the working directory and the files on disk.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const devServer_1 = require("../../src/temporal/devServer");
const host_1 = require("../../src/sandbox/host");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const systemPackages_1 = require("../support/systemPackages");
const cli_1 = require("../support/cli");
const MAIN = (0, node_path_1.join)(__dirname, '..', '..', 'src', 'cli', 'main.js');
function startDev(args, cwd, env) {
    return new Promise((resolve, reject) => {
        const child = (0, node_child_process_1.spawn)(process.execPath, [MAIN, 'dev', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        const timer = setTimeout(() => reject(new Error(`dev did not get ready: ${out}`)), 90_000);
        const onData = (d) => {
            out += d.toString();
            if (out.includes('ready.')) {
                clearTimeout(timer);
                resolve({ child, out: () => out });
            }
        };
        child.stdout?.on('data', onData);
        child.stderr?.on('data', onData);
        child.on('exit', (code) => reject(new Error(`dev exited (${code}): ${out}`)));
    });
}
async function stop(child) {
    if (child.exitCode !== null)
        return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
}
(0, node_test_1.test)('integration: dev keeps its database and store in ~/.durable-agent, names an older ./.durable-agent/temporal.db, and sandboxed Bash reaches none of it', { timeout: 240_000 }, async (t) => {
    const a = await new host_1.SandboxHost().availability();
    await new host_1.SandboxHost().close();
    if (!a.available) {
        if ((0, systemPackages_1.isCI)())
            throw new Error(`the sandbox must be available in CI: ${a.reason}`);
        (0, systemPackages_1.reportSkip)(`the dev data directory test (sandbox unavailable: ${a.reason})`);
        return t.skip(a.reason);
    }
    const root = (0, node_fs_1.realpathSync)((0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-devhome-')));
    const home = (0, node_path_1.join)(root, 'home');
    const project = (0, node_path_1.join)(root, 'project');
    (0, node_fs_1.mkdirSync)((0, node_path_1.join)(project, '.durable-agent'), { recursive: true });
    (0, node_fs_1.mkdirSync)(home);
    const legacy = (0, node_path_1.join)(project, '.durable-agent', 'temporal.db');
    (0, node_fs_1.writeFileSync)(legacy, 'LEGACY-DB\n');
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    const port = await (0, devServer_1.freePort)();
    const env = {
        ...process.env,
        HOME: home,
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: fake.baseURL,
        TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
    };
    for (const k of [
        'DURABLE_AGENT_HOME',
        'DURABLE_AGENT_STORE_DIR',
        'DURABLE_AGENT_STORE',
        'DURABLE_AGENT_DEV_DB',
        'DURABLE_AGENT_TASK_QUEUE',
        'CLAUDE_CONFIG_DIR',
    ])
        delete env[k];
    const dataHome = (0, node_path_1.join)(home, '.durable-agent');
    const db = (0, node_path_1.join)(dataHome, 'temporal.db');
    const dev = await startDev(['--port', String(port), '--ui-port', String(await (0, devServer_1.freePort)())], project, env);
    try {
        strict_1.default.ok(dev.out().includes(`persisted to ${db})`), dev.out());
        const notes = dev
            .out()
            .split('\n')
            .filter((l) => l.includes(legacy));
        strict_1.default.equal(notes.length, 1, dev.out());
        strict_1.default.match(notes[0], new RegExp(`database is now ${db.replace(/[.]/g, '\\.')}; an older one is at .*keep using it with --db `));
        strict_1.default.equal((0, node_fs_1.readFileSync)(legacy, 'utf8'), 'LEGACY-DB\n', 'the old database is left where it was');
        strict_1.default.ok((0, node_fs_1.existsSync)(db) && (0, node_fs_1.existsSync)(`${db}.server.pid`));
        const probe = `{ ls -la ~/.durable-agent; head -c 64 ~/.durable-agent/temporal.db; ls -R ~/.durable-agent/store; grep -r . ~/.durable-agent/store; } > probe.txt 2>&1; ` +
            `printf x > ~/.durable-agent/temporal.db; rm -f ~/.durable-agent/temporal.db.server.pid; mkdir -p ~/.durable-agent/store/planted; echo done >> probe.txt`;
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_probe', name: 'Bash', input: { command: probe } }]), (0, fakeAnthropic_1.textResponse)('done'));
        const r = await (0, cli_1.cli)(['run', '--cwd', project, '--permission-mode', 'dontAsk', '--model', 'claude-test', 'look around'], env, 120_000);
        strict_1.default.equal(r.code, 0, r.stdout + r.stderr);
        const seen = (0, node_fs_1.readFileSync)((0, node_path_1.join)(project, 'probe.txt'), 'utf8');
        strict_1.default.match(seen, /done\n$/, 'the probe ran');
        strict_1.default.doesNotMatch(seen, /SQLite format 3/, seen);
        // Not even the names: the listing shows an empty directory (errors name the paths asked for).
        strict_1.default.doesNotMatch(seen, / temporal\.db$|server\.pid|results|blobs/m, seen);
        strict_1.default.equal((0, node_fs_1.readFileSync)(db).subarray(0, 15).toString('latin1'), 'SQLite format 3', 'the database is intact');
        strict_1.default.ok((0, node_fs_1.existsSync)(`${db}.server.pid`), 'the pid file is there');
        strict_1.default.equal((0, node_fs_1.existsSync)((0, node_path_1.join)(dataHome, 'store', 'planted')), false);
        strict_1.default.ok((0, node_fs_1.existsSync)((0, node_path_1.join)(dataHome, 'store')), 'the store is in the data directory');
        strict_1.default.equal((0, node_fs_1.existsSync)((0, node_path_1.join)(project, '.durable-agent', 'store')), false);
        // A large result is stored in the store, and the model is pointed at the file: this session's
        // own results stay readable (Read and Bash), while the rest of the store stays hidden.
        (0, node_fs_1.mkdirSync)((0, node_path_1.join)(dataHome, 'store', 'results', 'other-session'), { recursive: true });
        (0, node_fs_1.writeFileSync)((0, node_path_1.join)(dataHome, 'store', 'results', 'other-session', 'toolu_x.txt'), 'BAIT-OTHER-SESSION\n');
        let persisted = '';
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_big', name: 'Bash', input: { command: 'seq 1 20000' } }]));
        fake.script((req) => {
            const text = JSON.stringify((0, fakeAnthropic_1.lastToolResults)(req));
            const m = /Full output saved to: ([^\s\\]+)/.exec(text);
            if (m && !persisted) {
                persisted = m[1];
                return (0, fakeAnthropic_1.toolUseResponse)([
                    { id: 'toolu_read', name: 'Read', input: { file_path: persisted, limit: 2 } },
                    {
                        id: 'toolu_own',
                        name: 'Bash',
                        input: {
                            command: `{ tail -n 1 '${persisted}'; echo; } > own.txt; ls -R '${(0, node_path_1.join)(dataHome, 'store')}' >> own.txt 2>&1; cat '${(0, node_path_1.join)(dataHome, 'store', 'results', 'other-session', 'toolu_x.txt')}' >> own.txt 2>&1; true`,
                        },
                    },
                ]);
            }
            return persisted ? (0, fakeAnthropic_1.textResponse)('read it') : undefined;
        });
        const big = await (0, cli_1.cli)(['run', '--cwd', project, '--permission-mode', 'dontAsk', '--model', 'claude-test', 'count'], env, 120_000);
        strict_1.default.equal(big.code, 0, big.stdout + big.stderr);
        strict_1.default.ok(persisted.startsWith((0, node_path_1.join)(dataHome, 'store', 'results')), persisted);
        strict_1.default.equal((0, node_fs_1.readFileSync)((0, node_path_1.join)(project, 'own.txt'), 'utf8').split('\n')[0], '20000', "Bash read this session's own result");
        // Inside the sandbox the store shows only the path to this session's results (the runtime binds
        // that directory back over the hidden store): no other session, no transcripts or ledger.
        const own = (0, node_fs_1.readFileSync)((0, node_path_1.join)(project, 'own.txt'), 'utf8');
        strict_1.default.doesNotMatch(own, /^other-session$|BAIT-OTHER|blobs/m, own);
        strict_1.default.match(own, new RegExp(`results/${persisted.split('/').slice(-2, -1)[0]}:`), own);
        const readBlock = fake.requests
            .flatMap((q) => (q.valid ? (0, fakeAnthropic_1.lastToolResults)(q.body) : []))
            .find((blk) => blk.tool_use_id === 'toolu_read');
        strict_1.default.ok(readBlock, 'Read answered');
        strict_1.default.notEqual(readBlock.is_error, true, JSON.stringify(readBlock));
        strict_1.default.match(JSON.stringify(readBlock.content), /1.*\\n.*2/, 'Read returned the first lines of the stored result');
    }
    finally {
        await stop(dev.child);
        await fake.close();
    }
});
//# sourceMappingURL=dev-data-dir.test.js.map