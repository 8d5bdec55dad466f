import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EditTool } from '../../src/tools/edit';
import { ReadTool } from '../../src/tools/read';
import { WriteTool } from '../../src/tools/write';
import { makeTmpDir, removeDir, ToolSession, writeTree } from './tools-harness';

let dir: string;
before(async () => {
  dir = await makeTmpDir();
});
after(() => removeDir(dir));

async function bumpMtime(abs: string): Promise<void> {
  const st = await fs.stat(abs);
  const t = new Date(st.mtimeMs + 5000);
  await fs.utimes(abs, t, t);
}

describe('Write', () => {
  it('creates a new file (and parent directories) without a read', async () => {
    const s = new ToolSession(dir);
    const r = await s.run(WriteTool, { file_path: 'w/new/file.txt', content: 'hello\n' });
    const abs = path.join(dir, 'w/new/file.txt');
    assert.equal(r.text, `File created successfully at: ${abs}`);
    assert.equal(await fs.readFile(abs, 'utf8'), 'hello\n');
    assert.equal(s.agent.readFiles[abs]?.partial, false);
    assert.equal(s.agent.readFiles[abs]?.mtimeMs, (await fs.stat(abs)).mtimeMs);
  });

  it('overwriting an existing file needs a prior read', async () => {
    await writeTree(dir, { 'w/existing.txt': 'old\n' });
    const s = new ToolSession(dir);
    const r = await s.run(WriteTool, { file_path: 'w/existing.txt', content: 'new\n' });
    assert.match(r.invalid ?? '', /has not been read yet/);
    assert.equal(await fs.readFile(path.join(dir, 'w/existing.txt'), 'utf8'), 'old\n');
    await s.run(ReadTool, { file_path: 'w/existing.txt' });
    const ok = await s.run(WriteTool, { file_path: 'w/existing.txt', content: 'new\n' });
    assert.equal(ok.text, `The file ${path.join(dir, 'w/existing.txt')} has been updated successfully.`);
    assert.equal(await fs.readFile(path.join(dir, 'w/existing.txt'), 'utf8'), 'new\n');
    // The write itself counts as knowing the file: a second write needs no new read.
    const again = await s.run(WriteTool, { file_path: 'w/existing.txt', content: 'newer\n' });
    assert.equal(again.isError, false);
  });

  it('a partial read does not allow an overwrite', async () => {
    await writeTree(dir, { 'w/partial.txt': 'a\nb\nc\n' });
    const s = new ToolSession(dir);
    await s.run(ReadTool, { file_path: 'w/partial.txt', limit: 1 });
    const r = await s.run(WriteTool, { file_path: 'w/partial.txt', content: 'x' });
    assert.match(r.invalid ?? '', /partially read/);
  });

  it('a file modified since the read must be read again', async () => {
    await writeTree(dir, { 'w/mod.txt': 'v1\n' });
    const s = new ToolSession(dir);
    await s.run(ReadTool, { file_path: 'w/mod.txt' });
    await fs.writeFile(path.join(dir, 'w/mod.txt'), 'v2 by someone else\n');
    await bumpMtime(path.join(dir, 'w/mod.txt'));
    const r = await s.run(WriteTool, { file_path: 'w/mod.txt', content: 'mine\n' });
    assert.match(r.invalid ?? '', /modified since it was read/);
  });

  it('is idempotent: re-running a Write whose effect already landed succeeds without writing', async () => {
    const s = new ToolSession(dir);
    const first = await s.run(WriteTool, { file_path: 'w/idem.txt', content: 'same\n' });
    assert.equal(first.data.type, 'create');
    // A retry with the context from before the first attempt (modifier never applied).
    const fresh = new ToolSession(dir);
    const retry = await fresh.run(WriteTool, { file_path: 'w/idem.txt', content: 'same\n' });
    assert.equal(retry.isError, false);
    assert.equal(retry.data.unchanged, true);
    assert.match(retry.text, /already had exactly this content/);
    assert.equal(WriteTool.isIdempotent({ file_path: 'x', content: '' }), true);
  });

  it('call() re-checks the read state (time passes between validation and call)', async () => {
    await writeTree(dir, { 'w/toctou.txt': 'v1\n' });
    const s = new ToolSession(dir);
    await s.run(ReadTool, { file_path: 'w/toctou.txt' });
    const input = { file_path: 'w/toctou.txt', content: 'mine\n' };
    const { makeContext } = await import('./tools-harness');
    const ctx = makeContext(s.agent);
    assert.deepEqual(await WriteTool.validateInput!(input, ctx), { result: true });
    await fs.writeFile(path.join(dir, 'w/toctou.txt'), 'changed meanwhile\n');
    await bumpMtime(path.join(dir, 'w/toctou.txt'));
    await assert.rejects(
      WriteTool.call(input, ctx, () => {}),
      /modified since it was read/,
    );
    assert.equal(await fs.readFile(path.join(dir, 'w/toctou.txt'), 'utf8'), 'changed meanwhile\n');
  });

  it('refuses a directory; declarations', async () => {
    await fs.mkdir(path.join(dir, 'w/adir'), { recursive: true });
    const r = await new ToolSession(dir).run(WriteTool, { file_path: 'w/adir', content: 'x' });
    assert.match(r.invalid ?? '', /EISDIR/);
    const input = { file_path: 'a', content: 'b\nc' };
    assert.equal(WriteTool.isReadOnly(input), false);
    assert.equal(WriteTool.isConcurrencySafe(input), false);
    assert.equal(WriteTool.getPath?.(input), 'a');
    assert.equal(WriteTool.summary(input), 'Write a (2 lines)');
    assert.equal(WriteTool.maxResultSizeChars, 100_000);
  });
});

describe('Edit', () => {
  const fileText = 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 1;\n}\n';

  it('replaces a unique string and shows a numbered snippet', async () => {
    await writeTree(dir, { 'e/unique.ts': fileText });
    const s = new ToolSession(dir);
    await s.run(ReadTool, { file_path: 'e/unique.ts' });
    const r = await s.run(EditTool, {
      file_path: 'e/unique.ts',
      old_string: 'function b() {\n  return 1;',
      new_string: 'function b() {\n  return 2;',
    });
    assert.equal(r.isError, false, r.text);
    const abs = path.join(dir, 'e/unique.ts');
    assert.equal(await fs.readFile(abs, 'utf8'), fileText.replace('b() {\n  return 1;', 'b() {\n  return 2;'));
    assert.match(
      r.text,
      /^The file .*unique\.ts has been updated\. Here's the result of running `cat -n` on a snippet of the edited file:\n/,
    );
    assert.match(r.text, /     5\tfunction b\(\) \{\n     6\t  return 2;\n     7\t\}/);
    assert.match(r.text, /     1\tfunction a/); // 4 lines of context before line 5
    assert.equal(s.agent.readFiles[abs]?.mtimeMs, (await fs.stat(abs)).mtimeMs);
    // The edit's own modifier lets a second edit proceed without re-reading.
    const r2 = await s.run(EditTool, { file_path: 'e/unique.ts', old_string: 'function a', new_string: 'function aa' });
    assert.equal(r2.isError, false, r2.text);
  });

  it('more than one match: error with the count unless replace_all', async () => {
    await writeTree(dir, { 'e/multi.ts': fileText });
    const s = new ToolSession(dir);
    await s.run(ReadTool, { file_path: 'e/multi.ts' });
    const r = await s.run(EditTool, { file_path: 'e/multi.ts', old_string: 'return 1;', new_string: 'return 0;' });
    assert.match(r.invalid ?? '', /^Found 2 matches of the string to replace, but replace_all is false\./);
    assert.match(r.invalid ?? '', /set replace_all to true/);
    const all = await s.run(EditTool, {
      file_path: 'e/multi.ts',
      old_string: 'return 1;',
      new_string: 'return 0;',
      replace_all: true,
    });
    assert.equal(all.isError, false);
    assert.equal(all.data.replacements, 2);
    assert.match(all.text, /All 2 occurrences of old_string were replaced/);
    assert.equal((await fs.readFile(path.join(dir, 'e/multi.ts'), 'utf8')).match(/return 0;/g)?.length, 2);
  });

  it('not found, identical strings', async () => {
    await writeTree(dir, { 'e/nf.ts': fileText });
    const s = new ToolSession(dir);
    await s.run(ReadTool, { file_path: 'e/nf.ts' });
    const r = await s.run(EditTool, { file_path: 'e/nf.ts', old_string: 'nope', new_string: 'x' });
    assert.equal(r.invalid, 'String to replace not found in file.\nString: nope');
    const same = await s.run(EditTool, { file_path: 'e/nf.ts', old_string: 'a', new_string: 'a' });
    assert.match(same.invalid ?? '', /old_string and new_string are exactly the same/);
  });

  it('requires a full, current read', async () => {
    await writeTree(dir, { 'e/rs.ts': fileText });
    const s = new ToolSession(dir);
    const edit = { file_path: 'e/rs.ts', old_string: 'function a', new_string: 'function z' };
    assert.match((await s.run(EditTool, edit)).invalid ?? '', /has not been read yet/);
    await s.run(ReadTool, { file_path: 'e/rs.ts', offset: 1, limit: 3 });
    assert.match((await s.run(EditTool, edit)).invalid ?? '', /partially read/);
    await s.run(ReadTool, { file_path: 'e/rs.ts' });
    await fs.appendFile(path.join(dir, 'e/rs.ts'), '// linter\n');
    await bumpMtime(path.join(dir, 'e/rs.ts'));
    assert.match((await s.run(EditTool, edit)).invalid ?? '', /modified since it was read/);
    await s.run(ReadTool, { file_path: 'e/rs.ts' });
    assert.equal((await s.run(EditTool, edit)).isError, false);
    assert.match(await fs.readFile(path.join(dir, 'e/rs.ts'), 'utf8'), /function z\(\)[\s\S]*\/\/ linter/);
  });

  it('empty old_string creates a missing file; refuses an existing non-empty one', async () => {
    const s = new ToolSession(dir);
    const r = await s.run(EditTool, {
      file_path: 'e/created/new.ts',
      old_string: '',
      new_string: 'export const x = 1;\n',
    });
    assert.equal(r.text, `File created successfully at: ${path.join(dir, 'e/created/new.ts')}`);
    assert.equal(await fs.readFile(path.join(dir, 'e/created/new.ts'), 'utf8'), 'export const x = 1;\n');
    const again = await s.run(EditTool, { file_path: 'e/created/new.ts', old_string: '', new_string: 'y' });
    assert.match(again.invalid ?? '', /Cannot create new file - file already exists/);
  });

  it('a missing file with a non-empty old_string', async () => {
    const r = await new ToolSession(dir).run(EditTool, { file_path: 'e/missing.ts', old_string: 'a', new_string: 'b' });
    assert.match(r.invalid ?? '', /^File does not exist: e\/missing\.ts/);
  });

  it('keeps CRLF line endings; $-patterns in new_string are literal', async () => {
    await writeTree(dir, { 'e/crlf.txt': 'one\r\ntwo\r\nthree\r\n' });
    const s = new ToolSession(dir);
    await s.run(ReadTool, { file_path: 'e/crlf.txt' });
    const r = await s.run(EditTool, { file_path: 'e/crlf.txt', old_string: 'one\ntwo', new_string: "1 $& $' 2" });
    assert.equal(r.isError, false, r.text);
    assert.equal(await fs.readFile(path.join(dir, 'e/crlf.txt'), 'utf8'), "1 $& $' 2\r\nthree\r\n");
  });

  it('declarations', () => {
    const input = { file_path: 'x.ts', old_string: 'a', new_string: 'b' };
    assert.equal(EditTool.isReadOnly(input), false);
    assert.equal(EditTool.isConcurrencySafe(input), false);
    assert.equal(EditTool.isIdempotent(input), false);
    assert.equal(EditTool.getPath?.(input), 'x.ts');
    assert.equal(EditTool.summary(input), 'Edit x.ts');
    assert.equal(EditTool.maxResultSizeChars, 100_000);
  });
});
