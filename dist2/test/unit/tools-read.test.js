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
const read_1 = require("../../src/tools/builtin/read");
const tools_harness_1 = require("./tools-harness");
let dir;
(0, node_test_1.before)(async () => {
    dir = await (0, tools_harness_1.makeTmpDir)();
    const many = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    await (0, tools_harness_1.writeTree)(dir, {
        'a.txt': 'alpha\nbeta\ngamma\n',
        'noeol.txt': 'one\ntwo',
        'crlf.txt': 'one\r\ntwo\r\n',
        'empty.txt': '',
        'many.txt': many,
        'long.txt': `${'x'.repeat(5000)}\nshort\n`,
        'sub/inner.ts': 'export {};\n',
        'Readme.md': '# hi\n',
    });
    await node_fs_1.promises.writeFile(path.join(dir, 'bin.dat'), Buffer.from([0x41, 0x00, 0x42, 0x0a]));
});
(0, node_test_1.after)(() => (0, tools_harness_1.removeDir)(dir));
(0, node_test_1.describe)('Read', () => {
    (0, node_test_1.it)('returns cat -n style lines and a full-read modifier', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(read_1.ReadTool, { file_path: 'a.txt' });
        strict_1.default.equal(r.text, '     1\talpha\n     2\tbeta\n     3\tgamma');
        strict_1.default.equal(r.isError, false);
        const abs = path.join(dir, 'a.txt');
        const st = await node_fs_1.promises.stat(abs);
        strict_1.default.deepEqual(s.agent.readFiles[abs], { mtimeMs: st.mtimeMs, partial: false });
        strict_1.default.equal(r.data.totalLines, 3);
    });
    (0, node_test_1.it)('accepts absolute paths; last line without newline; CRLF shown without \\r', async () => {
        const s = new tools_harness_1.ToolSession('/');
        strict_1.default.equal((await s.run(read_1.ReadTool, { file_path: path.join(dir, 'noeol.txt') })).text, '     1\tone\n     2\ttwo');
        strict_1.default.equal((await s.run(read_1.ReadTool, { file_path: path.join(dir, 'crlf.txt') })).text, '     1\tone\n     2\ttwo');
    });
    (0, node_test_1.it)('offset and limit give a page and a partial read', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(read_1.ReadTool, { file_path: 'a.txt', offset: 2, limit: 1 });
        strict_1.default.match(r.text, /^ {5}2\tbeta\n\n<system-reminder>Showing lines 2-2 of 3\. To read more, call Read with offset: 3\.<\/system-reminder>$/);
        strict_1.default.equal(s.agent.readFiles[path.join(dir, 'a.txt')]?.partial, true);
        // offset + limit that reach the end: still partial (line 1 not seen)
        const r2 = await s.run(read_1.ReadTool, { file_path: 'a.txt', offset: 2 });
        strict_1.default.equal(r2.data.partial, true);
        // A full read afterwards makes it complete.
        await s.run(read_1.ReadTool, { file_path: 'a.txt' });
        strict_1.default.equal(s.agent.readFiles[path.join(dir, 'a.txt')]?.partial, false);
    });
    (0, node_test_1.it)('defaults to 2000 lines with a continuation notice', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(read_1.ReadTool, { file_path: 'many.txt' });
        strict_1.default.equal(r.data.numLines, 2000);
        strict_1.default.equal(r.data.totalLines, 2500);
        strict_1.default.equal(r.data.partial, true);
        strict_1.default.match(r.text, /  2000\tline 2000\n\n<system-reminder>Showing lines 1-2000 of 2500\. To read more, call Read with offset: 2001\./);
        const next = await s.run(read_1.ReadTool, { file_path: 'many.txt', offset: 2001 });
        strict_1.default.equal(next.data.numLines, 500);
        strict_1.default.match(next.text, /^  2001\tline 2001\n/);
        strict_1.default.doesNotMatch(next.text, /system-reminder/);
        // an explicit large limit reads it whole: a full read
        const whole = await s.run(read_1.ReadTool, { file_path: 'many.txt', limit: 3000 });
        strict_1.default.equal(whole.data.partial, false);
    });
    (0, node_test_1.it)('cuts lines longer than 2000 characters', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(read_1.ReadTool, { file_path: 'long.txt' });
        const first = r.text.split('\n')[0];
        strict_1.default.equal(first, `     1\t${'x'.repeat(2000)}… [line truncated]`);
        strict_1.default.match(r.text, /     2\tshort/);
        strict_1.default.match(r.text, /1 line\(s\) longer than 2000 characters were cut/);
        strict_1.default.equal(r.data.truncatedLines, 1);
    });
    (0, node_test_1.it)('empty file: a warning, not an error', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(read_1.ReadTool, { file_path: 'empty.txt' });
        strict_1.default.equal(r.isError, false);
        strict_1.default.equal(r.text, '<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>');
        strict_1.default.equal(s.agent.readFiles[path.join(dir, 'empty.txt')]?.partial, false);
    });
    (0, node_test_1.it)('offset past the end: a warning, not an error', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(read_1.ReadTool, { file_path: 'a.txt', offset: 10 });
        strict_1.default.equal(r.isError, false);
        strict_1.default.equal(r.invalid, undefined);
        strict_1.default.match(r.text, /shorter than the provided offset \(10\)\. The file has 3 lines\./);
    });
    (0, node_test_1.it)('a directory is a validation error', async () => {
        const r = await new tools_harness_1.ToolSession(dir).run(read_1.ReadTool, { file_path: 'sub' });
        strict_1.default.match(r.invalid ?? '', /^EISDIR: sub is a directory/);
    });
    (0, node_test_1.it)('a missing file is a validation error with a suggestion', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(read_1.ReadTool, { file_path: 'readme.md' });
        strict_1.default.match(r.invalid ?? '', /^File does not exist: readme\.md/);
        strict_1.default.match(r.invalid ?? '', /Did you mean .*Readme\.md\?/);
        const r2 = await s.run(read_1.ReadTool, { file_path: 'nothing/here.txt' });
        strict_1.default.match(r2.invalid ?? '', /^File does not exist: nothing\/here\.txt/);
    });
    (0, node_test_1.it)('binary files are refused', async () => {
        const r = await new tools_harness_1.ToolSession(dir).run(read_1.ReadTool, { file_path: 'bin.dat' });
        strict_1.default.match(r.invalid ?? '', /cannot read binary files/);
    });
    (0, node_test_1.it)('rejects unknown fields (strict schema) and bad numbers', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        strict_1.default.match((await s.run(read_1.ReadTool, { file_path: 'a.txt', foo: 1 })).invalid ?? '', /schema/);
        strict_1.default.match((await s.run(read_1.ReadTool, { file_path: 'a.txt', limit: 0 })).invalid ?? '', /schema/);
    });
    (0, node_test_1.it)('an empty file_path is a validation error (checked by validateInput: the schema has no minLength, as the reference)', async () => {
        const r = await new tools_harness_1.ToolSession(dir).run(read_1.ReadTool, { file_path: '' });
        strict_1.default.ok(r.isError);
        strict_1.default.equal(r.invalid, 'file_path must not be empty');
    });
    (0, node_test_1.it)('pages: refused with a clear message (PDF reading is not supported)', async () => {
        const r = await new tools_harness_1.ToolSession(dir).run(read_1.ReadTool, { file_path: 'a.txt', pages: '1-2' });
        strict_1.default.ok(r.isError);
        strict_1.default.match(r.invalid ?? '', /^pages is for PDF files, and reading PDF files is not supported here \(a\.txt\)/);
    });
    (0, node_test_1.it)('allow_large lifts the output budget; lines are still cut', async () => {
        const d = await (0, tools_harness_1.makeTmpDir)();
        try {
            // 200 lines of 1500 characters: 300k characters, three times the budget.
            await (0, tools_harness_1.writeTree)(d, {
                'big.txt': Array.from({ length: 200 }, (_, i) => `${i}`.padEnd(1500, 'y')).join('\n') + '\n',
            });
            const s = new tools_harness_1.ToolSession(d);
            const capped = await s.run(read_1.ReadTool, { file_path: 'big.txt' });
            strict_1.default.match(capped.text, /output budget of 100000 characters reached/);
            const large = await s.run(read_1.ReadTool, { file_path: 'big.txt', allow_large: true });
            strict_1.default.doesNotMatch(large.text, /output budget/);
            strict_1.default.ok(/\b200\t199y{1400}/.test(large.text), 'the last line is shown');
            strict_1.default.ok(large.text.length > 300_000);
        }
        finally {
            await (0, tools_harness_1.removeDir)(d);
        }
    });
    (0, node_test_1.it)('declarations', () => {
        const input = { file_path: 'a.txt' };
        strict_1.default.equal(read_1.ReadTool.isReadOnly(input), true);
        strict_1.default.equal(read_1.ReadTool.isConcurrencySafe(input), true);
        strict_1.default.equal(read_1.ReadTool.isIdempotent(input), true);
        strict_1.default.equal(read_1.ReadTool.getPath?.(input), 'a.txt');
        strict_1.default.equal(read_1.ReadTool.summary(input), 'Read a.txt');
        strict_1.default.equal(read_1.ReadTool.summary({ file_path: 'a.txt', offset: 10, limit: 5 }), 'Read a.txt (lines 10-14)');
        strict_1.default.ok(read_1.ReadTool.maxResultSizeChars > 1_000_000);
    });
    (0, node_test_1.it)('honours the abort signal', async () => {
        const ac = new AbortController();
        ac.abort();
        const r = await new tools_harness_1.ToolSession(dir).run(read_1.ReadTool, { file_path: 'many.txt' }, { signal: ac.signal });
        strict_1.default.ok(r.thrown);
    });
});
//# sourceMappingURL=tools-read.test.js.map