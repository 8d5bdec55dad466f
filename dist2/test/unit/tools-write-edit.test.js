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
const edit_1 = require("../../src/tools/builtin/edit");
const read_1 = require("../../src/tools/builtin/read");
const write_1 = require("../../src/tools/builtin/write");
const tools_harness_1 = require("./tools-harness");
let dir;
(0, node_test_1.before)(async () => {
    dir = await (0, tools_harness_1.makeTmpDir)();
});
(0, node_test_1.after)(() => (0, tools_harness_1.removeDir)(dir));
async function bumpMtime(abs) {
    const st = await node_fs_1.promises.stat(abs);
    const t = new Date(st.mtimeMs + 5000);
    await node_fs_1.promises.utimes(abs, t, t);
}
(0, node_test_1.describe)('Write', () => {
    (0, node_test_1.it)('creates a new file (and parent directories) without a read', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(write_1.WriteTool, { file_path: 'w/new/file.txt', content: 'hello\n' });
        const abs = path.join(dir, 'w/new/file.txt');
        strict_1.default.equal(r.text, `File created successfully at: ${abs}`);
        strict_1.default.equal(await node_fs_1.promises.readFile(abs, 'utf8'), 'hello\n');
        strict_1.default.equal(s.agent.readFiles[abs]?.partial, false);
        strict_1.default.equal(s.agent.readFiles[abs]?.mtimeMs, (await node_fs_1.promises.stat(abs)).mtimeMs);
    });
    (0, node_test_1.it)('overwriting an existing file needs a prior read', async () => {
        await (0, tools_harness_1.writeTree)(dir, { 'w/existing.txt': 'old\n' });
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(write_1.WriteTool, { file_path: 'w/existing.txt', content: 'new\n' });
        strict_1.default.match(r.invalid ?? '', /has not been read yet/);
        strict_1.default.equal(await node_fs_1.promises.readFile(path.join(dir, 'w/existing.txt'), 'utf8'), 'old\n');
        await s.run(read_1.ReadTool, { file_path: 'w/existing.txt' });
        const ok = await s.run(write_1.WriteTool, { file_path: 'w/existing.txt', content: 'new\n' });
        strict_1.default.equal(ok.text, `The file ${path.join(dir, 'w/existing.txt')} has been updated successfully.`);
        strict_1.default.equal(await node_fs_1.promises.readFile(path.join(dir, 'w/existing.txt'), 'utf8'), 'new\n');
        // The write itself counts as knowing the file: a second write needs no new read.
        const again = await s.run(write_1.WriteTool, { file_path: 'w/existing.txt', content: 'newer\n' });
        strict_1.default.equal(again.isError, false);
    });
    (0, node_test_1.it)('a partial read does not allow an overwrite', async () => {
        await (0, tools_harness_1.writeTree)(dir, { 'w/partial.txt': 'a\nb\nc\n' });
        const s = new tools_harness_1.ToolSession(dir);
        await s.run(read_1.ReadTool, { file_path: 'w/partial.txt', limit: 1 });
        const r = await s.run(write_1.WriteTool, { file_path: 'w/partial.txt', content: 'x' });
        strict_1.default.match(r.invalid ?? '', /partially read/);
    });
    (0, node_test_1.it)('a file modified since the read must be read again', async () => {
        await (0, tools_harness_1.writeTree)(dir, { 'w/mod.txt': 'v1\n' });
        const s = new tools_harness_1.ToolSession(dir);
        await s.run(read_1.ReadTool, { file_path: 'w/mod.txt' });
        await node_fs_1.promises.writeFile(path.join(dir, 'w/mod.txt'), 'v2 by someone else\n');
        await bumpMtime(path.join(dir, 'w/mod.txt'));
        const r = await s.run(write_1.WriteTool, { file_path: 'w/mod.txt', content: 'mine\n' });
        strict_1.default.match(r.invalid ?? '', /modified since it was read/);
    });
    (0, node_test_1.it)('is idempotent: re-running a Write whose effect already landed succeeds without writing', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        const first = await s.run(write_1.WriteTool, { file_path: 'w/idem.txt', content: 'same\n' });
        strict_1.default.equal(first.data.type, 'create');
        // A retry with the context from before the first attempt (modifier never applied).
        const fresh = new tools_harness_1.ToolSession(dir);
        const retry = await fresh.run(write_1.WriteTool, { file_path: 'w/idem.txt', content: 'same\n' });
        strict_1.default.equal(retry.isError, false);
        strict_1.default.equal(retry.data.unchanged, true);
        strict_1.default.match(retry.text, /already had exactly this content/);
        strict_1.default.equal(write_1.WriteTool.isIdempotent({ file_path: 'x', content: '' }), true);
    });
    (0, node_test_1.it)('call() re-checks the read state (time passes between validation and call)', async () => {
        await (0, tools_harness_1.writeTree)(dir, { 'w/toctou.txt': 'v1\n' });
        const s = new tools_harness_1.ToolSession(dir);
        await s.run(read_1.ReadTool, { file_path: 'w/toctou.txt' });
        const input = { file_path: 'w/toctou.txt', content: 'mine\n' };
        const { makeContext } = await Promise.resolve().then(() => __importStar(require('./tools-harness')));
        const ctx = makeContext(s.agent);
        strict_1.default.deepEqual(await write_1.WriteTool.validateInput(input, ctx), { result: true });
        await node_fs_1.promises.writeFile(path.join(dir, 'w/toctou.txt'), 'changed meanwhile\n');
        await bumpMtime(path.join(dir, 'w/toctou.txt'));
        await strict_1.default.rejects(write_1.WriteTool.call(input, ctx, () => { }), /modified since it was read/);
        strict_1.default.equal(await node_fs_1.promises.readFile(path.join(dir, 'w/toctou.txt'), 'utf8'), 'changed meanwhile\n');
    });
    (0, node_test_1.it)('refuses a directory; declarations', async () => {
        await node_fs_1.promises.mkdir(path.join(dir, 'w/adir'), { recursive: true });
        const r = await new tools_harness_1.ToolSession(dir).run(write_1.WriteTool, { file_path: 'w/adir', content: 'x' });
        strict_1.default.match(r.invalid ?? '', /EISDIR/);
        const input = { file_path: 'a', content: 'b\nc' };
        strict_1.default.equal(write_1.WriteTool.isReadOnly(input), false);
        strict_1.default.equal(write_1.WriteTool.isConcurrencySafe(input), false);
        strict_1.default.equal(write_1.WriteTool.getPath?.(input), 'a');
        strict_1.default.equal(write_1.WriteTool.summary(input), 'Write a (2 lines)');
        strict_1.default.equal(write_1.WriteTool.maxResultSizeChars, 100_000);
    });
});
(0, node_test_1.describe)('Edit', () => {
    const fileText = 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 1;\n}\n';
    (0, node_test_1.it)('replaces a unique string and shows a numbered snippet', async () => {
        await (0, tools_harness_1.writeTree)(dir, { 'e/unique.ts': fileText });
        const s = new tools_harness_1.ToolSession(dir);
        await s.run(read_1.ReadTool, { file_path: 'e/unique.ts' });
        const r = await s.run(edit_1.EditTool, {
            file_path: 'e/unique.ts',
            old_string: 'function b() {\n  return 1;',
            new_string: 'function b() {\n  return 2;',
        });
        strict_1.default.equal(r.isError, false, r.text);
        const abs = path.join(dir, 'e/unique.ts');
        strict_1.default.equal(await node_fs_1.promises.readFile(abs, 'utf8'), fileText.replace('b() {\n  return 1;', 'b() {\n  return 2;'));
        strict_1.default.match(r.text, /^The file .*unique\.ts has been updated\. Here's the result of running `cat -n` on a snippet of the edited file:\n/);
        strict_1.default.match(r.text, /     5\tfunction b\(\) \{\n     6\t  return 2;\n     7\t\}/);
        strict_1.default.match(r.text, /     1\tfunction a/); // 4 lines of context before line 5
        strict_1.default.equal(s.agent.readFiles[abs]?.mtimeMs, (await node_fs_1.promises.stat(abs)).mtimeMs);
        // The edit's own modifier lets a second edit proceed without re-reading.
        const r2 = await s.run(edit_1.EditTool, { file_path: 'e/unique.ts', old_string: 'function a', new_string: 'function aa' });
        strict_1.default.equal(r2.isError, false, r2.text);
    });
    (0, node_test_1.it)('more than one match: error with the count unless replace_all', async () => {
        await (0, tools_harness_1.writeTree)(dir, { 'e/multi.ts': fileText });
        const s = new tools_harness_1.ToolSession(dir);
        await s.run(read_1.ReadTool, { file_path: 'e/multi.ts' });
        const r = await s.run(edit_1.EditTool, { file_path: 'e/multi.ts', old_string: 'return 1;', new_string: 'return 0;' });
        strict_1.default.match(r.invalid ?? '', /^Found 2 matches of the string to replace, but replace_all is false\./);
        strict_1.default.match(r.invalid ?? '', /set replace_all to true/);
        const all = await s.run(edit_1.EditTool, {
            file_path: 'e/multi.ts',
            old_string: 'return 1;',
            new_string: 'return 0;',
            replace_all: true,
        });
        strict_1.default.equal(all.isError, false);
        strict_1.default.equal(all.data.replacements, 2);
        strict_1.default.match(all.text, /All 2 occurrences of old_string were replaced/);
        strict_1.default.equal((await node_fs_1.promises.readFile(path.join(dir, 'e/multi.ts'), 'utf8')).match(/return 0;/g)?.length, 2);
    });
    (0, node_test_1.it)('not found, identical strings', async () => {
        await (0, tools_harness_1.writeTree)(dir, { 'e/nf.ts': fileText });
        const s = new tools_harness_1.ToolSession(dir);
        await s.run(read_1.ReadTool, { file_path: 'e/nf.ts' });
        const r = await s.run(edit_1.EditTool, { file_path: 'e/nf.ts', old_string: 'nope', new_string: 'x' });
        strict_1.default.equal(r.invalid, 'String to replace not found in file.\nString: nope');
        const same = await s.run(edit_1.EditTool, { file_path: 'e/nf.ts', old_string: 'a', new_string: 'a' });
        strict_1.default.match(same.invalid ?? '', /old_string and new_string are exactly the same/);
    });
    (0, node_test_1.it)('requires a full, current read', async () => {
        await (0, tools_harness_1.writeTree)(dir, { 'e/rs.ts': fileText });
        const s = new tools_harness_1.ToolSession(dir);
        const edit = { file_path: 'e/rs.ts', old_string: 'function a', new_string: 'function z' };
        strict_1.default.match((await s.run(edit_1.EditTool, edit)).invalid ?? '', /has not been read yet/);
        await s.run(read_1.ReadTool, { file_path: 'e/rs.ts', offset: 1, limit: 3 });
        strict_1.default.match((await s.run(edit_1.EditTool, edit)).invalid ?? '', /partially read/);
        await s.run(read_1.ReadTool, { file_path: 'e/rs.ts' });
        await node_fs_1.promises.appendFile(path.join(dir, 'e/rs.ts'), '// linter\n');
        await bumpMtime(path.join(dir, 'e/rs.ts'));
        strict_1.default.match((await s.run(edit_1.EditTool, edit)).invalid ?? '', /modified since it was read/);
        await s.run(read_1.ReadTool, { file_path: 'e/rs.ts' });
        strict_1.default.equal((await s.run(edit_1.EditTool, edit)).isError, false);
        strict_1.default.match(await node_fs_1.promises.readFile(path.join(dir, 'e/rs.ts'), 'utf8'), /function z\(\)[\s\S]*\/\/ linter/);
    });
    (0, node_test_1.it)('empty old_string creates a missing file; refuses an existing non-empty one', async () => {
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(edit_1.EditTool, {
            file_path: 'e/created/new.ts',
            old_string: '',
            new_string: 'export const x = 1;\n',
        });
        strict_1.default.equal(r.text, `File created successfully at: ${path.join(dir, 'e/created/new.ts')}`);
        strict_1.default.equal(await node_fs_1.promises.readFile(path.join(dir, 'e/created/new.ts'), 'utf8'), 'export const x = 1;\n');
        const again = await s.run(edit_1.EditTool, { file_path: 'e/created/new.ts', old_string: '', new_string: 'y' });
        strict_1.default.match(again.invalid ?? '', /Cannot create new file - file already exists/);
    });
    (0, node_test_1.it)('a missing file with a non-empty old_string', async () => {
        const r = await new tools_harness_1.ToolSession(dir).run(edit_1.EditTool, { file_path: 'e/missing.ts', old_string: 'a', new_string: 'b' });
        strict_1.default.match(r.invalid ?? '', /^File does not exist: e\/missing\.ts/);
    });
    (0, node_test_1.it)('keeps CRLF line endings; $-patterns in new_string are literal', async () => {
        await (0, tools_harness_1.writeTree)(dir, { 'e/crlf.txt': 'one\r\ntwo\r\nthree\r\n' });
        const s = new tools_harness_1.ToolSession(dir);
        await s.run(read_1.ReadTool, { file_path: 'e/crlf.txt' });
        const r = await s.run(edit_1.EditTool, { file_path: 'e/crlf.txt', old_string: 'one\ntwo', new_string: "1 $& $' 2" });
        strict_1.default.equal(r.isError, false, r.text);
        strict_1.default.equal(await node_fs_1.promises.readFile(path.join(dir, 'e/crlf.txt'), 'utf8'), "1 $& $' 2\r\nthree\r\n");
    });
    (0, node_test_1.it)('declarations', () => {
        const input = { file_path: 'x.ts', old_string: 'a', new_string: 'b' };
        strict_1.default.equal(edit_1.EditTool.isReadOnly(input), false);
        strict_1.default.equal(edit_1.EditTool.isConcurrencySafe(input), false);
        strict_1.default.equal(edit_1.EditTool.isIdempotent(input), false);
        strict_1.default.equal(edit_1.EditTool.getPath?.(input), 'x.ts');
        strict_1.default.equal(edit_1.EditTool.summary(input), 'Edit x.ts');
        strict_1.default.equal(edit_1.EditTool.maxResultSizeChars, 100_000);
    });
});
//# sourceMappingURL=tools-write-edit.test.js.map