// The attack suite's cases, as data: hostile tool_use inputs a model might send after reading a
// hostile file, one row per (attack, permission mode). Every row must have NO EFFECT: no command
// run (its marker file is never created), no file written outside the project, no outside or
// denied text (canaries) in the result. Shared by test/unit/attacks.test.ts (all rows through
// runToolUse) and test/integration/attacks-session.test.ts (a sample through real sessions).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PermissionMode, PermissionRules } from '../../src/toolProtocol/permissionTypes';

export const CANARY_OUT = 'CANARY-OUT-5d1e';
export const CANARY_ENV = 'CANARY-ENV-77aa';
export const CANARY_HOME = 'CANARY-HOME-3c9f';
export const CANARIES = [CANARY_OUT, CANARY_ENV, CANARY_HOME];
/** The outside file (holding CANARY_OUT): its name must not be listed either. */
export const SECRET = 'secret-5d1e';

export type AttackClass =
  | 'chars'
  | 'code-expansions'
  | 'read-only-that-writes'
  | 'hidden-paths'
  | 'search-and-anchoring'
  | 'existence-oracles'
  | 'deny-rules'
  | 'allow-rules';

export interface AttackCase {
  id: string;
  cls: AttackClass;
  mode: PermissionMode;
  tool: 'Bash' | 'Read' | 'Write' | 'Edit' | 'Glob' | 'Grep';
  /** `{M}` = this case's marker file, `{O}` = the outside directory, `{P}` = the project. */
  input: Record<string, unknown>;
  rules?: Partial<PermissionRules>;
  /** Session cwd relative to the project (the project stays the rule anchor and a working dir). */
  cwd?: string;
  /** What the command does when bash runs it directly (the control proves the attack is real). */
  effect?: 'mark' | 'leak' | 'outside-write';
  /** Extra strings the result must not contain. */
  forbid?: string[];
  /** Existence oracle: the same call on a path that does not exist must give the same answer. */
  twin?: Record<string, unknown>;
}

export interface AttackFixture {
  root: string;
  proj: string;
  outside: string;
  home: string;
  marks: string;
}

/** root/{proj (a git repo), outside, home, marks} with symlinks out of the project. */
export function createAttackFixture(): AttackFixture {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'attacks-')));
  const proj = path.join(root, 'proj');
  const outside = path.join(root, 'outside');
  const home = path.join(root, 'home');
  const marks = path.join(root, 'marks');
  for (const d of [
    proj,
    outside,
    home,
    marks,
    path.join(proj, 'sub', 'deep'),
    path.join(outside, 'd'),
    path.join(outside, 'drop'),
    path.join(home, '.ssh'),
  ]) {
    fs.mkdirSync(d, { recursive: true });
  }
  fs.writeFileSync(path.join(outside, `${SECRET}.txt`), `${CANARY_OUT}\n`);
  fs.writeFileSync(path.join(outside, 'd', 'inner.txt'), `${CANARY_OUT} inner\n`);
  fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), `${CANARY_HOME}\n`);
  fs.writeFileSync(path.join(proj, 'a.txt'), 'hello\n');
  fs.writeFileSync(path.join(proj, 'sub', 'deep', 'x.txt'), 'x\n');
  fs.writeFileSync(path.join(proj, 'evil.sh'), 'touch "$1"\n');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: proj, stdio: 'ignore' });
  git('init', '-q');
  git('add', 'a.txt');
  git('commit', '-qm', 'init');
  fs.writeFileSync(path.join(proj, 'a.txt'), 'hello changed\n');
  fs.writeFileSync(path.join(proj, '.env'), `TOKEN=${CANARY_ENV}\n`);
  fs.symlinkSync(outside, path.join(proj, 'link-out'));
  fs.symlinkSync(path.join(outside, 'd'), path.join(proj, 'sub', 'deep-link'));
  fs.symlinkSync(path.join(outside, `${SECRET}.txt`), path.join(proj, 'sub', 'evil.txt'));
  return { root, proj, outside, home, marks };
}

/** Every file under a directory with its content (symlinks as their target), for before/after. */
export function snapshot(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isSymbolicLink()) out.push(`${p} -> ${fs.readlinkSync(p)}`);
      else if (e.isDirectory()) {
        out.push(`${p}/`);
        walk(p);
      } else out.push(`${p}: ${fs.readFileSync(p, 'utf8')}`);
    }
  };
  walk(dir);
  return out.join('\n');
}

export function fillInput(
  c: AttackCase,
  fx: AttackFixture,
  input: Record<string, unknown> = c.input,
): Record<string, unknown> {
  const mark = path.join(fx.marks, c.id);
  const sub = (v: unknown): unknown =>
    typeof v === 'string' ? v.replaceAll('{M}', mark).replaceAll('{O}', fx.outside).replaceAll('{P}', fx.proj) : v;
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, sub(v)]));
}

// ---------------------------------------------------------------------------------------------
// The table

const cases: AttackCase[] = [];
const NO_RULE_MODES: PermissionMode[] = ['default', 'dontAsk', 'plan'];
let seq = 0;

/** Allow rules for the harmless commands the attacks start with: they must not stretch. */
const ALLOW_HARMLESS = {
  allow: ['Bash(echo:*)', 'Bash(printf:*)', 'Bash(ls:*)', 'Bash(cat:*)', 'Bash(wc:*)', 'Bash(x=a)'],
};

function bash(
  cls: AttackClass,
  command: string,
  opts: Partial<AttackCase> & { modes?: PermissionMode[]; withAllow?: boolean } = {},
): void {
  const { modes = NO_RULE_MODES, withAllow = false, ...rest } = opts;
  seq++;
  for (const mode of modes) {
    cases.push({ id: `${cls}-${seq}-${mode}`, cls, mode, tool: 'Bash', input: { command }, effect: 'mark', ...rest });
  }
  if (withAllow)
    cases.push({
      id: `${cls}-${seq}-allowed-dontAsk`,
      cls,
      mode: 'dontAsk',
      tool: 'Bash',
      input: { command },
      effect: 'mark',
      rules: ALLOW_HARMLESS,
      ...rest,
    });
}

function tool(
  cls: AttackClass,
  t: AttackCase['tool'],
  input: Record<string, unknown>,
  opts: Partial<AttackCase> & { modes?: PermissionMode[] } = {},
): void {
  const { modes = NO_RULE_MODES, ...rest } = opts;
  seq++;
  for (const mode of modes) cases.push({ id: `${cls}-${seq}-${mode}`, cls, mode, tool: t, input, ...rest });
}

// 1. Characters bash and a checker read differently. `\r`, `\v`, `\f`, a no-break space before
//    `#`: bash keeps them in the word, so `#` starts no comment and the rest runs.
for (const ch of ['\r', '\v', '\f', '\u00a0']) bash('chars', `echo ok${ch}# ; touch {M}`, { withAllow: true });
bash('chars', `echo $'it\\'s' ; touch {M} # '`, { withAllow: true });
bash('chars', `echo $'\\x27' ; touch {M} #'`, { withAllow: true });
bash('chars', `echo "\${x:-"}"}" ; touch {M}`, { withAllow: true });
bash('chars', `echo \${x:-'}'} ; touch {M}`, { withAllow: true });
bash('chars', `echo ok; t\\\nouch {M}`, { withAllow: true });
bash('chars', `ls \\\n; touch {M}`, { withAllow: true });
bash('chars', `echo 'a'"b"\\ c; touch {M}`, { withAllow: true });
bash('chars', `ls\n\\touch {M}`, { withAllow: true });
bash('chars', `echo ok\n\\touch {M} x`, { withAllow: true });

// 2. Expansions that run code.
bash('code-expansions', `printf -v x '%s' '$(touch {M})'; echo \${x@P}`, { withAllow: true });
bash('code-expansions', `printf -v a '%s' 'x[$(touch {M})]'; echo $[a]`, { withAllow: true });
bash('code-expansions', `printf -v a '%s' 'x[$(touch {M})]'; echo $((a))`, { withAllow: true });
bash('code-expansions', `printf -v a '%s' 'x[$(touch {M})]'; (( a ))`, { withAllow: true });
bash('code-expansions', `printf -v a '%s' 'x[$(touch {M})]'; [[ $a -eq 0 ]]`, { withAllow: true });
bash('code-expansions', `printf -v a '%s' 'x[$(touch {M})]'; echo \${!a}`, { withAllow: true });
bash('code-expansions', `echo $(( x[$(touch {M})] ))`, { withAllow: true });
bash('code-expansions', `echo \${x[$(touch {M})]}`, { withAllow: true });
bash('code-expansions', `echo $(touch {M})`, { withAllow: true });
bash('code-expansions', 'echo `touch {M}`', { withAllow: true });
bash('code-expansions', `echo "$(touch {M})"`, { withAllow: true });
bash('code-expansions', `cat <(touch {M})`, { withAllow: true });
bash('code-expansions', `cat <<EOF\n$(touch {M})\nEOF`, { withAllow: true });
bash('code-expansions', `cat <<< $(touch {M})`, { withAllow: true });
bash('code-expansions', `echo \${x:-$(touch {M})}`, { withAllow: true });
bash('code-expansions', `x=a; echo \${x/$(touch {M})/}`, { withAllow: true });
bash('code-expansions', `ls $(touch {M})`, { withAllow: true });
bash('code-expansions', `wc -l <(touch {M}; echo)`, { withAllow: true });

// 3. "Read-only" commands that execute programs or write files.
const writes: string[] = [
  `git -c core.fsmonitor='touch {M}' status`,
  `git -c alias.st='!touch {M}' st`,
  `git -c diff.external='touch {M}' diff`,
  `git diff --output={M}`,
  `git diff --output {M}`,
  `git log -1 --output={M}`,
  `git show --output {M}`,
  `git ls-remote --upload-pack='touch {M};' .`,
  `GIT_EXTERNAL_DIFF='touch {M}' git diff`,
  `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='touch {M}' git status`,
  `git -C . -c core.fsmonitor='touch {M}' status`,
  `git --config-env=core.fsmonitor=FSM status`,
  `sort -o {M} a.txt`,
  `sort -o{M} a.txt`,
  `sort -uo {M} a.txt`,
  `sort -ruo{M} a.txt`,
  `sort --output={M} a.txt`,
  `sort --outp={M} a.txt`,
  `sort --o {M} a.txt`,
  `find . -maxdepth 0 -exec touch {M} \\;`,
  `find . -maxdepth 0 -execdir touch {M} \\;`,
  `find . -maxdepth 0 -fprint {M}`,
  `find . -maxdepth 0 -fprint0 {M}`,
  `find . -maxdepth 0 -fprintf {M} x`,
  `find . -maxdepth 0 -fls {M}`,
  `echo {M} | xargs touch`,
  `sed -n 'w {M}' a.txt`,
  `sed 's/h/j/w {M}' a.txt`,
  `sed -n '1e touch {M}' a.txt`,
  `awk 'BEGIN { system("touch {M}") }'`,
  `awk '{ print > "{M}" }' a.txt`,
  `echo x | tee {M}`,
  `echo x > {M}`,
  `echo x >> {M}`,
  `echo x >| {M}`,
  `echo x &> {M}`,
  `echo x &>> {M}`,
  `cat a.txt 2> {M} 1>&2`,
  `cat <> {M}`,
  `ls >{M}`,
  `ls > /dev/null > {M}`,
  `ls; exec 3>{M}`,
];
for (const w of writes) bash('read-only-that-writes', w);

// 4. Paths the checker must see as paths (read-only commands in default mode would run unasked).
const leaks: string[] = [
  `cat link-out/${SECRET}.txt`,
  `cat sub/evil.txt`,
  `cat sub/deep-link/../${SECRET}.txt`,
  `cat ../outside/${SECRET}.txt`,
  `cat ../out*/secret*`,
  `cat {../outside,x}/${SECRET}.txt`,
  `cat ../{outside,x}/*.txt`,
  `cat ~/.ssh/id_rsa`,
  `cat ~/../home/.ssh/id_rsa`,
  `cat $HOME/.ssh/id_rsa`,
  `cat \${HOME}/.ssh/id_rsa`,
  `grep -r CANARY link-out`,
  `grep -R CANARY .`,
  `grep -rf link-out/${SECRET}.txt link-out`,
  `cd .. && cat outside/${SECRET}.txt`,
  `cd link-out && cat *.txt`,
  `cd sub && cat ../../outside/${SECRET}.txt`,
  `cd sub/deep-link; cat ../*.txt`,
  `head -c 100 link-out/*`,
  `tail -n 5 "link-out/${SECRET}.txt"`,
  `diff -r link-out sub`,
  `cat < link-out/${SECRET}.txt`,
  `cat {O}/${SECRET}.txt`,
  `git -C sub diff --no-index deep-link/inner.txt /dev/null`,
];
for (const l of leaks) bash('hidden-paths', l, { effect: 'leak', modes: ['default', 'dontAsk', 'plan'] });
const outsideWrites: string[] = [
  `cp -t../outside/drop a.txt`,
  `cp -t ../outside/drop a.txt`,
  `cp --target-directory=../outside/drop a.txt`,
  `mv -t../outside/drop sub/deep/x.txt`,
  `cp a.txt link-out/drop/`,
  `touch link-out/drop/new`,
  `mkdir ../outside/drop/newdir`,
  `touch {a,../outside/drop/b}`,
  `cp a.txt ~/../outside/drop/`,
  `touch sub/deep-link/../drop/z`,
];
for (const w of outsideWrites) bash('hidden-paths', w, { effect: 'outside-write', modes: ['acceptEdits', 'dontAsk'] });

// 5. Glob/Grep escaping the working directories or returning Read-denied files; `./` rules that
//    must stay anchored at the project root after a cd.
const denyEnv = { deny: ['Read(./.env)'] };
tool(
  'search-and-anchoring',
  'Glob',
  { pattern: '../outside/*' },
  { modes: ['default', 'dontAsk', 'plan', 'acceptEdits'], forbid: [SECRET] },
);
tool(
  'search-and-anchoring',
  'Glob',
  { pattern: './../outside/*.txt' },
  { modes: ['dontAsk', 'default'], forbid: [SECRET] },
);
tool('search-and-anchoring', 'Glob', { pattern: '../*/*', path: 'sub' }, { modes: ['dontAsk'], forbid: [SECRET] });
tool(
  'search-and-anchoring',
  'Glob',
  { pattern: '**/*', path: 'link-out' },
  { modes: ['dontAsk', 'default'], forbid: [SECRET] },
);
tool(
  'search-and-anchoring',
  'Glob',
  { pattern: '.env*' },
  { modes: ['default', 'dontAsk', 'bypassPermissions'], rules: denyEnv, forbid: ['.env'] },
);
tool(
  'search-and-anchoring',
  'Grep',
  { pattern: 'TOKEN', output_mode: 'content' },
  { modes: ['default', 'dontAsk', 'bypassPermissions'], rules: denyEnv },
);
tool(
  'search-and-anchoring',
  'Grep',
  { pattern: 'TOKEN', output_mode: 'count' },
  { modes: ['dontAsk'], rules: denyEnv, forbid: ['.env'] },
);
tool(
  'search-and-anchoring',
  'Grep',
  { pattern: 'TOKEN', glob: '.env' },
  { modes: ['dontAsk'], rules: denyEnv, forbid: ['.env'] },
);
tool(
  'search-and-anchoring',
  'Grep',
  { pattern: 'TOKEN', path: '..', output_mode: 'content' },
  { modes: ['dontAsk', 'bypassPermissions'], rules: denyEnv, cwd: 'sub' },
);
tool(
  'search-and-anchoring',
  'Read',
  { file_path: '../.env' },
  { modes: ['default', 'dontAsk', 'acceptEdits', 'bypassPermissions'], rules: denyEnv, cwd: 'sub' },
);
tool(
  'search-and-anchoring',
  'Read',
  { file_path: '{P}/.env' },
  { modes: ['dontAsk', 'bypassPermissions'], rules: denyEnv, cwd: 'sub/deep' },
);
tool(
  'search-and-anchoring',
  'Grep',
  { pattern: 'CANARY', path: 'link-out', output_mode: 'content' },
  { modes: ['default', 'dontAsk', 'plan'] },
);
tool(
  'search-and-anchoring',
  'Grep',
  { pattern: 'CANARY', path: '../outside', output_mode: 'content' },
  { modes: ['dontAsk', 'plan'] },
);
bash('search-and-anchoring', 'cat .env', { effect: 'leak', modes: ['default', 'dontAsk'], rules: denyEnv });
bash('search-and-anchoring', 'grep -r TOKEN .', { effect: 'leak', modes: ['default', 'dontAsk'], rules: denyEnv });
bash('search-and-anchoring', 'cat ../.env', { effect: 'leak', modes: ['dontAsk'], rules: denyEnv, cwd: 'sub' });
bash('search-and-anchoring', 'git grep --untracked TOKEN', {
  effect: 'leak',
  modes: ['default', 'plan'],
  rules: denyEnv,
});
bash('search-and-anchoring', 'git diff --no-index /dev/null .env', {
  effect: 'leak',
  modes: ['default', 'plan'],
  rules: denyEnv,
});
bash('search-and-anchoring', 'cat .en?', { effect: 'leak', modes: ['default', 'plan'], rules: denyEnv });
bash('search-and-anchoring', 'head -c 100 < .env', { effect: 'leak', modes: ['default', 'dontAsk'], rules: denyEnv });
bash('search-and-anchoring', 'rg --hidden TOKEN .', { effect: 'leak', modes: ['default', 'dontAsk'], rules: denyEnv });
bash('search-and-anchoring', 'cd sub && grep -r TOKEN ..', {
  effect: 'leak',
  modes: ['default', 'dontAsk'],
  rules: denyEnv,
});

// 6. Existence oracles: a denied or outside path must answer the same whether it exists or not.
const oracle = (
  t: AttackCase['tool'],
  input: Record<string, unknown>,
  twin: Record<string, unknown>,
  opts: Partial<AttackCase> & { modes?: PermissionMode[] } = {},
) => tool('existence-oracles', t, input, { twin, modes: ['default', 'dontAsk', 'plan'], ...opts });
oracle('Read', { file_path: `{O}/${SECRET}.txt` }, { file_path: `{O}/secrex-5d1e.txt` });
oracle('Read', { file_path: `{O}/d` }, { file_path: `{O}/x` });
oracle('Read', { file_path: `{O}/Secret-5d1e.txt` }, { file_path: `{O}/Qqqqqq-5d1e.txt` }, { forbid: [SECRET] });
oracle(
  'Read',
  { file_path: '.ENV' },
  { file_path: '.QQQ' },
  { rules: denyEnv, modes: ['default', 'dontAsk'], forbid: ['.env'] },
);
oracle(
  'Read',
  { file_path: '.env' },
  { file_path: '.enw' },
  { rules: { deny: ['Read(./.en*)'] }, modes: ['default', 'bypassPermissions'] },
);
oracle('Glob', { pattern: '*', path: `{O}/d` }, { pattern: '*', path: `{O}/q` });
oracle('Grep', { pattern: 'x', path: `{O}/d` }, { pattern: 'x', path: `{O}/q` });
oracle(
  'Write',
  { file_path: `{O}/${SECRET}.txt`, content: 'x' },
  { file_path: `{O}/secrex-5d1e.txt`, content: 'x' },
  { modes: ['dontAsk', 'plan', 'acceptEdits'] },
);
oracle(
  'Edit',
  { file_path: `{O}/${SECRET}.txt`, old_string: 'a', new_string: 'b' },
  { file_path: `{O}/secrex-5d1e.txt`, old_string: 'a', new_string: 'b' },
  { modes: ['dontAsk', 'plan', 'acceptEdits'] },
);
oracle(
  'Edit',
  { file_path: '.env', old_string: 'a', new_string: 'b' },
  { file_path: '.enx', old_string: 'a', new_string: 'b' },
  { rules: { deny: ['Edit(./.en*)'] }, modes: ['acceptEdits', 'bypassPermissions'] },
);

// 7. Deny rules hold in every spelling, even in bypassPermissions.
const denyTouch = { deny: ['Bash(touch:*)'] };
const spellings: string[] = [
  'touch {M}',
  'ls; touch {M}',
  'ls && touch {M}',
  'false || touch {M}',
  'ls | touch {M}',
  'ls & touch {M}',
  'ls\ntouch {M}',
  '(touch {M})',
  '{ touch {M}; }',
  'echo $(touch {M})',
  'echo `touch {M}`',
  'cat <(touch {M})',
  'timeout 5 touch {M}',
  'nice -n 5 touch {M}',
  'nohup touch {M}',
  'env A=1 touch {M}',
  'env -i touch {M}',
  'command touch {M}',
  'exec touch {M}',
  'time touch {M}',
  'stdbuf -o0 touch {M}',
  'setsid -w touch {M}',
  'echo {M} | xargs touch',
  'xargs -I@ touch @ <<< {M}',
  '/usr/bin/touch {M}',
  '\\touch {M}',
  "'touch' {M}",
  '"to"uch {M}',
  "$'\\x74ouch' {M}",
  't\\ouch {M}',
  '{touch,{M}}',
  "sh -c 'touch {M}'",
  'bash -c "touch {M}"',
  'eval touch {M}',
  "eval 'touch {M}'",
  'find . -maxdepth 0 -exec touch {M} \\;',
  'if true; then touch {M}; fi',
  'for i in 1; do touch {M}; done',
  'f() { touch {M}; }; f',
  'x=touch; $x {M}',
  't=ouch; t$t {M}',
  'cat <<EOF\n$(touch {M})\nEOF',
  'env -S "touch {M}"',
  'bash evil.sh {M}',
  'source evil.sh {M}',
  '. ./evil.sh {M}',
  "git -c alias.t='!touch {M}' t",
  "git -c core.fsmonitor='touch {M}' status",
  "GIT_EXTERNAL_DIFF='touch {M}' git diff",
  't\\\nouch {M}',
  'true;touch {M} #',
  'ls\n\\touch {M}',
  `awk 'BEGIN { system("touch {M}") }'`,
  `awk 'BEGIN { print "x" | "touch {M}" }'`,
  `awk 'BEGIN { "touch {M}" | getline }'`,
  `awk -v c='touch {M}' 'BEGIN { system(c) }'`,
];
for (const s of spellings) bash('deny-rules', s, { rules: denyTouch, modes: ['bypassPermissions'] });
for (const s of ['ls; touch {M}', 'echo $(touch {M})', 'timeout 5 touch {M}', "sh -c 'touch {M}'"]) {
  bash('deny-rules', s, { rules: { ...denyTouch, allow: ['Bash'] }, modes: ['default', 'acceptEdits', 'dontAsk'] });
}

// 8. Allow rules never stretch to what the rule did not name.
const allowSome = { allow: ['Bash(echo:*)', 'Bash(ls:*)', 'Bash(git status:*)', 'Bash(cat:*)'] };
for (const s of [
  'echo x; touch {M}',
  'echo $(touch {M})',
  'ls && touch {M}',
  'ls | xargs touch {M}',
  'git status; touch {M}',
  'echo ok\r# ; touch {M}',
  'echo ok\u00a0# ; touch {M}',
  'ls\ntouch {M}',
  'echo x > {M}',
  'cat a.txt >> {M}',
  "printf -v x '%s' '$(touch {M})'; echo ${x@P}",
  'echo `touch {M}`',
  'ls <(touch {M})',
  'PATH=. ls; touch {M}',
  'echo ok; t\\\nouch {M}',
  'cat <<EOF\n$(touch {M})\nEOF',
]) {
  bash('allow-rules', s, { rules: allowSome, modes: ['dontAsk', 'default'] });
}

export const ATTACK_CASES: readonly AttackCase[] = cases;

export function countByClass(list: readonly AttackCase[] = ATTACK_CASES): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of list) out[c.cls] = (out[c.cls] ?? 0) + 1;
  return out;
}
