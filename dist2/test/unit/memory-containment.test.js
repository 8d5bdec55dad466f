"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: memory files as a reading channel (issue 18, finding 5). The loader runs in the worker,
// outside the sandbox, and sends what it reads to the model: a CLAUDE.md, CLAUDE.local.md, rule or
// @import that is (or is reached through) a symlink to a credential file, or out of the project,
// must not be read — a warning names it. What the reference (Claude Code 2.1.328, offline against
// the fake API) does was settled with its binary: it follows a project CLAUDE.md / CLAUDE.local.md
// symlinked outside (we do too) and even to ~/.ssh/id_rsa (we do not: a leak), and follows no
// import or rule that resolves outside the project (nor do we). Real files, real symlinks.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_child_process_1 = require("node:child_process");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const claudeMd_1 = require("../../src/memory/claudeMd");
const resultFilter_1 = require("../../src/permissions/resultFilter");
const races_1 = require("../support/races");
const KEY = 'PRIVATE-KEY-d41b';
const AWS = 'AWS-SECRET-93ac';
let root = '';
let cwd = '';
let home = '';
let outside = '';
function put(path, content) {
    (0, node_fs_1.mkdirSync)((0, node_path_1.dirname)(path), { recursive: true });
    (0, node_fs_1.writeFileSync)(path, content);
    return path;
}
function link(target, at) {
    (0, node_fs_1.mkdirSync)((0, node_path_1.dirname)(at), { recursive: true });
    (0, node_fs_1.symlinkSync)(target, at);
}
const load = (extra = {}) => (0, claudeMd_1.loadMemory)(cwd, { home, configDir: (0, node_path_1.join)(home, '.claude'), managed: (0, node_path_1.join)(root, 'no-managed.md'), ...extra });
const text = (m) => (0, claudeMd_1.memoryReminder)(m.files);
(0, node_test_1.beforeEach)(() => {
    root = (0, node_fs_1.realpathSync)((0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-memory-containment-')));
    home = (0, node_path_1.join)(root, 'home');
    cwd = (0, node_path_1.join)(root, 'proj');
    outside = (0, node_path_1.join)(root, 'outside');
    (0, node_fs_1.mkdirSync)(cwd, { recursive: true });
    put((0, node_path_1.join)(home, '.ssh', 'id_rsa'), `${KEY}\n`);
    put((0, node_path_1.join)(home, '.aws', 'credentials'), `${AWS}\n`);
    put((0, node_path_1.join)(outside, 'notes.md'), 'outside notes\n');
});
(0, node_test_1.afterEach)(() => (0, node_fs_1.rmSync)(root, { recursive: true, force: true }));
(0, node_test_1.test)('unit: a project CLAUDE.md symlinked to a credential file is not read (warned); one symlinked to an ordinary outside file is, as the reference', () => {
    link((0, node_path_1.join)(home, '.ssh', 'id_rsa'), (0, node_path_1.join)(cwd, 'CLAUDE.md'));
    link((0, node_path_1.join)(home, '.aws', 'credentials'), (0, node_path_1.join)(cwd, 'CLAUDE.local.md'));
    link((0, node_path_1.join)(outside, 'notes.md'), (0, node_path_1.join)(cwd, '.claude', 'CLAUDE.md'));
    const m = load();
    strict_1.default.ok(!text(m).includes(KEY) && !text(m).includes(AWS), 'no credential reached the model');
    strict_1.default.ok(text(m).includes('outside notes'), 'an ordinary file outside is followed, as Claude Code does');
    strict_1.default.ok(m.warnings.some((w) => w.startsWith(`${(0, node_path_1.join)(cwd, 'CLAUDE.md')}: not loaded: it is a credential file`)), m.warnings.join('\n'));
    strict_1.default.ok(m.warnings.some((w) => w.startsWith(`${(0, node_path_1.join)(cwd, 'CLAUDE.local.md')}: not loaded: it is a credential file`)), m.warnings.join('\n'));
});
(0, node_test_1.test)('unit: a project @import that resolves outside — a symlinked file, a symlinked directory on the way — is not read (warned); an in-project symlink is', () => {
    put((0, node_path_1.join)(cwd, 'CLAUDE.md'), 'p\n@./imp-link.md\n@./rlink/deep.md\n@./key.md\n@./docs/in-link.md\n');
    link((0, node_path_1.join)(outside, 'notes.md'), (0, node_path_1.join)(cwd, 'imp-link.md'));
    put((0, node_path_1.join)(outside, 'rdir', 'deep.md'), 'outside deep\n');
    link((0, node_path_1.join)(outside, 'rdir'), (0, node_path_1.join)(cwd, 'rlink'));
    link((0, node_path_1.join)(home, '.ssh', 'id_rsa'), (0, node_path_1.join)(cwd, 'key.md'));
    put((0, node_path_1.join)(cwd, 'docs', 'real.md'), 'in-project target\n');
    link((0, node_path_1.join)(cwd, 'docs', 'real.md'), (0, node_path_1.join)(cwd, 'docs', 'in-link.md'));
    const m = load();
    const t = text(m);
    strict_1.default.ok(!t.includes('outside notes') && !t.includes('outside deep') && !t.includes(KEY), t);
    strict_1.default.ok(t.includes('in-project target'));
    for (const spec of ['./imp-link.md', './rlink/deep.md', './key.md']) {
        strict_1.default.ok(m.warnings.some((w) => w.startsWith(`${(0, node_path_1.join)(cwd, 'CLAUDE.md')}: @import ${spec} is not loaded:`)), `${spec}: ${m.warnings.join('\n')}`);
    }
});
(0, node_test_1.test)('unit: a project rule symlinked out of the project, or a rules directory that is a symlink, is not read (as the reference)', () => {
    put((0, node_path_1.join)(outside, 'rule.md'), 'outside rule\n');
    link((0, node_path_1.join)(outside, 'rule.md'), (0, node_path_1.join)(cwd, '.claude', 'rules', 'r.md'));
    link((0, node_path_1.join)(home, '.ssh', 'id_rsa'), (0, node_path_1.join)(cwd, '.claude', 'rules', 'k.md'));
    put((0, node_path_1.join)(cwd, '.claude', 'rules', 'ok.md'), 'in-project rule\n');
    const sub = (0, node_path_1.join)(cwd, 'sub');
    put((0, node_path_1.join)(outside, 'rdir', 'r2.md'), 'outside rules dir\n');
    link((0, node_path_1.join)(outside, 'rdir'), (0, node_path_1.join)(sub, '.claude', 'rules'));
    const m = (0, claudeMd_1.loadMemory)(sub, {
        home,
        configDir: (0, node_path_1.join)(home, '.claude'),
        managed: (0, node_path_1.join)(root, 'no-managed.md'),
        workingDirectories: [cwd],
    });
    const t = text(m);
    strict_1.default.ok(t.includes('in-project rule'));
    strict_1.default.ok(!t.includes('outside rule') && !t.includes(KEY) && !t.includes('outside rules dir'), t);
    strict_1.default.equal(m.warnings.filter((w) => w.includes(': not loaded: ')).length, 3, m.warnings.join('\n'));
});
(0, node_test_1.test)('unit: user memory may import any file but a credential file; a Read deny rule keeps a file out', () => {
    put((0, node_path_1.join)(home, '.claude', 'CLAUDE.md'), 'user\n@~/notes.md\n@~/.ssh/id_rsa\n@~/.aws/credentials\n');
    put((0, node_path_1.join)(home, 'notes.md'), 'user notes\n');
    put((0, node_path_1.join)(cwd, 'CLAUDE.md'), 'p\n@./secret.md\n@./plain.md\n');
    put((0, node_path_1.join)(cwd, 'secret.md'), 'DENIED-TEXT\n');
    put((0, node_path_1.join)(cwd, 'plain.md'), 'plain\n');
    const readDenied = (0, resultFilter_1.hiddenPathPredicate)('Read', { allow: [], ask: [], deny: ['Read(./secret.md)'] }, { cwd, workingDirectories: [cwd] });
    const m = load({ ...(readDenied ? { readDenied } : {}) });
    const t = text(m);
    strict_1.default.ok(t.includes('user notes') && t.includes('plain'));
    strict_1.default.ok(!t.includes(KEY) && !t.includes(AWS) && !t.includes('DENIED-TEXT'), t);
    strict_1.default.ok(m.warnings.some((w) => w.includes('@import ./secret.md is not loaded: a Read deny rule covers it')), m.warnings.join('\n'));
    strict_1.default.equal(m.warnings.filter((w) => w.includes('is not loaded: it is a credential file')).length, 2, m.warnings.join('\n'));
});
(0, node_test_1.test)('unit: a CLAUDE.md that is a FIFO does not hang the loader', () => {
    (0, node_child_process_1.execFileSync)('mkfifo', [(0, node_path_1.join)(cwd, 'CLAUDE.md')]);
    put((0, node_path_1.join)(cwd, 'CLAUDE.local.md'), 'local\n');
    const m = load();
    strict_1.default.deepEqual(m.files.map((f) => f.path), [(0, node_path_1.join)(cwd, 'CLAUDE.local.md')]);
});
(0, node_test_1.test)('unit: a CLAUDE.md swapped between a file and a symlink to ~/.ssh/id_rsa while memory loads, 2,000 times: the key is never read', async () => {
    const fx = (0, races_1.createRaceFixture)();
    try {
        const h = (0, node_path_1.join)(fx.root, 'home');
        put((0, node_path_1.join)(h, '.ssh', 'id_rsa'), `${KEY}\n`);
        // The project's CLAUDE.md is the flipped entry; it imports @./x, the flipped file of the fixture's second entry.
        put((0, node_path_1.join)(fx.proj, 'CLAUDE.md'), 'project memory\n@./d/x\n');
        const flipMd = (0, races_1.startFlipper)(fx, 'file', (0, node_path_1.join)(fx.proj, 'CLAUDE.md'), (0, node_path_1.join)(h, '.ssh', 'id_rsa'));
        const flipDir = (0, races_1.startFlipper)(fx, 'dir');
        let leaked = 0;
        try {
            for (let i = 0; i < 2000; i++) {
                const m = (0, claudeMd_1.loadMemory)(fx.proj, { home: h, configDir: (0, node_path_1.join)(h, '.claude'), managed: (0, node_path_1.join)(fx.root, 'none.md') });
                const t = (0, claudeMd_1.memoryReminder)(m.files);
                if (t.includes(KEY) || t.includes('BAIT-SECRET'))
                    leaked++;
                // Yield now and then so the swappers' threads get the CPU on a loaded machine.
                if (i % 100 === 0)
                    await new Promise((r) => setImmediate(r));
            }
        }
        finally {
            strict_1.default.ok((await flipMd.stop()) > 0);
            strict_1.default.ok((await flipDir.stop()) > 0);
        }
        strict_1.default.equal(leaked, 0);
        const after = (0, claudeMd_1.loadMemory)(fx.proj, { home: h, configDir: (0, node_path_1.join)(h, '.claude'), managed: (0, node_path_1.join)(fx.root, 'none.md') });
        strict_1.default.ok((0, claudeMd_1.memoryReminder)(after.files).includes('project memory') && (0, claudeMd_1.memoryReminder)(after.files).includes('safe X[A]'), 'with the swappers stopped, the memory and its import load');
    }
    finally {
        (0, node_fs_1.rmSync)(fx.root, { recursive: true, force: true });
    }
});
//# sourceMappingURL=memory-containment.test.js.map