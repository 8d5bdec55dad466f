"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: CLAUDE.md loading as the reference (Claude Code 2.1.197) does it, each case settled by
// capturing the request the reference sends to the fake Messages API: imports outside the project,
// bare-word imports, import chain length, imports' kinds, .claude/rules, frontmatter, HTML comments.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const claudeMd_1 = require("../../src/memory/claudeMd");
let root = '';
let cwd = '';
let home = '';
const noManaged = () => ({
    home,
    configDir: (0, node_path_1.join)(home, '.claude'),
    managed: (0, node_path_1.join)(root, 'no-managed.md'),
});
function put(path, content) {
    (0, node_fs_1.mkdirSync)((0, node_path_1.dirname)(path), { recursive: true });
    (0, node_fs_1.writeFileSync)(path, content);
    return path;
}
(0, node_test_1.beforeEach)(() => {
    root = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-memory-ref-'));
    home = (0, node_path_1.join)(root, 'home');
    cwd = (0, node_path_1.join)(root, 'parent', 'repo');
    (0, node_fs_1.mkdirSync)(cwd, { recursive: true });
    (0, node_fs_1.mkdirSync)(home, { recursive: true });
});
(0, node_test_1.afterEach)(() => (0, node_fs_1.rmSync)(root, { recursive: true, force: true }));
(0, node_test_1.test)('unit: a project CLAUDE.md does not import files outside the working directory (warned); user memory may', () => {
    put((0, node_path_1.join)(home, '.claude', 'CLAUDE.md'), 'user\n@~/notes/u.md');
    const userNote = put((0, node_path_1.join)(home, 'notes', 'u.md'), 'user note');
    put((0, node_path_1.join)(home, 'notes', 'p.md'), 'secret-ish home file');
    const project = put((0, node_path_1.join)(cwd, 'CLAUDE.md'), `p\n@~/notes/p.md\n@../sibling.md\n@${(0, node_path_1.join)(root, 'abs.md')}\n@docs/in.md\n@${(0, node_path_1.join)(cwd, 'docs', 'abs-in.md')}`);
    put((0, node_path_1.join)(root, 'parent', 'sibling.md'), 'sibling');
    put((0, node_path_1.join)(root, 'abs.md'), 'abs');
    const inDoc = put((0, node_path_1.join)(cwd, 'docs', 'in.md'), 'in');
    const absIn = put((0, node_path_1.join)(cwd, 'docs', 'abs-in.md'), 'abs in');
    const parentMd = put((0, node_path_1.join)(root, 'parent', 'CLAUDE.md'), 'parent\n@side.md\n@repo/docs/in.md');
    put((0, node_path_1.join)(root, 'parent', 'side.md'), 'side');
    const m = (0, claudeMd_1.loadMemory)(cwd, noManaged());
    const paths = m.files.map((f) => f.path);
    strict_1.default.ok(paths.includes(userNote), 'user memory imports from the home directory');
    strict_1.default.deepEqual(paths.filter((p) => p.startsWith(root) && !p.startsWith((0, node_path_1.join)(home, '.claude'))), [userNote, parentMd, inDoc, project, absIn]);
    for (const spec of ['~/notes/p.md', '../sibling.md', (0, node_path_1.join)(root, 'abs.md')]) {
        strict_1.default.ok(m.warnings.some((w) => w.startsWith(`${project}: @import ${spec} is outside the working directory`)), `${spec}: ${m.warnings.join('\n')}`);
    }
    strict_1.default.ok(m.warnings.some((w) => w.startsWith(`${parentMd}: @import side.md is outside the working directory`)));
});
(0, node_test_1.test)("unit: an import has its importer's kind in the reminder; bare @word imports load when the file exists, silently skip when not", () => {
    put((0, node_path_1.join)(home, '.claude', 'CLAUDE.md'), '@~/n.md');
    put((0, node_path_1.join)(home, 'n.md'), 'home note');
    put((0, node_path_1.join)(cwd, 'CLAUDE.local.md'), 'ask @alice or @bob\n@README');
    put((0, node_path_1.join)(cwd, 'README'), 'readme text');
    put((0, node_path_1.join)(cwd, 'alice'), 'alice text');
    const m = (0, claudeMd_1.loadMemory)(cwd, noManaged());
    strict_1.default.deepEqual(m.files.map((f) => [f.path, f.type, f.importedBy ?? null]), [
        [(0, node_path_1.join)(home, '.claude', 'CLAUDE.md'), 'user', null],
        [(0, node_path_1.join)(home, 'n.md'), 'user', (0, node_path_1.join)(home, '.claude', 'CLAUDE.md')],
        [(0, node_path_1.join)(cwd, 'CLAUDE.local.md'), 'local', null],
        [(0, node_path_1.join)(cwd, 'alice'), 'local', (0, node_path_1.join)(cwd, 'CLAUDE.local.md')],
        [(0, node_path_1.join)(cwd, 'README'), 'local', (0, node_path_1.join)(cwd, 'CLAUDE.local.md')],
    ]);
    strict_1.default.deepEqual(m.warnings, [], '@bob is a mention, not a missing import');
    const reminder = (0, claudeMd_1.memoryReminder)(m.files);
    strict_1.default.ok(reminder.includes(`Contents of ${(0, node_path_1.join)(home, 'n.md')} (user's private global instructions for all projects):\n\nhome note`));
    strict_1.default.ok(reminder.includes(`Contents of ${(0, node_path_1.join)(cwd, 'README')} (user's private project instructions, not checked in):\n\nreadme text`));
});
(0, node_test_1.test)('unit: trailing punctuation is part of the import (as the reference): `@a.md,` is reported missing, not loaded', () => {
    const project = put((0, node_path_1.join)(cwd, 'CLAUDE.md'), 'see @docs/a.md, (@docs/b.md) and "@docs/c.md"');
    for (const f of ['a', 'b', 'c'])
        put((0, node_path_1.join)(cwd, 'docs', `${f}.md`), f);
    const m = (0, claudeMd_1.loadMemory)(cwd, noManaged());
    strict_1.default.deepEqual(m.files.map((f) => f.path), [project]);
    strict_1.default.ok(m.warnings.some((w) => w === `${project}: @import ${(0, node_path_1.join)(cwd, 'docs', 'a.md,')} was not found; it is not loaded`), m.warnings.join('\n'));
});
(0, node_test_1.test)('unit: .claude/rules/**/*.md load after .claude/CLAUDE.md and before CLAUDE.local.md, user rules after ~/.claude/CLAUDE.md; path-conditional rules are reported, not loaded', () => {
    const user = put((0, node_path_1.join)(home, '.claude', 'CLAUDE.md'), 'user');
    const userRule = put((0, node_path_1.join)(home, '.claude', 'rules', 'u.md'), 'user rule');
    const parentRule = put((0, node_path_1.join)(root, 'parent', '.claude', 'rules', 'p.md'), 'parent rule');
    const dot = put((0, node_path_1.join)(cwd, '.claude', 'CLAUDE.md'), 'dot');
    const a = put((0, node_path_1.join)(cwd, '.claude', 'rules', 'a.md'), '---\ndescription: style\n---\nrule a');
    const nested = put((0, node_path_1.join)(cwd, '.claude', 'rules', 'b', 'y.md'), 'rule b/y');
    const empty = put((0, node_path_1.join)(cwd, '.claude', 'rules', 'e.md'), '---\npaths: []\n---\nunconditional');
    const cond = put((0, node_path_1.join)(cwd, '.claude', 'rules', 'c.md'), '---\npaths:\n  - "src/**/*.ts"\n---\nonly for ts');
    const inline = put((0, node_path_1.join)(cwd, '.claude', 'rules', 'd.md'), '---\npaths: "**/*"\n---\nall files');
    put((0, node_path_1.join)(cwd, '.claude', 'rules', 'notes.txt'), 'not markdown');
    const local = put((0, node_path_1.join)(cwd, 'CLAUDE.local.md'), 'local');
    const m = (0, claudeMd_1.loadMemory)(cwd, noManaged());
    strict_1.default.deepEqual(m.files.map((f) => f.path), [user, userRule, parentRule, dot, a, nested, empty, local]);
    strict_1.default.equal(m.files.find((f) => f.path === a)?.content, 'rule a', 'frontmatter is not shown to the model');
    for (const p of [cond, inline])
        strict_1.default.ok(m.warnings.some((w) => w.startsWith(`${p}: a rule with paths:`)), m.warnings.join('\n'));
    strict_1.default.equal(m.warnings.length, 2);
});
(0, node_test_1.test)('unit: a path-conditional rule that a CLAUDE.md imports is loaded (the import wins, as the reference)', () => {
    put((0, node_path_1.join)(cwd, 'CLAUDE.md'), '@.claude/rules/c.md');
    const cond = put((0, node_path_1.join)(cwd, '.claude', 'rules', 'c.md'), '---\npaths:\n  - "**/*.md"\n---\nimported rule');
    const m = (0, claudeMd_1.loadMemory)(cwd, noManaged());
    strict_1.default.ok(m.files.some((f) => f.path === cond && f.content === 'imported rule'));
    strict_1.default.deepEqual(m.warnings, []);
});
(0, node_test_1.test)('unit: frontmatter and block-level HTML comments are dropped from the text; inline comments and code keep them', () => {
    const text = '---\npaths: x\n---\nA <!-- inline --> B\n<!--\nmulti\nline\n-->\nC\n```\n<!-- in code -->\n```\n`<!-- span -->`\n<!-- @hidden.md -->\n';
    strict_1.default.equal((0, claudeMd_1.memoryText)(text), 'A <!-- inline --> B\nC\n```\n<!-- in code -->\n```\n`<!-- span -->`\n');
    put((0, node_path_1.join)(cwd, 'CLAUDE.md'), text);
    put((0, node_path_1.join)(cwd, 'hidden.md'), 'hidden');
    strict_1.default.deepEqual((0, claudeMd_1.loadMemory)(cwd, noManaged()).files.map((f) => f.path), [(0, node_path_1.join)(cwd, 'CLAUDE.md')], 'an import inside an HTML comment is not followed');
    strict_1.default.equal((0, claudeMd_1.hasPathsCondition)('paths:\n  - a'), true);
    strict_1.default.equal((0, claudeMd_1.hasPathsCondition)('paths: []'), false);
    strict_1.default.equal((0, claudeMd_1.hasPathsCondition)('description: x'), false);
    strict_1.default.equal((0, claudeMd_1.hasPathsCondition)(undefined), false);
});
(0, node_test_1.test)('unit: imports of binary file types are not loaded (warned); text files of any name are', () => {
    const project = put((0, node_path_1.join)(cwd, 'CLAUDE.md'), 'p\n@logo.png\n@data.bin\n@run.sh\n@Makefile\n@conf.yaml\n@gone.pdf');
    put((0, node_path_1.join)(cwd, 'logo.png'), '\x89PNG');
    put((0, node_path_1.join)(cwd, 'data.bin'), 'text in a .bin');
    for (const f of ['run.sh', 'Makefile', 'conf.yaml'])
        put((0, node_path_1.join)(cwd, f), f);
    const m = (0, claudeMd_1.loadMemory)(cwd, noManaged());
    strict_1.default.deepEqual(m.files.map((f) => f.path), [project, (0, node_path_1.join)(cwd, 'run.sh'), (0, node_path_1.join)(cwd, 'Makefile'), (0, node_path_1.join)(cwd, 'conf.yaml')]);
    strict_1.default.deepEqual(m.warnings, [
        `${project}: @import logo.png is a binary file type; it is not loaded (as Claude Code)`,
        `${project}: @import data.bin is a binary file type; it is not loaded (as Claude Code)`,
        `${project}: @import ${(0, node_path_1.join)(cwd, 'gone.pdf')} was not found; it is not loaded`,
    ]);
});
(0, node_test_1.test)('unit: a byte-order mark is dropped from a memory file, and its frontmatter still read', () => {
    const project = put((0, node_path_1.join)(cwd, 'CLAUDE.md'), '\ufeff---\ndescription: x\n---\nBOM memory');
    const cond = put((0, node_path_1.join)(cwd, '.claude', 'rules', 'r.md'), '\ufeff---\npaths:\n  - "src/**"\n---\nonly for src');
    const m = (0, claudeMd_1.loadMemory)(cwd, noManaged());
    strict_1.default.deepEqual(m.files.map((f) => [f.path, f.content]), [[project, 'BOM memory']]);
    strict_1.default.ok(m.warnings.some((w) => w.startsWith(`${cond}: a rule with paths:`)));
});
//# sourceMappingURL=memory-reference.test.js.map