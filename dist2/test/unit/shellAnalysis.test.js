"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the shell analysis behind Bash rules — words evaluated like bash does (quotes, $'…',
// braces, ~, globs), certainty, commands found at every depth, and the matchers built on them.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const bashParser_1 = require("../../src/permissions/bashParser");
const shellAnalysis_1 = require("../../src/permissions/shellAnalysis");
const shellWords_1 = require("../../src/permissions/shellWords");
const shell_1 = require("../../src/permissions/shell");
const bashCommand_1 = require("../../src/tools/builtin/bashCommand");
(0, node_test_1.before)(async () => {
    strict_1.default.equal(await (0, bashParser_1.loadShellParser)(), true);
});
const values = (command) => (0, shellAnalysis_1.analyzeShell)(command, '/home/u').commands.map((c) => c.words.map((w) => w.values ?? null));
(0, node_test_1.test)('unit: ANSI-C quoting is decoded like bash', () => {
    strict_1.default.equal((0, shellWords_1.decodeAnsiC)('\\x74ouch'), 'touch');
    strict_1.default.equal((0, shellWords_1.decodeAnsiC)("it\\'s"), "it's");
    strict_1.default.equal((0, shellWords_1.decodeAnsiC)('\\164\\u0041\\cA\\e'), 'tA\x01\x1b');
    strict_1.default.equal((0, shellWords_1.decodeAnsiC)('a\\x00b'), 'a', 'a NUL ends the string');
    strict_1.default.equal((0, shellWords_1.decodeAnsiC)('\\q'), '\\q', 'an unknown escape stays');
});
(0, node_test_1.test)('unit: brace expansion, tilde and globs on escaped forms', () => {
    strict_1.default.deepEqual((0, shellWords_1.expandBraceForm)('{a,b}c'), ['ac', 'bc']);
    strict_1.default.deepEqual((0, shellWords_1.expandBraceForm)('x{1..3}'), ['x1', 'x2', 'x3']);
    strict_1.default.deepEqual((0, shellWords_1.expandBraceForm)('{a,{b,c}}'), ['a', 'b', 'c']);
    strict_1.default.deepEqual((0, shellWords_1.expandBraceForm)('\\{a,b\\}'), ['\\{a,b\\}'], 'escaped braces are literal');
    strict_1.default.deepEqual((0, shellWords_1.expandBraceForm)('{a}'), ['{a}'], 'no comma, no sequence: literal');
    strict_1.default.throws(() => (0, shellWords_1.expandBraceForm)('{1..100000}'));
    strict_1.default.deepEqual((0, shellWords_1.wordFromForm)('~/x', '~/x', '/home/u').values, ['/home/u/x']);
    strict_1.default.equal((0, shellWords_1.wordFromForm)('~root/x', '~root/x', '/home/u').values, undefined, '~user is not known statically');
    strict_1.default.equal((0, shellWords_1.wordFromForm)('*.ts', '*.ts', '/h').glob, true);
    strict_1.default.equal((0, shellWords_1.wordFromForm)("'*.ts'", '\\*\\.ts', '/h').glob, false, 'a quoted star is no glob');
    strict_1.default.equal((0, shellWords_1.unescapeForm)('a\\ b\\\\'), 'a b\\');
});
(0, node_test_1.test)('unit: words take their bash values; expansions are not known', () => {
    strict_1.default.deepEqual(values(`'r'm -rf "x y" $'\\x2e' {a,b}`), [[['rm'], ['-rf'], ['x y'], ['.'], ['a', 'b']]]);
    strict_1.default.deepEqual(values('echo "$HOME" a$b'), [[['echo'], null, null]]);
    strict_1.default.deepEqual(values('cat ~/.ssh/id'), [[['cat'], ['/home/u/.ssh/id']]]);
    strict_1.default.deepEqual(values('t\\ouch "a\\"b"'), [[['touch'], ['a"b']]]);
});
(0, node_test_1.test)('unit: commands are found at every depth, and only plain constructs are certain', () => {
    const a = (0, shellAnalysis_1.analyzeShell)('ls && (cd x; make) | tee log & echo $(id) `whoami` <(pwd); if true; then rm x; fi');
    strict_1.default.deepEqual(a.commands.map((c) => c.words[0]?.values?.[0]).sort(), [
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
    strict_1.default.equal(a.certain, false);
    strict_1.default.deepEqual(a.commands
        .filter((c) => c.nested)
        .map((c) => c.text)
        .sort(), ['id', 'pwd', 'whoami']);
    strict_1.default.deepEqual(a.commands.filter((c) => c.background).map((c) => c.text), ['ls', 'cd x', 'make', 'tee log']);
    strict_1.default.equal((0, shellAnalysis_1.analyzeShell)('ls -la | grep x && cat "a b" > /dev/null 2>&1').certain, true);
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
        strict_1.default.equal((0, shellAnalysis_1.analyzeShell)(uncertain).certain, false, uncertain);
    }
    strict_1.default.match((0, shellAnalysis_1.suspiciousCharacters)('ls\r# x') ?? '', /U\+000D/);
    strict_1.default.match((0, shellAnalysis_1.suspiciousCharacters)('ls\u00a0# x') ?? '', /U\+00A0/);
    strict_1.default.match((0, shellAnalysis_1.suspiciousCharacters)('t\\\nouch') ?? '', /line continuation/);
    strict_1.default.equal((0, shellAnalysis_1.suspiciousCharacters)('ls \\\n  -la'), undefined, 'a continuation after a blank joins nothing');
});
(0, node_test_1.test)('unit: rules on the analysis', () => {
    // allow: every command, certain, static words, no writing redirection
    strict_1.default.equal((0, shell_1.matchShellRule)('npm test', 'timeout 60 npm test 2>&1', 'allow'), true);
    strict_1.default.equal((0, shell_1.matchShellRule)('npm test', 'npm test > out.txt', 'allow'), false);
    strict_1.default.equal((0, shell_1.matchShellRule)('ls:*', 'ls $DIR', 'allow'), false);
    strict_1.default.equal((0, shell_1.matchShellRule)('ls:*', 'ls *.ts', 'allow'), false, 'a glob could expand to an option');
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
        strict_1.default.equal((0, shell_1.matchShellRule)('rm:*', c, 'deny'), true, c);
    }
    for (const c of ['rmdir x', 'echo rm', 'git commit -m "rm it"', 'rmdir $x', "awk '$1 || $2' f"]) {
        strict_1.default.equal((0, shell_1.matchShellRule)('rm:*', c, 'deny'), false, c);
    }
});
(0, node_test_1.test)('unit: read-only detection, option spellings', () => {
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
        strict_1.default.equal((0, bashCommand_1.isReadOnlyCommand)(c), true, c);
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
        strict_1.default.equal((0, bashCommand_1.isReadOnlyCommand)(c), false, c);
    }
});
//# sourceMappingURL=shellAnalysis.test.js.map