"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const path = __importStar(require("node:path"));
const node_test_1 = require("node:test");
const bash_1 = require("../../src/tools/builtin/bash");
const host_1 = require("../../src/sandbox/host");
const bashCommand_1 = require("../../src/tools/builtin/bashCommand");
const bashParser_1 = require("../../src/permissions/bashParser");
const tools_harness_1 = require("./tools-harness");
let dir;
(0, node_test_1.before)(async () => {
    strict_1.default.equal(await (0, bashParser_1.loadShellParser)(), true);
    dir = await (0, tools_harness_1.makeTmpDir)();
    await (0, tools_harness_1.writeTree)(dir, { 'a.txt': 'one\n', 'b.txt': 'two\n', 'sub/c.txt': 'x\n' });
});
(0, node_test_1.after)(() => (0, tools_harness_1.removeDir)(dir));
function alive(pid) {
    try {
        process.kill(pid, 0);
        return true;
    }
    catch {
        return false;
    }
}
async function waitGone(pids, ms = 3000) {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
        if (pids.every((p) => !alive(p)))
            return true;
        await new Promise((r) => setTimeout(r, 50));
    }
    return pids.every((p) => !alive(p));
}
(0, node_test_1.describe)('Bash: running commands', () => {
    (0, node_test_1.it)('runs in cwd; stdout and stderr merged in order', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(bash_1.BashTool, { command: 'pwd; echo out1; echo err1 >&2; echo out2; echo err2 1>&2' });
        strict_1.default.equal(r.isError, false);
        strict_1.default.equal(r.text, `${dir}\nout1\nerr1\nout2\nerr2`);
        strict_1.default.equal(r.data.exitCode, 0);
    });
    (0, node_test_1.it)('no output', async () => {
        const r = await new tools_harness_1.ToolSession(dir).run(bash_1.BashTool, { command: 'true' });
        strict_1.default.equal(r.text, '(Bash completed with no output)');
    });
    (0, node_test_1.it)('non-zero exit codes are errors with "Exit code N"', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(bash_1.BashTool, { command: 'echo boom; exit 3' });
        strict_1.default.equal(r.isError, true);
        strict_1.default.equal(r.text, 'boom\nExit code 3');
        strict_1.default.equal(r.data.exitCode, 3);
        strict_1.default.equal((await s.run(bash_1.BashTool, { command: 'false' })).isError, true);
        const grep2 = await s.run(bash_1.BashTool, { command: 'grep x no-such-file' });
        strict_1.default.equal(grep2.isError, true);
        strict_1.default.match(grep2.text, /Exit code 2$/);
    });
    (0, node_test_1.it)('exit code 1 is not a failure for grep, find, diff, test, [, git diff', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        for (const command of [
            'grep nomatch a.txt',
            'diff a.txt b.txt',
            'test -f nope.txt',
            '[ -d nope ]',
            'cat a.txt | grep -c zzz',
        ]) {
            const r = await s.run(bash_1.BashTool, { command });
            strict_1.default.equal(r.data.exitCode, 1, command);
            strict_1.default.equal(r.isError, false, command);
            strict_1.default.match(r.text, /Exit code 1$/, command);
        }
        strict_1.default.equal((0, bashCommand_1.exitCodeOneIsBenign)('git diff --exit-code'), true);
        strict_1.default.equal((0, bashCommand_1.exitCodeOneIsBenign)('git -C sub diff --quiet'), true);
        strict_1.default.equal((0, bashCommand_1.exitCodeOneIsBenign)('rg foo'), true);
        strict_1.default.equal((0, bashCommand_1.exitCodeOneIsBenign)('find . -name x'), true);
        strict_1.default.equal((0, bashCommand_1.exitCodeOneIsBenign)('grep x y | wc -l'), false);
        strict_1.default.equal((0, bashCommand_1.exitCodeOneIsBenign)('npm test'), false);
        strict_1.default.equal((0, bashCommand_1.exitCodeOneIsBenign)('git status'), false);
    });
    (0, node_test_1.it)('keeps the full output in data (the pipeline persists what exceeds 30000 chars)', async () => {
        const r = await new tools_harness_1.ToolSession(dir).run(bash_1.BashTool, { command: "head -c 100000 /dev/zero | tr '\\0' a" });
        strict_1.default.equal(r.data.output.length, 100_000);
        strict_1.default.equal(bash_1.BashTool.maxResultSizeChars, 30_000);
    });
    (0, node_test_1.it)('timeout: default 120 s, clamped to 600 s, kills and reports the output so far', async () => {
        strict_1.default.equal((0, bash_1.clampTimeout)(undefined), bash_1.BASH_DEFAULT_TIMEOUT_MS);
        strict_1.default.equal((0, bash_1.clampTimeout)(5_000), 5_000);
        strict_1.default.equal((0, bash_1.clampTimeout)(10_000_000), bash_1.BASH_MAX_TIMEOUT_MS);
        strict_1.default.equal(bash_1.BASH_MAX_TIMEOUT_MS, 600_000);
        strict_1.default.equal(bash_1.BashTool.inputSchema.safeParse({ command: 'x', timeout: 10_000_000 }).success, true);
        const started = Date.now();
        const r = await new tools_harness_1.ToolSession(dir).run(bash_1.BashTool, { command: 'echo started; sleep 20', timeout: 300 });
        strict_1.default.ok(Date.now() - started < 5000);
        strict_1.default.equal(r.data.timedOut, true);
        strict_1.default.equal(r.isError, true);
        strict_1.default.match(r.text, /^started\nCommand timed out after 300 ms; its process group was killed\./);
    });
    (0, node_test_1.it)('reports progress at most every ~500 ms with the output so far', async () => {
        const r = await new tools_harness_1.ToolSession(dir).run(bash_1.BashTool, {
            command: 'for i in 1 2 3 4; do echo tick $i; sleep 0.35; done',
        });
        strict_1.default.equal(r.isError, false);
        strict_1.default.ok(r.progress.length >= 1, 'at least one progress event');
        const withOutput = r.progress.filter((p) => typeof p.output === 'string');
        strict_1.default.match(String(withOutput[0]?.output), /^tick 1\n/);
        for (const p of r.progress)
            strict_1.default.equal(typeof p.elapsedMs, 'number');
        // The throttle's contract, read from the tool's own clock (not from how long the test took,
        // which a loaded machine stretches): consecutive reports are at least ~500 ms apart.
        const times = r.progress.map((p) => p.elapsedMs);
        for (let i = 1; i < times.length; i++)
            strict_1.default.ok(times[i] - times[i - 1] >= 400, `reports ${times.join(', ')} ms`);
    });
    (0, node_test_1.it)('progress output is the last ~4 KB', async () => {
        const r = await new tools_harness_1.ToolSession(dir).run(bash_1.BashTool, { command: "head -c 20000 /dev/zero | tr '\\0' b; sleep 0.7" });
        const p = r.progress.find((x) => typeof x.output === 'string');
        strict_1.default.ok(p);
        strict_1.default.equal(String(p.output).length, 4096);
    });
    (0, node_test_1.it)('abort kills the whole process group and returns the output so far', async () => {
        const ac = new AbortController();
        const s = new tools_harness_1.ToolSession(dir);
        const run = s.run(bash_1.BashTool, { command: 'sleep 30 & echo $!; sleep 30 & echo $!; echo $$; wait' }, { signal: ac.signal });
        // Let the shell start its children (it prints their pids), then interrupt.
        await new Promise((r) => setTimeout(r, 500));
        ac.abort();
        const r = await run;
        strict_1.default.equal(r.data.interrupted, true);
        strict_1.default.equal(r.isError, true);
        strict_1.default.match(r.text, /Command was aborted \(interrupted\); its process group was killed\./);
        const pids = String(r.data.output)
            .trim()
            .split('\n')
            .map(Number)
            .filter((n) => n > 0);
        strict_1.default.equal(pids.length, 3, `three pids in ${JSON.stringify(r.data.output)}`);
        strict_1.default.ok(await waitGone(pids), `processes still alive: ${pids.filter(alive).join(',')}`);
    });
    (0, node_test_1.it)('children that ignore SIGTERM get SIGKILL after the grace period', async () => {
        const ac = new AbortController();
        const run = new tools_harness_1.ToolSession(dir).run(bash_1.BashTool, { command: "trap '' TERM; sleep 30 & echo $!; wait" }, { signal: ac.signal });
        await new Promise((r) => setTimeout(r, 400));
        const t0 = Date.now();
        ac.abort();
        const r = await run;
        const pid = Number(String(r.data.output).trim());
        strict_1.default.ok(pid > 0);
        strict_1.default.ok(Date.now() - t0 >= 900, 'waited for the grace period');
        strict_1.default.ok(await waitGone([pid]));
    });
    (0, node_test_1.it)('background children do not hold the call open', async () => {
        const t0 = Date.now();
        const r = await new tools_harness_1.ToolSession(dir).run(bash_1.BashTool, { command: 'sleep 5 & echo $!' });
        strict_1.default.ok(Date.now() - t0 < 3000);
        const pid = Number(String(r.data.output).trim());
        if (pid > 0 && alive(pid))
            process.kill(pid, 'SIGKILL');
    });
    (0, node_test_1.it)('run_in_background runs nothing itself: the reference text, an empty output file, a taskStarted record', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(bash_1.BashTool, {
            command: 'touch bg-ran; sleep 1',
            run_in_background: true,
            description: 'Touch it',
            timeout: 5 * 3600_000,
        }, { backgroundTasks: true });
        const toolUseId = r.block.tool_use_id;
        const id = (0, bash_1.backgroundTaskId)('test-session', toolUseId);
        strict_1.default.match(id, /^b[a-z0-9]{8}$/);
        const file = path.join((0, host_1.sessionTasksPath)('test-session'), `${id}.output`);
        strict_1.default.equal(r.text, `Command running in background with ID: ${id}. Output is being written to: ${file}. You will be notified when it completes. To check interim output, use Read on that file path.`);
        strict_1.default.equal(r.isError, false);
        strict_1.default.equal(await node_fs_1.promises.readFile(file, 'utf8'), '');
        await strict_1.default.rejects(node_fs_1.promises.stat(path.join(dir, 'bg-ran')), 'nothing ran in the call');
        const task = s.agent.autonomy?.tasks[0];
        strict_1.default.deepEqual({ ...task, startedAt: 0 }, {
            id,
            kind: 'local_bash',
            toolUseId,
            description: 'Touch it',
            startedAt: 0,
            timeoutMs: bash_1.BASH_BACKGROUND_MAX_TIMEOUT_MS,
            outputPath: file,
            state: 'running',
            command: 'touch bg-ran; sleep 1',
            cwd: dir,
        });
        strict_1.default.equal((0, bash_1.backgroundTimeout)(undefined), bash_1.BASH_BACKGROUND_DEFAULT_TIMEOUT_MS);
        strict_1.default.equal((0, bash_1.backgroundTimeout)(1500.2), 1501);
    });
    (0, node_test_1.it)('run_in_background is refused where no scheduler runs background tasks (a bare pipeline call)', async () => {
        const r = await new tools_harness_1.ToolSession(dir).run(bash_1.BashTool, { command: 'touch bg-ran', run_in_background: true });
        strict_1.default.equal(r.isError, true);
        strict_1.default.match(r.invalid ?? '', /run_in_background needs a session to run the task/);
        await strict_1.default.rejects(node_fs_1.promises.stat(path.join(dir, 'bg-ran')), 'nothing ran');
    });
    (0, node_test_1.it)('runBackgroundCommand writes stdout and stderr to the output file; an abort kills its process group', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        const out = path.join(await (0, tools_harness_1.makeTmpDir)(), 'task.output');
        const sizes = [];
        const ac = new AbortController();
        const tctx = (0, tools_harness_1.makeContext)(s.agent, ac.signal, [dir]);
        const done = await (0, bash_1.runBackgroundCommand)({ command: 'echo one; echo two >&2; exit 4', timeoutMs: 10_000, outputPath: out }, tctx, (n) => sizes.push(n));
        strict_1.default.deepEqual([done.exitCode, done.timedOut, done.interrupted, done.outputBytes], [4, false, false, 8]);
        strict_1.default.equal(await node_fs_1.promises.readFile(out, 'utf8'), 'one\ntwo\n');
        const t0 = Date.now();
        const running = (0, bash_1.runBackgroundCommand)({ command: 'echo $$ > bg.pid; sleep 30', timeoutMs: 60_000, outputPath: out }, tctx, () => undefined);
        const pidFile = path.join(dir, 'bg.pid');
        while (!(await node_fs_1.promises.stat(pidFile).catch(() => undefined))?.size)
            await new Promise((r) => setTimeout(r, 50));
        const pid = Number((await node_fs_1.promises.readFile(pidFile, 'utf8')).trim());
        ac.abort();
        const stopped = await running;
        strict_1.default.equal(stopped.interrupted, true);
        strict_1.default.ok(Date.now() - t0 < 10_000);
        strict_1.default.ok(await waitGone([pid]), 'the process group is gone');
    });
    (0, node_test_1.it)('an already aborted call does not run the command', async () => {
        const ac = new AbortController();
        ac.abort();
        const r = await new tools_harness_1.ToolSession(dir).run(bash_1.BashTool, { command: 'touch should-not-exist' }, { signal: ac.signal });
        strict_1.default.equal(r.data.interrupted, true);
        await strict_1.default.rejects(node_fs_1.promises.stat(path.join(dir, 'should-not-exist')));
    });
});
(0, node_test_1.describe)('Bash: standalone cd', () => {
    (0, node_test_1.it)('changes the session cwd with a setCwd modifier', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(bash_1.BashTool, { command: 'cd sub' });
        strict_1.default.equal(r.isError, false);
        strict_1.default.equal(r.text, `Working directory is now ${path.join(dir, 'sub')}`);
        strict_1.default.equal(s.agent.cwd, path.join(dir, 'sub'));
        strict_1.default.equal((await s.run(bash_1.BashTool, { command: 'pwd' })).text, path.join(dir, 'sub'));
        await s.run(bash_1.BashTool, { command: 'cd ..' });
        strict_1.default.equal(s.agent.cwd, dir);
    });
    (0, node_test_1.it)('refuses directories outside the working directories, and missing ones', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(bash_1.BashTool, { command: 'cd /' });
        strict_1.default.equal(r.isError, true);
        strict_1.default.match(r.text, /outside the session's working directories/);
        strict_1.default.equal(s.agent.cwd, dir);
        const missing = await s.run(bash_1.BashTool, { command: 'cd nope' });
        strict_1.default.equal(missing.isError, true);
        strict_1.default.match(missing.text, /No such file or directory/);
    });
    (0, node_test_1.it)('cd inside a compound command does not persist', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(bash_1.BashTool, { command: 'cd sub && pwd' });
        strict_1.default.equal(r.text, path.join(dir, 'sub'));
        strict_1.default.equal(s.agent.cwd, dir);
        strict_1.default.equal((0, bashCommand_1.standaloneCd)('cd sub && pwd'), undefined);
        strict_1.default.deepEqual((0, bashCommand_1.standaloneCd)('cd "my dir"'), { target: 'my dir' });
    });
});
(0, node_test_1.describe)('Bash: read-only classification', () => {
    const readOnly = [
        'ls',
        'ls -la src',
        'cat a.txt',
        'head -n 5 a.txt && tail -n 2 b.txt',
        'grep -rn "foo" src | wc -l',
        'rg foo src',
        "find . -name '*.ts' -type f",
        'wc -l a.txt; pwd',
        'stat a.txt',
        'du -sh .',
        'diff a.txt b.txt',
        'echo hello',
        'echo $HOME',
        'which node',
        'file a.txt',
        'tree src',
        'git status',
        'git log --oneline -5',
        'git diff HEAD~1 -- src',
        'git show HEAD:src/a.ts',
        'git branch',
        'git branch -a',
        'git -C sub status',
        'git --no-pager log',
        'cd src && ls',
        'ls 2>/dev/null',
        'ls 2>&1 | head',
        'cat < a.txt',
        'ls # just a comment',
    ];
    const notReadOnly = [
        'rm -rf /',
        'npm test',
        'echo hi > a.txt',
        'echo hi >> a.txt',
        'cat a.txt | tee b.txt',
        'ls && rm a.txt',
        'ls; touch x',
        'find . -delete',
        "find . -name '*.tmp' -exec rm {} \\;",
        'find . -fprint out.txt',
        'echo $(rm a.txt)',
        'echo `rm a.txt`',
        'echo "$(rm a.txt)"',
        'cat <(ls)',
        '(ls)',
        'sleep 1 &',
        'FOO=bar ls',
        'git commit -m x',
        'git branch newbranch',
        'git branch -D main',
        'git -c core.pager=evil log',
        'git diff --output=x.patch',
        'git stash',
        'git tag v1',
        'sort -o out.txt a.txt',
        'tree -o out.txt',
        'rg --pre ./evil foo',
        'find . $OPTS',
        'find . -name *.ts',
        'sed -i s/a/b/ a.txt',
        'xargs rm',
        '/bin/ls',
        'ls "unterminated',
        'cat <<EOF\nhi\nEOF',
        '',
    ];
    for (const command of readOnly) {
        (0, node_test_1.it)(`read-only: ${JSON.stringify(command)}`, () => {
            strict_1.default.equal((0, bashCommand_1.isReadOnlyCommand)(command), true);
            strict_1.default.equal(bash_1.BashTool.isReadOnly({ command }), true);
            strict_1.default.equal(bash_1.BashTool.isConcurrencySafe({ command }), true);
        });
    }
    for (const command of notReadOnly) {
        (0, node_test_1.it)(`not read-only: ${JSON.stringify(command)}`, () => {
            strict_1.default.equal((0, bashCommand_1.isReadOnlyCommand)(command), false);
            if (command !== '') {
                strict_1.default.equal(bash_1.BashTool.isReadOnly({ command }), false);
                strict_1.default.equal(bash_1.BashTool.isConcurrencySafe({ command }), false);
                strict_1.default.equal(bash_1.BashTool.isIdempotent({ command }), false);
            }
        });
    }
    (0, node_test_1.it)('a standalone cd is read-only but not concurrency-safe (it changes the cwd)', () => {
        strict_1.default.equal(bash_1.BashTool.isReadOnly({ command: 'cd src' }), true);
        strict_1.default.equal(bash_1.BashTool.isConcurrencySafe({ command: 'cd src' }), false);
    });
    (0, node_test_1.it)('declarations', () => {
        strict_1.default.equal(bash_1.BashTool.getRuleContent?.({ command: 'npm run test:unit' }), 'npm run test:unit');
        strict_1.default.equal(bash_1.BashTool.getPath, undefined);
        strict_1.default.equal(bash_1.BashTool.summary({ command: 'npm test' }), 'Bash: npm test');
        strict_1.default.equal(bash_1.BashTool.summary({ command: 'a\nb' }), 'Bash: a…');
    });
});
//# sourceMappingURL=tools-bash.test.js.map