// The person's global git configuration as sandboxed commands see it (issue 30, J3): the sections
// that hold no credential, never the tokens people keep there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { keptGitConfig, sandboxGitConfigEnv } from '../../src/hostProcess/sandboxGitConfig';

const PERSON = [
  '[user]',
  '\tname = Pat Person',
  '\temail = pat@example.com',
  '\tsigningkey = SECRET-signing \\',
  '\t  SECRET-continued',
  '[http]',
  '\textraHeader = Authorization: Bearer SECRET-header',
  '[url "https://SECRET-token@github.com/"]',
  '\tinsteadOf = https://github.com/',
  '[credential]',
  '\thelper = store --file /x/SECRET',
  '[alias]',
  '\tst = status -sb',
  '[include]',
  '\tpath = ~/.SECRET-included',
  '[sendemail]',
  '\tsmtpPass = SECRET-smtp',
  '[init]',
  '\tdefaultBranch = trunk',
  '[remote "origin"]',
  '\turl = https://SECRET-remote@example.com/r.git',
  '[core]',
  '\tsshCommand = ssh -i SECRET-key',
  '\texcludesFile = ~/.gitignore_global',
].join('\n');

/** What git itself reads from a configuration text: `git config --file <f> --list` (the door's git, no global config). */
function gitReads(text: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'da-gitcfg-read-'));
  try {
    writeFileSync(join(dir, 'config'), text);
    const r = spawnSync('git', ['config', '--file', join(dir, 'config'), '--list', '--no-includes'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: dir, GIT_CONFIG_NOSYSTEM: '1' },
    });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.split('\n').filter((l) => l !== '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('unit: keptGitConfig keeps identity, aliases and habits; drops every section and key that holds credentials', () => {
  const kept = keptGitConfig(PERSON);
  assert.doesNotMatch(kept, /SECRET/, kept);
  assert.deepEqual(gitReads(kept), [
    'user.name=Pat Person',
    'user.email=pat@example.com',
    'alias.st=status -sb',
    'init.defaultbranch=trunk',
    'core.excludesfile=~/.gitignore_global',
  ]);
  // Old-style `[section.sub]` headers, odd spacing (git refuses the file) and case are sections too.
  assert.equal(keptGitConfig('[ http.https://x ]\n\textraHeader = SECRET\n'), '');
  assert.equal(keptGitConfig('[HTTP]\n\textraHeader = SECRET\n'), '');
  assert.equal(keptGitConfig('[http.https://x.y]\n\textraHeader = SECRET\n'), '');
  assert.equal(keptGitConfig(''), '');
});

test('unit: keptGitConfig keeps no shell alias, only listed core keys and no value shaped like a credential (red team o, O9)', () => {
  const text = [
    '[alias]',
    '\tco = checkout',
    `\tgh-api = "!curl -s -H 'Authorization: token ghp_SECRET' https://api.github.com"`,
    '\tsync = !git pull && git push',
    '\tpr = "fetch https://pat:SECRET@github.com/o/r"',
    '[core]',
    '\tautocrlf = input',
    '\tgitProxy = "proxy-SECRET for example.com"',
    '\tfsmonitor = true',
    '[user]',
    '\tname = Pat',
    '\temail = pat@example.com',
  ].join('\n');
  const kept = keptGitConfig(`${text}\n`);
  assert.doesNotMatch(kept, /SECRET|curl|pull/, kept);
  assert.deepEqual(gitReads(kept), [
    'alias.co=checkout',
    'core.autocrlf=input',
    'user.name=Pat',
    'user.email=pat@example.com',
  ]);
});

test('unit: keptGitConfig reads values as git does: an escaped backslash at a line end, a comment ending in a backslash and an entry on its header line keep no credential (issue 30, L4, K3)', () => {
  const cases = [
    // L4: `\\` is one backslash, not a continuation; the next line is a new section.
    '[user]\n\tname = Pat\n[core]\n\texcludesfile = C:\\\\tools\\\\\n[http "https://github.com/"]\n\textraheader = AUTHORIZATION: bearer SECRET\n',
    // A comment never continues.
    '[core]\n\tautocrlf = false # see C:\\\n[http]\n\textraHeader = SECRET\n',
    '[core] ; a comment \\\n[credential]\n\thelper = store --file /SECRET\n',
    // K3: an entry on its section's header line goes through the key check.
    '[core] sshCommand = ssh -i /SECRET-key\n',
    '[user] signingKey = SECRET-signing\n\tname = Pat\n',
    // A real continuation inside a kept entry, then a credential section.
    '[alias]\n\tlg = log \\\n\t  --oneline\n[url "https://SECRET@x/"]\n\tinsteadOf = https://x/\n',
  ];
  for (const text of cases) {
    const kept = keptGitConfig(text);
    assert.doesNotMatch(kept, /SECRET/, `${JSON.stringify(text)} kept\n${kept}`);
    // What git reads from the copy is exactly what it reads from the person's file, minus dropped keys.
    const want = gitReads(text).filter((l) => !/SECRET/.test(l));
    assert.deepEqual(gitReads(kept), want, JSON.stringify(text));
  }
  assert.deepEqual(gitReads(keptGitConfig(cases[0]!)), ['user.name=Pat', 'core.excludesfile=C:\\tools\\']);
  assert.deepEqual(gitReads(keptGitConfig(cases[5]!)), ['alias.lg=log    --oneline']);
  // A text git refuses (an unterminated quote) gives nothing.
  assert.equal(keptGitConfig('[user]\n\tname = "Pat\n[http]\n\textraHeader = SECRET\n'), '');
});

test('unit: sandboxGitConfigEnv points GIT_CONFIG_GLOBAL at a read-only copy; git reads it as the global config', () => {
  const home = mkdtempSync(join(tmpdir(), 'da-gitcfg-'));
  try {
    mkdirSync(join(home, '.config', 'git'), { recursive: true });
    writeFileSync(
      join(home, '.config', 'git', 'config'),
      '[user]\n\tname = Xdg Name\n[http]\n\tproxy = http://SECRET@p\n',
    );
    writeFileSync(join(home, '.gitconfig'), PERSON);
    const env = sandboxGitConfigEnv({ HOME: home });
    const file = env.GIT_CONFIG_GLOBAL!;
    assert.ok(file && !file.startsWith(home), file);
    const text = readFileSync(file, 'utf8');
    assert.doesNotMatch(text, /SECRET/);
    // git's order: the XDG file, then ~/.gitconfig (which wins).
    assert.ok(text.indexOf('Xdg Name') < text.indexOf('Pat Person'));
    assert.equal(statSync(file).mode & 0o222, 0, 'not writable');
    // The same files: the same copy. Changed files: a new one.
    assert.equal(sandboxGitConfigEnv({ HOME: home }).GIT_CONFIG_GLOBAL, file);
    writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Other\n');
    assert.notEqual(sandboxGitConfigEnv({ HOME: home }).GIT_CONFIG_GLOBAL, file);
    assert.deepEqual(sandboxGitConfigEnv({}), { GIT_CONFIG_GLOBAL: '/dev/null' });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
