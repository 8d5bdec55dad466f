import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GrepTool } from '../../src/tools/grep';
import { compileJsRegex, isRipgrepAvailable, splitGlobs } from '../../src/tools/grepEngine';
import { makeTmpDir, removeDir, ToolSession, writeTree } from './tools-harness';
import { requireSystemPackage } from '../support/systemPackages';

let dir: string;
before(async () => {
  dir = await makeTmpDir();
  await writeTree(
    dir,
    {
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
    },
    {
      'src/auth.ts': 4_000_000,
      'src/remote/ws.ts': 3_000_000,
      'src/remote/adapter.ts': 2_000_000,
      'docs/readme.md': 1_000_000,
      '.hidden/h.ts': 500_000,
      'multi.txt': 400_000,
      'ctx.txt': 300_000,
    },
  );
  await fs.writeFile(path.join(dir, 'bin.dat'), Buffer.from('login\0binary\n'));
  await fs.utimes(path.join(dir, 'bin.dat'), 5_000_000, 5_000_000);
});
after(() => {
  delete process.env.DURABLE_AGENT_GREP_ENGINE;
  return removeDir(dir);
});

const ripgrep = requireSystemPackage({
  command: 'rg',
  debianPackage: 'ripgrep',
  usedBy: "Grep's ripgrep engine tests (tools-grep.test)",
  probe: () => (isRipgrepAvailable() ? 'rg' : undefined),
});

async function grep(engine: 'rg' | 'js', input: Record<string, unknown>, cwd = dir) {
  process.env.DURABLE_AGENT_GREP_ENGINE = engine;
  try {
    return await new ToolSession(cwd).run(GrepTool, input);
  } finally {
    delete process.env.DURABLE_AGENT_GREP_ENGINE;
  }
}

for (const engine of ['rg', 'js'] as const) {
  const skip = engine === 'rg' ? ripgrep.skip : false;
  describe(`Grep (${engine === 'rg' ? 'ripgrep' : 'JavaScript fallback'})`, { skip }, () => {
    if (engine === 'rg') it('ripgrep is installed', () => ripgrep.assert());
    it('uses the requested engine', async () => {
      const r = await grep(engine, { pattern: 'login' });
      assert.equal(r.data.engine, engine === 'rg' ? 'ripgrep' : 'javascript');
    });

    it('files_with_matches: relative paths, newest first, .gitignore and binaries skipped, hidden searched', async () => {
      const r = await grep(engine, { pattern: 'login|auth', path: 'src/remote' });
      assert.equal(r.text, 'Found 2 files\nsrc/remote/ws.ts\nsrc/remote/adapter.ts');
      const all = await grep(engine, { pattern: 'login' });
      assert.equal(all.text, 'Found 4 files\nsrc/auth.ts\nsrc/remote/ws.ts\ndocs/readme.md\n.hidden/h.ts');
    });

    it('content: path:line:text, -n defaults to true, -n false drops numbers', async () => {
      const r = await grep(engine, { pattern: 'login', output_mode: 'content', path: 'src' });
      assert.equal(r.text, 'src/auth.ts:2:export function login() {\nsrc/remote/ws.ts:2:login();');
      const nn = await grep(engine, { pattern: 'login', output_mode: 'content', path: 'src', '-n': false });
      assert.equal(nn.text, 'src/auth.ts:export function login() {\nsrc/remote/ws.ts:login();');
    });

    it('-i is case-insensitive', async () => {
      const r = await grep(engine, { pattern: 'login', output_mode: 'content', path: 'src', '-i': true });
      assert.equal(
        r.text,
        'src/auth.ts:2:export function login() {\nsrc/auth.ts:5:// LOGIN done\nsrc/remote/ws.ts:1:const LOGIN = 1;\nsrc/remote/ws.ts:2:login();',
      );
    });

    it('context lines: -A/-B/-C with "--" between groups', async () => {
      const c = await grep(engine, { pattern: 'hit', output_mode: 'content', path: 'ctx.txt', '-C': 1 });
      assert.equal(c.text, 'ctx.txt-2-b\nctx.txt:3:hit1\nctx.txt-4-c\n--\nctx.txt-7-f\nctx.txt:8:hit2\nctx.txt-9-g');
      const a = await grep(engine, { pattern: 'hit1', output_mode: 'content', path: 'ctx.txt', '-A': 2 });
      assert.equal(a.text, 'ctx.txt:3:hit1\nctx.txt-4-c\nctx.txt-5-d');
      const b = await grep(engine, { pattern: 'hit2', output_mode: 'content', path: 'ctx.txt', '-B': 4 });
      assert.equal(b.text, 'ctx.txt-4-c\nctx.txt-5-d\nctx.txt-6-e\nctx.txt-7-f\nctx.txt:8:hit2');
      // Overlapping context merges into one group.
      const m = await grep(engine, { pattern: 'hit', output_mode: 'content', path: 'ctx.txt', '-C': 2 });
      assert.equal(m.text.split('\n').filter((l: string) => l === '--').length, 0);
    });

    it('count: per-file counts and a total over every file even when paginated', async () => {
      const r = await grep(engine, { pattern: 'login', output_mode: 'count', '-i': true });
      assert.equal(
        r.text,
        'src/auth.ts:2\nsrc/remote/ws.ts:2\ndocs/readme.md:1\n.hidden/h.ts:1\n\nFound 6 total occurrences across 4 files.',
      );
      const cut = await grep(engine, { pattern: 'login', output_mode: 'count', '-i': true, head_limit: 1, offset: 1 });
      assert.equal(cut.data.totalMatches, 6);
      assert.deepEqual(cut.data.lines, ['src/remote/ws.ts:2']);
      assert.match(cut.text, /Found 6 total occurrences across 4 files\./);
      assert.match(cut.text, /\[Showing files 2-2 of 4 \(head_limit: 1, offset: 1\)\. Use offset: 2 to see more\.\]/);
      // counts matches, not lines
      const twice = await grep(engine, { pattern: 'o', output_mode: 'count', path: 'docs/readme.md' });
      assert.equal(twice.data.lines[0], 'docs/readme.md:2');
    });

    it('head_limit and offset paginate files and content lines', async () => {
      const r = await grep(engine, { pattern: 'login', head_limit: 2 });
      assert.equal(
        r.text,
        'Found 4 files\nsrc/auth.ts\nsrc/remote/ws.ts\n\n[Showing files 1-2 of 4 (head_limit: 2, offset: 0). Use offset: 2 to see more.]',
      );
      const p2 = await grep(engine, { pattern: 'login', head_limit: 2, offset: 2 });
      assert.equal(
        p2.text,
        'Found 4 files\ndocs/readme.md\n.hidden/h.ts\n\n[Showing files 3-4 of 4 (head_limit: 2, offset: 2).]',
      );
      const content = await grep(engine, { pattern: 'login', output_mode: 'content', '-i': true, head_limit: 3 });
      assert.equal(content.data.lines.length, 3);
      assert.equal(content.data.totalEntries, 6);
      assert.match(content.text, /\[Showing lines 1-3 of 6/);
      const unlimited = await grep(engine, { pattern: 'login', head_limit: 0 });
      assert.equal(unlimited.data.filenames.length, 4);
      assert.doesNotMatch(unlimited.text, /Showing/);
    });

    it('glob and type filters', async () => {
      assert.equal((await grep(engine, { pattern: 'login', glob: '*.md' })).text, 'Found 1 file\ndocs/readme.md');
      assert.equal(
        (await grep(engine, { pattern: 'login', glob: 'src/**/*.ts' })).text,
        'Found 2 files\nsrc/auth.ts\nsrc/remote/ws.ts',
      );
      assert.equal((await grep(engine, { pattern: 'login', glob: '*.{md,txt}' })).text, 'Found 1 file\ndocs/readme.md');
      assert.equal(
        (await grep(engine, { pattern: 'login', glob: '!*.md' })).text,
        'Found 3 files\nsrc/auth.ts\nsrc/remote/ws.ts\n.hidden/h.ts',
      );
      assert.equal((await grep(engine, { pattern: 'login', type: 'md' })).text, 'Found 1 file\ndocs/readme.md');
      assert.equal(
        (await grep(engine, { pattern: 'login', type: 'ts' })).text,
        'Found 3 files\nsrc/auth.ts\nsrc/remote/ws.ts\n.hidden/h.ts',
      );
      // ripgrep's rule: a glob that selects a file beats .gitignore
      assert.equal((await grep(engine, { pattern: 'login', glob: '*.log' })).text, 'Found 1 file\napp.log');
    });

    it('-o shows only the matched parts, one per line; context is left out', async () => {
      const r = await grep(engine, {
        pattern: 'log[a-z]+',
        output_mode: 'content',
        path: 'src',
        '-i': true,
        '-o': true,
      });
      assert.equal(
        r.text,
        'src/auth.ts:2:login\nsrc/auth.ts:5:LOGIN\nsrc/remote/ws.ts:1:LOGIN\nsrc/remote/ws.ts:2:login',
      );
      const two = await grep(engine, {
        pattern: 'hit[0-9]|[a-c]',
        output_mode: 'content',
        path: 'ctx.txt',
        '-o': true,
        '-C': 3,
      });
      assert.equal(two.text, 'ctx.txt:1:a\nctx.txt:2:b\nctx.txt:3:hit1\nctx.txt:4:c\nctx.txt:8:hit2');
      const nn = await grep(engine, {
        pattern: 'ret[a-z]+',
        output_mode: 'content',
        path: 'src/auth.ts',
        '-o': true,
        '-n': false,
      });
      assert.equal(nn.text, 'src/auth.ts:return');
      const ml = await grep(engine, {
        pattern: 'dle\\nen',
        multiline: true,
        output_mode: 'content',
        path: 'multi.txt',
        '-o': true,
      });
      assert.equal(ml.text, 'multi.txt:2:dle\nen');
      // Outside content mode -o changes nothing.
      const files = await grep(engine, { pattern: 'login', '-o': true, path: 'src' });
      assert.equal(files.text, (await grep(engine, { pattern: 'login', path: 'src' })).text);
    });

    it('context is -C by another name, and wins over it', async () => {
      const c = await grep(engine, { pattern: 'hit1', output_mode: 'content', path: 'ctx.txt', context: 1 });
      assert.equal(c.text, 'ctx.txt-2-b\nctx.txt:3:hit1\nctx.txt-4-c');
      const both = await grep(engine, {
        pattern: 'hit1',
        output_mode: 'content',
        path: 'ctx.txt',
        context: 0,
        '-C': 1,
      });
      assert.equal(both.text, 'ctx.txt:3:hit1');
    });

    it('multiline matches span lines', async () => {
      const r = await grep(engine, { pattern: 'start.*end', multiline: true, output_mode: 'content' });
      assert.equal(r.text, 'multi.txt:1:start\nmulti.txt:2:middle\nmulti.txt:3:end');
      const no = await grep(engine, { pattern: 'start.*end' });
      assert.equal(no.text, 'No files found');
      const count = await grep(engine, { pattern: 'start\\nmiddle', multiline: true, output_mode: 'count' });
      assert.equal(count.data.totalMatches, 1);
    });

    it('no matches', async () => {
      assert.equal((await grep(engine, { pattern: 'zzz' })).text, 'No files found');
      assert.equal((await grep(engine, { pattern: 'zzz', output_mode: 'content' })).text, 'No matches found');
      assert.equal((await grep(engine, { pattern: 'zzz', output_mode: 'count' })).text, 'No matches found');
    });

    it('an invalid regex is an error carrying the engine message', async () => {
      const r = await grep(engine, { pattern: 'a(', output_mode: 'content' });
      assert.ok(r.thrown, 'call() throws');
      assert.match(r.text, /^Invalid regular expression: /);
      assert.match(r.text, engine === 'rg' ? /unclosed group/ : /Unterminated group/);
    });

    it('a file path searches that file; paths outside cwd are absolute', async () => {
      const r = await grep(engine, { pattern: 'auth', path: 'src/auth.ts', output_mode: 'content' });
      assert.equal(r.text, 'src/auth.ts:3:  return auth();');
      const outside = await grep(
        engine,
        { pattern: 'auth', path: path.join(dir, 'src/auth.ts') },
        path.join(dir, 'docs'),
      );
      assert.equal(outside.text, `Found 1 file\n${path.join(dir, 'src/auth.ts')}`);
    });

    it('an empty pattern matches every line and ends, also on characters outside the BMP', async () => {
      const d = await makeTmpDir();
      try {
        await writeTree(d, { 'emoji.txt': 'a 🌍 b\n🌍\n' }, {});
        const r = await grep(engine, { pattern: '', path: 'emoji.txt', output_mode: 'content', '-n': true }, d);
        assert.equal(r.text, 'emoji.txt:1:a 🌍 b\nemoji.txt:2:🌍');
      } finally {
        await removeDir(d);
      }
    });

    it('a missing path is a validation error', async () => {
      const r = await grep(engine, { pattern: 'x', path: 'no/such' });
      assert.equal(r.invalid, 'Path does not exist: no/such');
    });

    it('honours the abort signal', async () => {
      const ac = new AbortController();
      ac.abort();
      process.env.DURABLE_AGENT_GREP_ENGINE = engine;
      try {
        const r = await new ToolSession(dir).run(GrepTool, { pattern: 'login' }, { signal: ac.signal });
        assert.ok(r.thrown);
      } finally {
        delete process.env.DURABLE_AGENT_GREP_ENGINE;
      }
    });
  });
}

describe('Grep: ripgrep and the JavaScript fallback give the same output', { skip: ripgrep.skip }, () => {
  const inputs: Array<Record<string, unknown>> = [
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
    it(JSON.stringify(input), async () => {
      const rg = await grep('rg', input);
      const js = await grep('js', input);
      assert.equal(rg.data?.engine, 'ripgrep');
      assert.equal(js.data?.engine, 'javascript');
      assert.equal(js.text, rg.text);
    });
  }
});

describe('Grep helpers and declarations', () => {
  it('splits glob lists like the reference', () => {
    assert.deepEqual(splitGlobs('*.ts,*.tsx'), ['*.ts', '*.tsx']);
    assert.deepEqual(splitGlobs('*.{ts,tsx} !*.test.ts'), ['*.{ts,tsx}', '!*.test.ts']);
    assert.deepEqual(splitGlobs(undefined), []);
  });

  it('translates common Rust regex syntax for the JS engine', () => {
    assert.ok(compileJsRegex('(?i)abc', { caseInsensitive: false, multiline: false }).test('ABC'));
    assert.ok(compileJsRegex('(?P<x>a)b', { caseInsensitive: false, multiline: false }).test('ab'));
  });

  it('unknown type is a validation error', async () => {
    const r = await new ToolSession(dir).run(GrepTool, { pattern: 'x', type: 'klingon' });
    assert.match(r.invalid ?? '', /^Unknown file type "klingon"\. Known types: .*\bts\b/);
  });

  it('-A/-B/-C/context/head_limit/offset must be whole numbers >= 0 (numbers in the schema, as the reference)', async () => {
    for (const f of ['-A', '-B', '-C', 'context', 'head_limit', 'offset']) {
      for (const bad of [1.5, -1]) {
        const r = await new ToolSession(dir).run(GrepTool, { pattern: 'x', [f]: bad });
        assert.ok(r.isError, `${f}: ${bad}`);
        assert.equal(r.invalid, `${f} must be a whole number >= 0 (got ${bad})`);
      }
    }
    const ok = await new ToolSession(dir).run(GrepTool, { pattern: 'login', head_limit: 0, offset: 0, context: 2 });
    assert.equal(ok.invalid, undefined);
  });

  it('declarations', () => {
    const input = { pattern: 'login|auth', path: 'src/remote' };
    assert.equal(GrepTool.isReadOnly(input), true);
    assert.equal(GrepTool.isConcurrencySafe(input), true);
    assert.equal(GrepTool.isIdempotent(input), true);
    assert.equal(GrepTool.getPath?.(input), 'src/remote');
    assert.equal(GrepTool.getPath?.({ pattern: 'x' }), '.');
    assert.equal(GrepTool.summary(input), 'Grep "login|auth" in src/remote');
    assert.equal(GrepTool.maxResultSizeChars, 20_000);
  });
});
