import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { matchIgnore, parseIgnoreFile } from '../../src/tools/gitignore';
import { GlobTool } from '../../src/tools/glob';
import { expandBraces, globToRegExp, splitStaticPrefix } from '../../src/tools/globPattern';
import { makeTmpDir, removeDir, ToolSession, writeTree } from './tools-harness';

describe('glob pattern -> RegExp', () => {
  const cases: Array<[string, string, boolean]> = [
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
    it(`${glob} ${expected ? 'matches' : 'does not match'} ${p}`, () => {
      assert.equal(globToRegExp(glob).test(p), expected);
    });
  }
  it('expands braces, nested and literal', () => {
    assert.deepEqual(expandBraces('a{b,c}d'), ['abd', 'acd']);
    assert.deepEqual(expandBraces('{x,y{1,2}}'), ['x', 'y1', 'y2']);
    assert.deepEqual(expandBraces('no{brace'), ['no{brace']);
    assert.deepEqual(expandBraces('{single}'), ['{single}']);
  });
  it('splits the literal prefix', () => {
    assert.deepEqual(splitStaticPrefix('src/toolProtocol/**/*.ts'), { base: 'src/toolProtocol', rest: '**/*.ts' });
    assert.deepEqual(splitStaticPrefix('*.ts'), { base: '', rest: '*.ts' });
    assert.deepEqual(splitStaticPrefix('/abs/dir/*.ts'), { base: '/abs/dir', rest: '*.ts' });
  });
});

describe('gitignore rules', () => {
  const root = '/r';
  const sets = [
    {
      base: root,
      rules: parseIgnoreFile('# comment\n\nnode_modules/\n*.log\n!keep.log\n/build\ndocs/*.md\n**/tmp/**\nspaced\\ \n'),
    },
  ];
  const cases: Array<[string, boolean, boolean | undefined]> = [
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
    it(`${rel}${isDir ? '/' : ''} -> ${String(expected)}`, () => {
      assert.equal(matchIgnore(sets, path.join(root, rel), isDir), expected);
    });
  }
});

describe('Glob', () => {
  let dir: string;
  before(async () => {
    dir = await makeTmpDir();
    await writeTree(
      dir,
      {
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
      },
      {
        'a.ts': 1_000_000,
        'b.tsx': 3_000_000,
        'src/x.ts': 2_000_000,
        'src/deep/y.ts': 4_000_000,
        'src/deep/.hidden.ts': 500_000,
        'src/nested/visible.ts': 600_000,
      },
    );
    const many: Record<string, string> = {};
    for (let i = 0; i < 130; i++) many[`many/f${String(i).padStart(3, '0')}.txt`] = '';
    await writeTree(dir, many);
  });
  after(() => removeDir(dir));

  it('** and mtime order (newest first), absolute paths, .gitignore respected', async () => {
    const r = await new ToolSession(dir).run(GlobTool, { pattern: '**/*.ts' });
    assert.equal(r.isError, false);
    const expected = ['src/deep/y.ts', 'src/x.ts', 'a.ts', 'src/nested/visible.ts', 'src/deep/.hidden.ts'].map((p) =>
      path.join(dir, p),
    );
    assert.deepEqual(r.data.filenames, expected);
    assert.equal(r.text, expected.join('\n'));
  });

  it('{a,b} alternatives; "*.ts" is top level only', async () => {
    const s = new ToolSession(dir);
    const r = await s.run(GlobTool, { pattern: '*.{ts,tsx}' });
    assert.deepEqual(r.data.filenames, [path.join(dir, 'b.tsx'), path.join(dir, 'a.ts')]);
    const top = await s.run(GlobTool, { pattern: '*.ts' });
    assert.deepEqual(top.data.filenames, [path.join(dir, 'a.ts')]);
  });

  it('path narrows the search; relative and absolute', async () => {
    const s = new ToolSession(dir);
    const r = await s.run(GlobTool, { pattern: '**/*.ts', path: 'src/deep' });
    assert.deepEqual(r.data.filenames, [path.join(dir, 'src/deep/y.ts'), path.join(dir, 'src/deep/.hidden.ts')]);
    const abs = await new ToolSession('/').run(GlobTool, { pattern: '*.ts', path: path.join(dir, 'src') });
    assert.deepEqual(abs.data.filenames, [path.join(dir, 'src/x.ts')]);
    const up = await new ToolSession(path.join(dir, 'src/deep')).run(GlobTool, { pattern: '../*.ts' });
    assert.deepEqual(up.data.filenames, [path.join(dir, 'src/x.ts')]);
    const absPattern = await new ToolSession('/').run(GlobTool, { pattern: path.join(dir, 'src/deep/*.ts') });
    assert.equal(absPattern.data.filenames[0], path.join(dir, 'src/deep/y.ts'));
  });

  it('caps at 100 with a truncation notice', async () => {
    const r = await new ToolSession(dir).run(GlobTool, { pattern: 'many/*.txt' });
    assert.equal(r.data.numFiles, 100);
    assert.equal(r.data.totalMatches, 130);
    assert.equal(r.data.truncated, true);
    assert.match(r.text, /\(Results are truncated: showing the 100 most recently modified of 130 matching files\./);
  });

  it('no match, missing path, file as path', async () => {
    const s = new ToolSession(dir);
    assert.equal((await s.run(GlobTool, { pattern: '**/*.rs' })).text, 'No files found');
    assert.equal((await s.run(GlobTool, { pattern: '*', path: 'nope' })).invalid, 'Path does not exist: nope');
    assert.equal((await s.run(GlobTool, { pattern: '*', path: 'a.ts' })).invalid, 'Path is not a directory: a.ts');
  });

  it('ignored files are not found even when named explicitly', async () => {
    const s = new ToolSession(dir);
    assert.equal((await s.run(GlobTool, { pattern: 'node_modules/**/*.ts' })).text, 'No files found');
    assert.equal((await s.run(GlobTool, { pattern: '*.log' })).text, 'No files found');
    assert.equal((await s.run(GlobTool, { pattern: '.git/*' })).text, 'No files found');
  });

  it('declarations', () => {
    const input = { pattern: '**/*.ts', path: 'src' };
    assert.equal(GlobTool.isReadOnly(input), true);
    assert.equal(GlobTool.isConcurrencySafe(input), true);
    assert.equal(GlobTool.getPath?.(input), 'src');
    assert.equal(GlobTool.getPath?.({ pattern: '*.ts' }), '.');
    assert.equal(GlobTool.getPath?.({ pattern: '/abs/x/**' }), '/abs/x');
    assert.equal(GlobTool.summary(input), 'Glob "**/*.ts" in src');
    assert.equal(GlobTool.maxResultSizeChars, 100_000);
  });
});
