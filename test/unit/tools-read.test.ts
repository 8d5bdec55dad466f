import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ReadTool } from '../../src/tools/read';
import { makeTmpDir, removeDir, ToolSession, writeTree } from './tools-harness';

let dir: string;
before(async () => {
  dir = await makeTmpDir();
  const many = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
  await writeTree(dir, {
    'a.txt': 'alpha\nbeta\ngamma\n',
    'noeol.txt': 'one\ntwo',
    'crlf.txt': 'one\r\ntwo\r\n',
    'empty.txt': '',
    'many.txt': many,
    'long.txt': `${'x'.repeat(5000)}\nshort\n`,
    'sub/inner.ts': 'export {};\n',
    'Readme.md': '# hi\n',
  });
  await fs.writeFile(path.join(dir, 'bin.dat'), Buffer.from([0x41, 0x00, 0x42, 0x0a]));
});
after(() => removeDir(dir));

describe('Read', () => {
  it('returns cat -n style lines and a full-read modifier', async () => {
    const s = new ToolSession(dir);
    const r = await s.run(ReadTool, { file_path: 'a.txt' });
    assert.equal(r.text, '     1\talpha\n     2\tbeta\n     3\tgamma');
    assert.equal(r.isError, false);
    const abs = path.join(dir, 'a.txt');
    const st = await fs.stat(abs);
    assert.deepEqual(s.agent.readFiles[abs], { mtimeMs: st.mtimeMs, partial: false });
    assert.equal(r.data.totalLines, 3);
  });

  it('accepts absolute paths; last line without newline; CRLF shown without \\r', async () => {
    const s = new ToolSession('/');
    assert.equal((await s.run(ReadTool, { file_path: path.join(dir, 'noeol.txt') })).text, '     1\tone\n     2\ttwo');
    assert.equal((await s.run(ReadTool, { file_path: path.join(dir, 'crlf.txt') })).text, '     1\tone\n     2\ttwo');
  });

  it('offset and limit give a page and a partial read', async () => {
    const s = new ToolSession(dir);
    const r = await s.run(ReadTool, { file_path: 'a.txt', offset: 2, limit: 1 });
    assert.match(
      r.text,
      /^ {5}2\tbeta\n\n<system-reminder>Showing lines 2-2 of 3\. To read more, call Read with offset: 3\.<\/system-reminder>$/,
    );
    assert.equal(s.agent.readFiles[path.join(dir, 'a.txt')]?.partial, true);
    // offset + limit that reach the end: still partial (line 1 not seen)
    const r2 = await s.run(ReadTool, { file_path: 'a.txt', offset: 2 });
    assert.equal(r2.data.partial, true);
    // A full read afterwards makes it complete.
    await s.run(ReadTool, { file_path: 'a.txt' });
    assert.equal(s.agent.readFiles[path.join(dir, 'a.txt')]?.partial, false);
  });

  it('defaults to 2000 lines with a continuation notice', async () => {
    const s = new ToolSession(dir);
    const r = await s.run(ReadTool, { file_path: 'many.txt' });
    assert.equal(r.data.numLines, 2000);
    assert.equal(r.data.totalLines, 2500);
    assert.equal(r.data.partial, true);
    assert.match(
      r.text,
      /  2000\tline 2000\n\n<system-reminder>Showing lines 1-2000 of 2500\. To read more, call Read with offset: 2001\./,
    );
    const next = await s.run(ReadTool, { file_path: 'many.txt', offset: 2001 });
    assert.equal(next.data.numLines, 500);
    assert.match(next.text, /^  2001\tline 2001\n/);
    assert.doesNotMatch(next.text, /system-reminder/);
    // an explicit large limit reads it whole: a full read
    const whole = await s.run(ReadTool, { file_path: 'many.txt', limit: 3000 });
    assert.equal(whole.data.partial, false);
  });

  it('cuts lines longer than 2000 characters', async () => {
    const s = new ToolSession(dir);
    const r = await s.run(ReadTool, { file_path: 'long.txt' });
    const first = r.text.split('\n')[0] as string;
    assert.equal(first, `     1\t${'x'.repeat(2000)}… [line truncated]`);
    assert.match(r.text, /     2\tshort/);
    assert.match(r.text, /1 line\(s\) longer than 2000 characters were cut/);
    assert.equal(r.data.truncatedLines, 1);
  });

  it('empty file: a warning, not an error', async () => {
    const s = new ToolSession(dir);
    const r = await s.run(ReadTool, { file_path: 'empty.txt' });
    assert.equal(r.isError, false);
    assert.equal(r.text, '<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>');
    assert.equal(s.agent.readFiles[path.join(dir, 'empty.txt')]?.partial, false);
  });

  it('offset past the end: a warning, not an error', async () => {
    const s = new ToolSession(dir);
    const r = await s.run(ReadTool, { file_path: 'a.txt', offset: 10 });
    assert.equal(r.isError, false);
    assert.equal(r.invalid, undefined);
    assert.match(r.text, /shorter than the provided offset \(10\)\. The file has 3 lines\./);
  });

  it('a directory is a validation error', async () => {
    const r = await new ToolSession(dir).run(ReadTool, { file_path: 'sub' });
    assert.match(r.invalid ?? '', /^EISDIR: sub is a directory/);
  });

  it('a missing file is a validation error with a suggestion', async () => {
    const s = new ToolSession(dir);
    const r = await s.run(ReadTool, { file_path: 'readme.md' });
    assert.match(r.invalid ?? '', /^File does not exist: readme\.md/);
    assert.match(r.invalid ?? '', /Did you mean .*Readme\.md\?/);
    const r2 = await s.run(ReadTool, { file_path: 'nothing/here.txt' });
    assert.match(r2.invalid ?? '', /^File does not exist: nothing\/here\.txt/);
  });

  it('binary files are refused', async () => {
    const r = await new ToolSession(dir).run(ReadTool, { file_path: 'bin.dat' });
    assert.match(r.invalid ?? '', /cannot read binary files/);
  });

  it('rejects unknown fields (strict schema) and bad numbers', async () => {
    const s = new ToolSession(dir);
    assert.match((await s.run(ReadTool, { file_path: 'a.txt', foo: 1 })).invalid ?? '', /schema/);
    assert.match((await s.run(ReadTool, { file_path: 'a.txt', limit: 0 })).invalid ?? '', /schema/);
  });

  it('an empty file_path is a validation error (checked by validateInput: the schema has no minLength, as the reference)', async () => {
    const r = await new ToolSession(dir).run(ReadTool, { file_path: '' });
    assert.ok(r.isError);
    assert.equal(r.invalid, 'file_path must not be empty');
  });

  it('pages: refused with a clear message (PDF reading is not supported)', async () => {
    const r = await new ToolSession(dir).run(ReadTool, { file_path: 'a.txt', pages: '1-2' });
    assert.ok(r.isError);
    assert.match(r.invalid ?? '', /^pages is for PDF files, and reading PDF files is not supported here \(a\.txt\)/);
  });

  it('allow_large lifts the output budget; lines are still cut', async () => {
    const d = await makeTmpDir();
    try {
      // 200 lines of 1500 characters: 300k characters, three times the budget.
      await writeTree(d, {
        'big.txt': Array.from({ length: 200 }, (_, i) => `${i}`.padEnd(1500, 'y')).join('\n') + '\n',
      });
      const s = new ToolSession(d);
      const capped = await s.run(ReadTool, { file_path: 'big.txt' });
      assert.match(capped.text, /output budget of 100000 characters reached/);
      const large = await s.run(ReadTool, { file_path: 'big.txt', allow_large: true });
      assert.doesNotMatch(large.text, /output budget/);
      assert.ok(/\b200\t199y{1400}/.test(large.text), 'the last line is shown');
      assert.ok(large.text.length > 300_000);
    } finally {
      await removeDir(d);
    }
  });

  it('declarations', () => {
    const input = { file_path: 'a.txt' };
    assert.equal(ReadTool.isReadOnly(input), true);
    assert.equal(ReadTool.isConcurrencySafe(input), true);
    assert.equal(ReadTool.isIdempotent(input), true);
    assert.equal(ReadTool.getPath?.(input), 'a.txt');
    assert.equal(ReadTool.summary(input), 'Read a.txt');
    assert.equal(ReadTool.summary({ file_path: 'a.txt', offset: 10, limit: 5 }), 'Read a.txt (lines 10-14)');
    assert.ok(ReadTool.maxResultSizeChars > 1_000_000);
  });

  it('honours the abort signal', async () => {
    const ac = new AbortController();
    ac.abort();
    const r = await new ToolSession(dir).run(ReadTool, { file_path: 'many.txt' }, { signal: ac.signal });
    assert.ok(r.thrown);
  });
});
