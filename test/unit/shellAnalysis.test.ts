// unit: the shell analysis behind Bash rules — words evaluated like bash does (quotes, $'…',
// braces, ~, globs), certainty, commands found at every depth, and the matchers built on them.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadShellParser } from '../../src/permissions/bashParser';
import { analyzeShell, suspiciousCharacters } from '../../src/permissions/shellAnalysis';
import { decodeAnsiC, expandBraceForm, unescapeForm, wordFromForm } from '../../src/permissions/shellWords';
import { matchShellRule } from '../../src/permissions/shell';
import { isReadOnlyCommand } from '../../src/tools/bash/command';

before(async () => {
  assert.equal(await loadShellParser(), true);
});

const values = (command: string) =>
  analyzeShell(command, '/home/u').commands.map((c) => c.words.map((w) => w.values ?? null));

test('unit: ANSI-C quoting is decoded like bash', () => {
  assert.equal(decodeAnsiC('\\x74ouch'), 'touch');
  assert.equal(decodeAnsiC("it\\'s"), "it's");
  assert.equal(decodeAnsiC('\\164\\u0041\\cA\\e'), 'tA\x01\x1b');
  assert.equal(decodeAnsiC('a\\x00b'), 'a', 'a NUL ends the string');
  assert.equal(decodeAnsiC('\\q'), '\\q', 'an unknown escape stays');
});

test('unit: brace expansion, tilde and globs on escaped forms', () => {
  assert.deepEqual(expandBraceForm('{a,b}c'), ['ac', 'bc']);
  assert.deepEqual(expandBraceForm('x{1..3}'), ['x1', 'x2', 'x3']);
  assert.deepEqual(expandBraceForm('{a,{b,c}}'), ['a', 'b', 'c']);
  assert.deepEqual(expandBraceForm('\\{a,b\\}'), ['\\{a,b\\}'], 'escaped braces are literal');
  assert.deepEqual(expandBraceForm('{a}'), ['{a}'], 'no comma, no sequence: literal');
  assert.throws(() => expandBraceForm('{1..100000}'));
  assert.deepEqual(wordFromForm('~/x', '~/x', '/home/u').values, ['/home/u/x']);
  assert.equal(wordFromForm('~root/x', '~root/x', '/home/u').values, undefined, '~user is not known statically');
  assert.equal(wordFromForm('*.ts', '*.ts', '/h').glob, true);
  assert.equal(wordFromForm("'*.ts'", '\\*\\.ts', '/h').glob, false, 'a quoted star is no glob');
  assert.equal(unescapeForm('a\\ b\\\\'), 'a b\\');
});

test('unit: words take their bash values; expansions are not known', () => {
  assert.deepEqual(values(`'r'm -rf "x y" $'\\x2e' {a,b}`), [[['rm'], ['-rf'], ['x y'], ['.'], ['a', 'b']]]);
  assert.deepEqual(values('echo "$HOME" a$b'), [[['echo'], null, null]]);
  assert.deepEqual(values('cat ~/.ssh/id'), [[['cat'], ['/home/u/.ssh/id']]]);
  assert.deepEqual(values('t\\ouch "a\\"b"'), [[['touch'], ['a"b']]]);
});

test('unit: commands are found at every depth, and only plain constructs are certain', () => {
  const a = analyzeShell('ls && (cd x; make) | tee log & echo $(id) `whoami` <(pwd); if true; then rm x; fi');
  assert.deepEqual(a.commands.map((c) => c.words[0]?.values?.[0]).sort(), [
    'cd',
    'echo',
    'id',
    'ls',
    'make',
    'pwd',
    'rm',
    'tee',
    'true',
    'whoami',
  ]);
  assert.equal(a.certain, false);
  assert.deepEqual(
    a.commands
      .filter((c) => c.nested)
      .map((c) => c.text)
      .sort(),
    ['id', 'pwd', 'whoami'],
  );
  assert.deepEqual(
    a.commands.filter((c) => c.background).map((c) => c.text),
    ['ls', 'cd x', 'make', 'tee log'],
  );
  assert.equal(analyzeShell('ls -la | grep x && cat "a b" > /dev/null 2>&1').certain, true);
  for (const uncertain of [
    'echo ${x@P}',
    'echo $((1))',
    'echo $[1]',
    '((x))',
    '[[ $a -eq 1 ]]',
    'cat <<EOF\nx\nEOF',
    'a=(1)',
    'export X=1',
    "echo 'x",
    'f() { :; }',
    'echo ${a[0]}',
    'echo ${!x}',
  ]) {
    assert.equal(analyzeShell(uncertain).certain, false, uncertain);
  }
  assert.match(suspiciousCharacters('ls\r# x') ?? '', /U\+000D/);
  assert.match(suspiciousCharacters('ls\u00a0# x') ?? '', /U\+00A0/);
  assert.match(suspiciousCharacters('t\\\nouch') ?? '', /line continuation/);
  assert.equal(suspiciousCharacters('ls \\\n  -la'), undefined, 'a continuation after a blank joins nothing');
});

test('unit: rules on the analysis', () => {
  // allow: every command, certain, static words, no writing redirection
  assert.equal(matchShellRule('npm test', 'timeout 60 npm test 2>&1', 'allow'), true);
  assert.equal(matchShellRule('npm test', 'npm test > out.txt', 'allow'), false);
  assert.equal(matchShellRule('ls:*', 'ls $DIR', 'allow'), false);
  assert.equal(matchShellRule('ls:*', 'ls *.ts', 'allow'), false, 'a glob could expand to an option');
  // deny: any command, any wrapper, any spelling, unknown names
  for (const c of [
    'sudo -u x rm -rf /',
    'xargs -0 rm',
    '"r"m x',
    '/bin/rm x',
    'bash -c "rm x"',
    '$CMD x',
    'eval "rm x"',
    'find . -exec rm {} +',
    'awk \'BEGIN{system("rm x")}\'',
    'git -c core.pager="rm x" log',
  ]) {
    assert.equal(matchShellRule('rm:*', c, 'deny'), true, c);
  }
  for (const c of ['rmdir x', 'echo rm', 'git commit -m "rm it"', 'rmdir $x', "awk '$1 || $2' f"]) {
    assert.equal(matchShellRule('rm:*', c, 'deny'), false, c);
  }
});

test('unit: read-only detection, option spellings', () => {
  for (const c of [
    'sort a',
    'sort -k2 -t, a',
    'git log --oneline',
    'git -C sub status',
    'find . -name "*.ts"',
    'rg foo',
    'ls | wc -l',
    '[ -f x ]',
    'LC_ALL=C sort a',
  ]) {
    assert.equal(isReadOnlyCommand(c), true, c);
  }
  for (const c of [
    'sort -o x a',
    'sort -uo x a',
    'sort -o/x a',
    'sort --outp=x a',
    'sort -T /tmp a',
    'git -c a=b log',
    'git diff --ext-diff',
    'git grep -O x',
    'git log --output=x',
    'git ls-remote --upload-pack=x .',
    'find . -fls x',
    'rg --pre cat x',
    'X=1 ls',
    'ls &',
    '(ls)',
    'sed -n p a',
    'xargs cat',
    'ls > x',
  ]) {
    assert.equal(isReadOnlyCommand(c), false, c);
  }
});
