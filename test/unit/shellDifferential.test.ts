// unit: the shell analysis against bash itself. Generated command lines full of quoting, escapes,
// $'…', braces, comments, line continuations and operators are run by bash with every command
// replaced by a stand-in program that records its argv; for each line the analysis calls certain,
// every command bash really ran must be one the analysis found, with the same words. (This is how
// tree-sitter-bash's `cmd<newline>\next` misreading was found.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadShellParser } from '../../src/permissions/bashParser';
import { analyzeShell } from '../../src/permissions/shellAnalysis';

const NAMES = ['echo', 'ls', 'cat', 'grep', 'touch', 'x'];
let dir = '';

before(async () => {
  assert.equal(await loadShellParser(), true);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shdiff-'));
  fs.mkdirSync(path.join(dir, 'bin'));
  fs.mkdirSync(path.join(dir, 'home'));
  const rec = path.join(dir, 'rec.sh');
  fs.writeFileSync(rec, `#!/bin/bash\nr=$(printf '%s\\036' "\${0##*/}" "$@"); printf '%s\\035' "$r" >> "$RECLOG"\n`, {
    mode: 0o755,
  });
  for (const n of NAMES) fs.symlinkSync(rec, path.join(dir, 'bin', n));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function generate(count: number, seed: number): string[] {
  let s = seed;
  const rnd = (n: number) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
  const pick = <T>(a: readonly T[]): T => a[rnd(a.length)]!;
  const names = [
    'echo',
    'ls',
    'cat',
    'grep',
    'x',
    'touch',
    'e"c"ho',
    "'ls'",
    '\\cat',
    'ec\\ho',
    "$'\\x65cho'",
    '{echo,a}',
  ];
  const args = [
    "'a b'",
    '"a\\"b"',
    'a\\ b',
    "$'\\x61'",
    "$'a\\'b'",
    '{a,b}',
    '{1..3}',
    '~',
    '~/x',
    'a#b',
    '\\#',
    '"#"',
    "'\\''",
    '\\\\',
    '"\\\\"',
    '"a\\$"',
    'a=b',
    '-x',
    '--y=z',
    "''",
    '""',
    'x"y"\'z\'',
    'a$',
    '"$"',
    "'$(x)'",
    '"\\`x\\`"',
    "{a,'b c'}",
    'a{,b}',
    '\\{a,b}',
    '{a\\,b}',
    'a,b',
    '[',
    ']',
    '"a\nb"',
    "'a\nb'",
    '=',
    '-',
    '--',
    '%',
    '!',
    'é',
    "$'\\u00e9'",
    "$'\\t'",
    '"\t"',
    '\\\t',
    '"\'"',
  ];
  const seps = ['\n\\', '\n \\\n', ' \\\n', ' ; ', ';', ' && ', '||', ' | ', '\n', ' & ', '|', '&&'];
  const wraps = [
    (c: string) => c,
    (c: string) => `( ${c} )`,
    (c: string) => `{ ${c}; }`,
    (c: string) => `! ${c}`,
    (c: string) => `${c} 2>&1`,
    (c: string) => `${c} >/dev/null`,
    (c: string) => `${c} # ${pick(args)} ; touch z`,
    (c: string) => `${c} \\\n ${pick(args)}`,
  ];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const parts: string[] = [];
    for (let k = 1 + rnd(3); k > 0; k--) {
      let c = pick(names);
      for (let j = rnd(4); j > 0; j--) c += (rnd(5) === 0 ? '' : ' ') + pick(args);
      parts.push(pick(wraps)(c));
    }
    out.push(parts.reduce((acc, p) => `${acc}${pick(seps)}${p}`));
  }
  return out;
}

test('unit: for every command line the analysis calls certain, bash runs only the commands it found', () => {
  const log = path.join(dir, 'log');
  const home = path.join(dir, 'home');
  let checked = 0;
  const mismatches: string[] = [];
  for (const cmd of generate(400, 2026)) {
    const a = analyzeShell(cmd, home);
    if (!a.certain || a.commands.some((c) => c.words.some((w) => w.values === undefined || w.glob))) continue;
    checked++;
    fs.writeFileSync(log, '');
    spawnSync('/bin/bash', ['-c', `enable -n echo printf test [ true false pwd type kill; ${cmd}`], {
      cwd: dir,
      env: { PATH: path.join(dir, 'bin'), RECLOG: log, HOME: home },
      timeout: 5000,
      input: '',
    });
    const ran = fs
      .readFileSync(log, 'utf8')
      .split('\x1d')
      .filter((r) => r !== '')
      .map((r) => r.split('\x1e').slice(0, -1));
    const found = new Set(a.commands.map((c) => JSON.stringify(c.words.flatMap((w) => w.values!))));
    for (const r of ran)
      if (!found.has(JSON.stringify(r)))
        mismatches.push(`${JSON.stringify(cmd)}: bash ran ${JSON.stringify(r)}, analysis ${[...found].join(' ')}`);
  }
  console.log(`[shell-differential] ${checked} certain command lines checked against bash`);
  assert.ok(checked >= 150, `only ${checked} certain lines`);
  assert.deepEqual(mismatches, []);
});
