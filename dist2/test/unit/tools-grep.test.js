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
const grep_1 = require("../../src/tools/builtin/grep");
const grepEngine_1 = require("../../src/tools/builtin/grepEngine");
const tools_harness_1 = require("./tools-harness");
const systemPackages_1 = require("../support/systemPackages");
let dir;
(0, node_test_1.before)(async () => {
    dir = await (0, tools_harness_1.makeTmpDir)();
    await (0, tools_harness_1.writeTree)(dir, {
        '.gitignore': 'ignored/\n*.log\n',
        'src/auth.ts': 'import x from "y";\nexport function login() {\n  return auth();\n}\n// LOGIN done\n',
        'src/remote/ws.ts': 'const LOGIN = 1;\nlogin();\n',
        'src/remote/adapter.ts': 'auth here\nnothing\n',
        'docs/readme.md': 'login docs\n',
        'ignored/x.ts': 'login\n',
        'app.log': 'login\n',
        '.hidden/h.ts': 'login\n',
        'multi.txt': 'start\nmiddle\nend\n',
        'ctx.txt': 'a\nb\nhit1\nc\nd\ne\nf\nhit2\ng\n',
    }, {
        'src/auth.ts': 4_000_000,
        'src/remote/ws.ts': 3_000_000,
        'src/remote/adapter.ts': 2_000_000,
        'docs/readme.md': 1_000_000,
        '.hidden/h.ts': 500_000,
        'multi.txt': 400_000,
        'ctx.txt': 300_000,
    });
    await node_fs_1.promises.writeFile(path.join(dir, 'bin.dat'), Buffer.from('login\0binary\n'));
    await node_fs_1.promises.utimes(path.join(dir, 'bin.dat'), 5_000_000, 5_000_000);
});
(0, node_test_1.after)(() => {
    delete process.env.DURABLE_AGENT_GREP_ENGINE;
    return (0, tools_harness_1.removeDir)(dir);
});
const ripgrep = (0, systemPackages_1.requireSystemPackage)({
    command: 'rg',
    debianPackage: 'ripgrep',
    usedBy: "Grep's ripgrep engine tests (tools-grep.test)",
    probe: () => ((0, grepEngine_1.isRipgrepAvailable)() ? 'rg' : undefined),
});
async function grep(engine, input, cwd = dir) {
    process.env.DURABLE_AGENT_GREP_ENGINE = engine;
    try {
        return await new tools_harness_1.ToolSession(cwd).run(grep_1.GrepTool, input);
    }
    finally {
        delete process.env.DURABLE_AGENT_GREP_ENGINE;
    }
}
for (const engine of ['rg', 'js']) {
    const skip = engine === 'rg' ? ripgrep.skip : false;
    (0, node_test_1.describe)(`Grep (${engine === 'rg' ? 'ripgrep' : 'JavaScript fallback'})`, { skip }, () => {
        if (engine === 'rg')
            (0, node_test_1.it)('ripgrep is installed', () => ripgrep.assert());
        (0, node_test_1.it)('uses the requested engine', async () => {
            const r = await grep(engine, { pattern: 'login' });
            strict_1.default.equal(r.data.engine, engine === 'rg' ? 'ripgrep' : 'javascript');
        });
        (0, node_test_1.it)('files_with_matches: relative paths, newest first, .gitignore and binaries skipped, hidden searched', async () => {
            const r = await grep(engine, { pattern: 'login|auth', path: 'src/remote' });
            strict_1.default.equal(r.text, 'Found 2 files\nsrc/remote/ws.ts\nsrc/remote/adapter.ts');
            const all = await grep(engine, { pattern: 'login' });
            strict_1.default.equal(all.text, 'Found 4 files\nsrc/auth.ts\nsrc/remote/ws.ts\ndocs/readme.md\n.hidden/h.ts');
        });
        (0, node_test_1.it)('content: path:line:text, -n defaults to true, -n false drops numbers', async () => {
            const r = await grep(engine, { pattern: 'login', output_mode: 'content', path: 'src' });
            strict_1.default.equal(r.text, 'src/auth.ts:2:export function login() {\nsrc/remote/ws.ts:2:login();');
            const nn = await grep(engine, { pattern: 'login', output_mode: 'content', path: 'src', '-n': false });
            strict_1.default.equal(nn.text, 'src/auth.ts:export function login() {\nsrc/remote/ws.ts:login();');
        });
        (0, node_test_1.it)('-i is case-insensitive', async () => {
            const r = await grep(engine, { pattern: 'login', output_mode: 'content', path: 'src', '-i': true });
            strict_1.default.equal(r.text, 'src/auth.ts:2:export function login() {\nsrc/auth.ts:5:// LOGIN done\nsrc/remote/ws.ts:1:const LOGIN = 1;\nsrc/remote/ws.ts:2:login();');
        });
        (0, node_test_1.it)('context lines: -A/-B/-C with "--" between groups', async () => {
            const c = await grep(engine, { pattern: 'hit', output_mode: 'content', path: 'ctx.txt', '-C': 1 });
            strict_1.default.equal(c.text, 'ctx.txt-2-b\nctx.txt:3:hit1\nctx.txt-4-c\n--\nctx.txt-7-f\nctx.txt:8:hit2\nctx.txt-9-g');
            const a = await grep(engine, { pattern: 'hit1', output_mode: 'content', path: 'ctx.txt', '-A': 2 });
            strict_1.default.equal(a.text, 'ctx.txt:3:hit1\nctx.txt-4-c\nctx.txt-5-d');
            const b = await grep(engine, { pattern: 'hit2', output_mode: 'content', path: 'ctx.txt', '-B': 4 });
            strict_1.default.equal(b.text, 'ctx.txt-4-c\nctx.txt-5-d\nctx.txt-6-e\nctx.txt-7-f\nctx.txt:8:hit2');
            // Overlapping context merges into one group.
            const m = await grep(engine, { pattern: 'hit', output_mode: 'content', path: 'ctx.txt', '-C': 2 });
            strict_1.default.equal(m.text.split('\n').filter((l) => l === '--').length, 0);
        });
        (0, node_test_1.it)('count: per-file counts and a total over every file even when paginated', async () => {
            const r = await grep(engine, { pattern: 'login', output_mode: 'count', '-i': true });
            strict_1.default.equal(r.text, 'src/auth.ts:2\nsrc/remote/ws.ts:2\ndocs/readme.md:1\n.hidden/h.ts:1\n\nFound 6 total occurrences across 4 files.');
            const cut = await grep(engine, { pattern: 'login', output_mode: 'count', '-i': true, head_limit: 1, offset: 1 });
            strict_1.default.equal(cut.data.totalMatches, 6);
            strict_1.default.deepEqual(cut.data.lines, ['src/remote/ws.ts:2']);
            strict_1.default.match(cut.text, /Found 6 total occurrences across 4 files\./);
            strict_1.default.match(cut.text, /\[Showing files 2-2 of 4 \(head_limit: 1, offset: 1\)\. Use offset: 2 to see more\.\]/);
            // counts matches, not lines
            const twice = await grep(engine, { pattern: 'o', output_mode: 'count', path: 'docs/readme.md' });
            strict_1.default.equal(twice.data.lines[0], 'docs/readme.md:2');
        });
        (0, node_test_1.it)('head_limit and offset paginate files and content lines', async () => {
            const r = await grep(engine, { pattern: 'login', head_limit: 2 });
            strict_1.default.equal(r.text, 'Found 4 files\nsrc/auth.ts\nsrc/remote/ws.ts\n\n[Showing files 1-2 of 4 (head_limit: 2, offset: 0). Use offset: 2 to see more.]');
            const p2 = await grep(engine, { pattern: 'login', head_limit: 2, offset: 2 });
            strict_1.default.equal(p2.text, 'Found 4 files\ndocs/readme.md\n.hidden/h.ts\n\n[Showing files 3-4 of 4 (head_limit: 2, offset: 2).]');
            const content = await grep(engine, { pattern: 'login', output_mode: 'content', '-i': true, head_limit: 3 });
            strict_1.default.equal(content.data.lines.length, 3);
            strict_1.default.equal(content.data.totalEntries, 6);
            strict_1.default.match(content.text, /\[Showing lines 1-3 of 6/);
            const unlimited = await grep(engine, { pattern: 'login', head_limit: 0 });
            strict_1.default.equal(unlimited.data.filenames.length, 4);
            strict_1.default.doesNotMatch(unlimited.text, /Showing/);
        });
        (0, node_test_1.it)('glob and type filters', async () => {
            strict_1.default.equal((await grep(engine, { pattern: 'login', glob: '*.md' })).text, 'Found 1 file\ndocs/readme.md');
            strict_1.default.equal((await grep(engine, { pattern: 'login', glob: 'src/**/*.ts' })).text, 'Found 2 files\nsrc/auth.ts\nsrc/remote/ws.ts');
            strict_1.default.equal((await grep(engine, { pattern: 'login', glob: '*.{md,txt}' })).text, 'Found 1 file\ndocs/readme.md');
            strict_1.default.equal((await grep(engine, { pattern: 'login', glob: '!*.md' })).text, 'Found 3 files\nsrc/auth.ts\nsrc/remote/ws.ts\n.hidden/h.ts');
            strict_1.default.equal((await grep(engine, { pattern: 'login', type: 'md' })).text, 'Found 1 file\ndocs/readme.md');
            strict_1.default.equal((await grep(engine, { pattern: 'login', type: 'ts' })).text, 'Found 3 files\nsrc/auth.ts\nsrc/remote/ws.ts\n.hidden/h.ts');
            // ripgrep's rule: a glob that selects a file beats .gitignore
            strict_1.default.equal((await grep(engine, { pattern: 'login', glob: '*.log' })).text, 'Found 1 file\napp.log');
        });
        (0, node_test_1.it)('-o shows only the matched parts, one per line; context is left out', async () => {
            const r = await grep(engine, {
                pattern: 'log[a-z]+',
                output_mode: 'content',
                path: 'src',
                '-i': true,
                '-o': true,
            });
            strict_1.default.equal(r.text, 'src/auth.ts:2:login\nsrc/auth.ts:5:LOGIN\nsrc/remote/ws.ts:1:LOGIN\nsrc/remote/ws.ts:2:login');
            const two = await grep(engine, {
                pattern: 'hit[0-9]|[a-c]',
                output_mode: 'content',
                path: 'ctx.txt',
                '-o': true,
                '-C': 3,
            });
            strict_1.default.equal(two.text, 'ctx.txt:1:a\nctx.txt:2:b\nctx.txt:3:hit1\nctx.txt:4:c\nctx.txt:8:hit2');
            const nn = await grep(engine, {
                pattern: 'ret[a-z]+',
                output_mode: 'content',
                path: 'src/auth.ts',
                '-o': true,
                '-n': false,
            });
            strict_1.default.equal(nn.text, 'src/auth.ts:return');
            const ml = await grep(engine, {
                pattern: 'dle\\nen',
                multiline: true,
                output_mode: 'content',
                path: 'multi.txt',
                '-o': true,
            });
            strict_1.default.equal(ml.text, 'multi.txt:2:dle\nen');
            // Outside content mode -o changes nothing.
            const files = await grep(engine, { pattern: 'login', '-o': true, path: 'src' });
            strict_1.default.equal(files.text, (await grep(engine, { pattern: 'login', path: 'src' })).text);
        });
        (0, node_test_1.it)('context is -C by another name, and wins over it', async () => {
            const c = await grep(engine, { pattern: 'hit1', output_mode: 'content', path: 'ctx.txt', context: 1 });
            strict_1.default.equal(c.text, 'ctx.txt-2-b\nctx.txt:3:hit1\nctx.txt-4-c');
            const both = await grep(engine, {
                pattern: 'hit1',
                output_mode: 'content',
                path: 'ctx.txt',
                context: 0,
                '-C': 1,
            });
            strict_1.default.equal(both.text, 'ctx.txt:3:hit1');
        });
        (0, node_test_1.it)('multiline matches span lines', async () => {
            const r = await grep(engine, { pattern: 'start.*end', multiline: true, output_mode: 'content' });
            strict_1.default.equal(r.text, 'multi.txt:1:start\nmulti.txt:2:middle\nmulti.txt:3:end');
            const no = await grep(engine, { pattern: 'start.*end' });
            strict_1.default.equal(no.text, 'No files found');
            const count = await grep(engine, { pattern: 'start\\nmiddle', multiline: true, output_mode: 'count' });
            strict_1.default.equal(count.data.totalMatches, 1);
        });
        (0, node_test_1.it)('no matches', async () => {
            strict_1.default.equal((await grep(engine, { pattern: 'zzz' })).text, 'No files found');
            strict_1.default.equal((await grep(engine, { pattern: 'zzz', output_mode: 'content' })).text, 'No matches found');
            strict_1.default.equal((await grep(engine, { pattern: 'zzz', output_mode: 'count' })).text, 'No matches found');
        });
        (0, node_test_1.it)('an invalid regex is an error carrying the engine message', async () => {
            const r = await grep(engine, { pattern: 'a(', output_mode: 'content' });
            strict_1.default.ok(r.thrown, 'call() throws');
            strict_1.default.match(r.text, /^Invalid regular expression: /);
            strict_1.default.match(r.text, engine === 'rg' ? /unclosed group/ : /Unterminated group/);
        });
        (0, node_test_1.it)('a file path searches that file; paths outside cwd are absolute', async () => {
            const r = await grep(engine, { pattern: 'auth', path: 'src/auth.ts', output_mode: 'content' });
            strict_1.default.equal(r.text, 'src/auth.ts:3:  return auth();');
            const outside = await grep(engine, { pattern: 'auth', path: path.join(dir, 'src/auth.ts') }, path.join(dir, 'docs'));
            strict_1.default.equal(outside.text, `Found 1 file\n${path.join(dir, 'src/auth.ts')}`);
        });
        (0, node_test_1.it)('an empty pattern matches every line and ends, also on characters outside the BMP', async () => {
            const d = await (0, tools_harness_1.makeTmpDir)();
            try {
                await (0, tools_harness_1.writeTree)(d, { 'emoji.txt': 'a 🌍 b\n🌍\n' }, {});
                const r = await grep(engine, { pattern: '', path: 'emoji.txt', output_mode: 'content', '-n': true }, d);
                strict_1.default.equal(r.text, 'emoji.txt:1:a 🌍 b\nemoji.txt:2:🌍');
            }
            finally {
                await (0, tools_harness_1.removeDir)(d);
            }
        });
        (0, node_test_1.it)('a missing path is a validation error', async () => {
            const r = await grep(engine, { pattern: 'x', path: 'no/such' });
            strict_1.default.equal(r.invalid, 'Path does not exist: no/such');
        });
        (0, node_test_1.it)('honours the abort signal', async () => {
            const ac = new AbortController();
            ac.abort();
            process.env.DURABLE_AGENT_GREP_ENGINE = engine;
            try {
                const r = await new tools_harness_1.ToolSession(dir).run(grep_1.GrepTool, { pattern: 'login' }, { signal: ac.signal });
                strict_1.default.ok(r.thrown);
            }
            finally {
                delete process.env.DURABLE_AGENT_GREP_ENGINE;
            }
        });
    });
}
(0, node_test_1.describe)('Grep: ripgrep and the JavaScript fallback give the same output', { skip: ripgrep.skip }, () => {
    const inputs = [
        { pattern: 'login' },
        { pattern: 'login|auth', '-i': true },
        { pattern: 'login', output_mode: 'content', '-C': 2 },
        { pattern: 'o', output_mode: 'count' },
        { pattern: '^[a-z]+$', output_mode: 'content', '-n': false },
        { pattern: 'hit\\d', output_mode: 'content', '-B': 1, '-A': 3 },
        { pattern: '(?i)login', output_mode: 'content' },
        { pattern: 'l(?P<rest>ogin)', output_mode: 'files_with_matches' },
        { pattern: 'e', output_mode: 'content', head_limit: 5, offset: 3 },
        { pattern: 'middle.end', multiline: true, output_mode: 'content', '-C': 1 },
        { pattern: 'login', glob: '**/*.ts !src/remote/**' },
        { pattern: '', output_mode: 'count', path: 'ctx.txt' },
        { pattern: 'x*', output_mode: 'count', path: 'ctx.txt' },
    ];
    for (const input of inputs) {
        (0, node_test_1.it)(JSON.stringify(input), async () => {
            const rg = await grep('rg', input);
            const js = await grep('js', input);
            strict_1.default.equal(rg.data?.engine, 'ripgrep');
            strict_1.default.equal(js.data?.engine, 'javascript');
            strict_1.default.equal(js.text, rg.text);
        });
    }
});
(0, node_test_1.describe)('Grep helpers and declarations', () => {
    (0, node_test_1.it)('splits glob lists like the reference', () => {
        strict_1.default.deepEqual((0, grepEngine_1.splitGlobs)('*.ts,*.tsx'), ['*.ts', '*.tsx']);
        strict_1.default.deepEqual((0, grepEngine_1.splitGlobs)('*.{ts,tsx} !*.test.ts'), ['*.{ts,tsx}', '!*.test.ts']);
        strict_1.default.deepEqual((0, grepEngine_1.splitGlobs)(undefined), []);
    });
    (0, node_test_1.it)('translates common Rust regex syntax for the JS engine', () => {
        strict_1.default.ok((0, grepEngine_1.compileJsRegex)('(?i)abc', { caseInsensitive: false, multiline: false }).test('ABC'));
        strict_1.default.ok((0, grepEngine_1.compileJsRegex)('(?P<x>a)b', { caseInsensitive: false, multiline: false }).test('ab'));
    });
    (0, node_test_1.it)('unknown type is a validation error', async () => {
        const r = await new tools_harness_1.ToolSession(dir).run(grep_1.GrepTool, { pattern: 'x', type: 'klingon' });
        strict_1.default.match(r.invalid ?? '', /^Unknown file type "klingon"\. Known types: .*\bts\b/);
    });
    (0, node_test_1.it)('-A/-B/-C/context/head_limit/offset must be whole numbers >= 0 (numbers in the schema, as the reference)', async () => {
        for (const f of ['-A', '-B', '-C', 'context', 'head_limit', 'offset']) {
            for (const bad of [1.5, -1]) {
                const r = await new tools_harness_1.ToolSession(dir).run(grep_1.GrepTool, { pattern: 'x', [f]: bad });
                strict_1.default.ok(r.isError, `${f}: ${bad}`);
                strict_1.default.equal(r.invalid, `${f} must be a whole number >= 0 (got ${bad})`);
            }
        }
        const ok = await new tools_harness_1.ToolSession(dir).run(grep_1.GrepTool, { pattern: 'login', head_limit: 0, offset: 0, context: 2 });
        strict_1.default.equal(ok.invalid, undefined);
    });
    (0, node_test_1.it)('declarations', () => {
        const input = { pattern: 'login|auth', path: 'src/remote' };
        strict_1.default.equal(grep_1.GrepTool.isReadOnly(input), true);
        strict_1.default.equal(grep_1.GrepTool.isConcurrencySafe(input), true);
        strict_1.default.equal(grep_1.GrepTool.isIdempotent(input), true);
        strict_1.default.equal(grep_1.GrepTool.getPath?.(input), 'src/remote');
        strict_1.default.equal(grep_1.GrepTool.getPath?.({ pattern: 'x' }), '.');
        strict_1.default.equal(grep_1.GrepTool.summary(input), 'Grep "login|auth" in src/remote');
        strict_1.default.equal(grep_1.GrepTool.maxResultSizeChars, 20_000);
    });
});
//# sourceMappingURL=tools-grep.test.js.map