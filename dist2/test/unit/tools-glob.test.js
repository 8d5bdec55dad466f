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
const path = __importStar(require("node:path"));
const node_test_1 = require("node:test");
const gitignore_1 = require("../../src/tools/builtin/gitignore");
const glob_1 = require("../../src/tools/builtin/glob");
const globPattern_1 = require("../../src/tools/builtin/globPattern");
const tools_harness_1 = require("./tools-harness");
(0, node_test_1.describe)('glob pattern -> RegExp', () => {
    const cases = [
        ['*.ts', 'a.ts', true],
        ['*.ts', 'src/a.ts', false],
        ['*.ts', '.hidden.ts', true],
        ['**/*.ts', 'a.ts', true],
        ['**/*.ts', 'src/deep/a.ts', true],
        ['**/*.ts', 'src/a.tsx', false],
        ['src/**/*.ts', 'src/a.ts', true],
        ['src/**/*.ts', 'src/x/y/a.ts', true],
        ['src/**/*.ts', 'lib/a.ts', false],
        ['src/**', 'src/a/b', true],
        ['a/**/b', 'a/b', true],
        ['a/**/b', 'a/x/y/b', true],
        ['a/**/b', 'a/xb', false],
        ['a**b', 'axxb', true],
        ['a**b', 'ax/xb', false],
        ['?.md', 'a.md', true],
        ['?.md', 'ab.md', false],
        ['*.{ts,tsx}', 'a.tsx', true],
        ['*.{ts,tsx}', 'a.js', false],
        ['{src,test}/**/*.{ts,js}', 'test/u/a.js', true],
        ['{src,test}/**/*.{ts,js}', 'lib/a.js', false],
        ['{a,b{c,d}}.txt', 'bd.txt', true],
        ['{a}.txt', '{a}.txt', true],
        ['[abc].txt', 'b.txt', true],
        ['[!abc].txt', 'b.txt', false],
        ['[!abc].txt', 'd.txt', true],
        ['[a-c]x', 'bx', true],
        ['[[:digit:]].log', '7.log', true],
        ['\\*.txt', '*.txt', true],
        ['\\*.txt', 'a.txt', false],
        ['a.b', 'axb', false],
        ['file(1).txt', 'file(1).txt', true],
    ];
    for (const [glob, p, expected] of cases) {
        (0, node_test_1.it)(`${glob} ${expected ? 'matches' : 'does not match'} ${p}`, () => {
            strict_1.default.equal((0, globPattern_1.globToRegExp)(glob).test(p), expected);
        });
    }
    (0, node_test_1.it)('expands braces, nested and literal', () => {
        strict_1.default.deepEqual((0, globPattern_1.expandBraces)('a{b,c}d'), ['abd', 'acd']);
        strict_1.default.deepEqual((0, globPattern_1.expandBraces)('{x,y{1,2}}'), ['x', 'y1', 'y2']);
        strict_1.default.deepEqual((0, globPattern_1.expandBraces)('no{brace'), ['no{brace']);
        strict_1.default.deepEqual((0, globPattern_1.expandBraces)('{single}'), ['{single}']);
    });
    (0, node_test_1.it)('splits the literal prefix', () => {
        strict_1.default.deepEqual((0, globPattern_1.splitStaticPrefix)('src/tools/**/*.ts'), { base: 'src/tools', rest: '**/*.ts' });
        strict_1.default.deepEqual((0, globPattern_1.splitStaticPrefix)('*.ts'), { base: '', rest: '*.ts' });
        strict_1.default.deepEqual((0, globPattern_1.splitStaticPrefix)('/abs/dir/*.ts'), { base: '/abs/dir', rest: '*.ts' });
    });
});
(0, node_test_1.describe)('gitignore rules', () => {
    const root = '/r';
    const sets = [
        {
            base: root,
            rules: (0, gitignore_1.parseIgnoreFile)('# comment\n\nnode_modules/\n*.log\n!keep.log\n/build\ndocs/*.md\n**/tmp/**\nspaced\\ \n'),
        },
    ];
    const cases = [
        ['node_modules', true, true],
        ['pkg/node_modules', true, true],
        ['node_modules', false, undefined], // dir-only rule, a file of that name is not ignored
        ['a.log', false, true],
        ['x/y/a.log', false, true],
        ['keep.log', false, false],
        ['build', true, true],
        ['src/build', true, undefined], // anchored
        ['docs/a.md', false, true],
        ['docs/sub/a.md', false, undefined],
        ['a/tmp/b', false, true],
        ['spaced ', false, true],
        ['src/a.ts', false, undefined],
    ];
    for (const [rel, isDir, expected] of cases) {
        (0, node_test_1.it)(`${rel}${isDir ? '/' : ''} -> ${String(expected)}`, () => {
            strict_1.default.equal((0, gitignore_1.matchIgnore)(sets, path.join(root, rel), isDir), expected);
        });
    }
});
(0, node_test_1.describe)('Glob', () => {
    let dir;
    (0, node_test_1.before)(async () => {
        dir = await (0, tools_harness_1.makeTmpDir)();
        await (0, tools_harness_1.writeTree)(dir, {
            '.gitignore': 'node_modules/\ndist/\n*.log\n',
            'a.ts': '',
            'b.tsx': '',
            'c.js': '',
            'src/x.ts': '',
            'src/deep/y.ts': '',
            'src/deep/.hidden.ts': '',
            'src/nested/.gitignore': 'secret.ts\n',
            'src/nested/secret.ts': '',
            'src/nested/visible.ts': '',
            'node_modules/pkg/index.ts': '',
            'dist/out.ts': '',
            'debug.log': '',
            '.git/HEAD.ts': '',
            'many/placeholder': '',
        }, {
            'a.ts': 1_000_000,
            'b.tsx': 3_000_000,
            'src/x.ts': 2_000_000,
            'src/deep/y.ts': 4_000_000,
            'src/deep/.hidden.ts': 500_000,
            'src/nested/visible.ts': 600_000,
        });
        const many = {};
        for (let i = 0; i < 130; i++)
            many[`many/f${String(i).padStart(3, '0')}.txt`] = '';
        await (0, tools_harness_1.writeTree)(dir, many);
    });
    (0, node_test_1.after)(() => (0, tools_harness_1.removeDir)(dir));
    (0, node_test_1.it)('** and mtime order (newest first), absolute paths, .gitignore respected', async () => {
        const r = await new tools_harness_1.ToolSession(dir).run(glob_1.GlobTool, { pattern: '**/*.ts' });
        strict_1.default.equal(r.isError, false);
        const expected = ['src/deep/y.ts', 'src/x.ts', 'a.ts', 'src/nested/visible.ts', 'src/deep/.hidden.ts'].map((p) => path.join(dir, p));
        strict_1.default.deepEqual(r.data.filenames, expected);
        strict_1.default.equal(r.text, expected.join('\n'));
    });
    (0, node_test_1.it)('{a,b} alternatives; "*.ts" is top level only', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(glob_1.GlobTool, { pattern: '*.{ts,tsx}' });
        strict_1.default.deepEqual(r.data.filenames, [path.join(dir, 'b.tsx'), path.join(dir, 'a.ts')]);
        const top = await s.run(glob_1.GlobTool, { pattern: '*.ts' });
        strict_1.default.deepEqual(top.data.filenames, [path.join(dir, 'a.ts')]);
    });
    (0, node_test_1.it)('path narrows the search; relative and absolute', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(glob_1.GlobTool, { pattern: '**/*.ts', path: 'src/deep' });
        strict_1.default.deepEqual(r.data.filenames, [path.join(dir, 'src/deep/y.ts'), path.join(dir, 'src/deep/.hidden.ts')]);
        const abs = await new tools_harness_1.ToolSession('/').run(glob_1.GlobTool, { pattern: '*.ts', path: path.join(dir, 'src') });
        strict_1.default.deepEqual(abs.data.filenames, [path.join(dir, 'src/x.ts')]);
        const up = await new tools_harness_1.ToolSession(path.join(dir, 'src/deep')).run(glob_1.GlobTool, { pattern: '../*.ts' });
        strict_1.default.deepEqual(up.data.filenames, [path.join(dir, 'src/x.ts')]);
        const absPattern = await new tools_harness_1.ToolSession('/').run(glob_1.GlobTool, { pattern: path.join(dir, 'src/deep/*.ts') });
        strict_1.default.equal(absPattern.data.filenames[0], path.join(dir, 'src/deep/y.ts'));
    });
    (0, node_test_1.it)('caps at 100 with a truncation notice', async () => {
        const r = await new tools_harness_1.ToolSession(dir).run(glob_1.GlobTool, { pattern: 'many/*.txt' });
        strict_1.default.equal(r.data.numFiles, 100);
        strict_1.default.equal(r.data.totalMatches, 130);
        strict_1.default.equal(r.data.truncated, true);
        strict_1.default.match(r.text, /\(Results are truncated: showing the 100 most recently modified of 130 matching files\./);
    });
    (0, node_test_1.it)('no match, missing path, file as path', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        strict_1.default.equal((await s.run(glob_1.GlobTool, { pattern: '**/*.rs' })).text, 'No files found');
        strict_1.default.equal((await s.run(glob_1.GlobTool, { pattern: '*', path: 'nope' })).invalid, 'Path does not exist: nope');
        strict_1.default.equal((await s.run(glob_1.GlobTool, { pattern: '*', path: 'a.ts' })).invalid, 'Path is not a directory: a.ts');
    });
    (0, node_test_1.it)('ignored files are not found even when named explicitly', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        strict_1.default.equal((await s.run(glob_1.GlobTool, { pattern: 'node_modules/**/*.ts' })).text, 'No files found');
        strict_1.default.equal((await s.run(glob_1.GlobTool, { pattern: '*.log' })).text, 'No files found');
        strict_1.default.equal((await s.run(glob_1.GlobTool, { pattern: '.git/*' })).text, 'No files found');
    });
    (0, node_test_1.it)('declarations', () => {
        const input = { pattern: '**/*.ts', path: 'src' };
        strict_1.default.equal(glob_1.GlobTool.isReadOnly(input), true);
        strict_1.default.equal(glob_1.GlobTool.isConcurrencySafe(input), true);
        strict_1.default.equal(glob_1.GlobTool.getPath?.(input), 'src');
        strict_1.default.equal(glob_1.GlobTool.getPath?.({ pattern: '*.ts' }), '.');
        strict_1.default.equal(glob_1.GlobTool.getPath?.({ pattern: '/abs/x/**' }), '/abs/x');
        strict_1.default.equal(glob_1.GlobTool.summary(input), 'Glob "**/*.ts" in src');
        strict_1.default.equal(glob_1.GlobTool.maxResultSizeChars, 100_000);
    });
});
//# sourceMappingURL=tools-glob.test.js.map