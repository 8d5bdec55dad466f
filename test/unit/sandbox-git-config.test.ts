// The person's global git configuration as sandboxed commands see it (issue 30, J3): the sections
// that hold no credential, never the tokens people keep there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

test('unit: keptGitConfig keeps identity, aliases and habits; drops every section and key that holds credentials', () => {
  const kept = keptGitConfig(PERSON);
  assert.doesNotMatch(kept, /SECRET/, kept);
  for (const want of [
    'name = Pat Person',
    'email = pat@example.com',
    'st = status -sb',
    'defaultBranch = trunk',
    'excludesFile',
  ])
    assert.ok(kept.includes(want), `${want} in\n${kept}`);
  // Old-style `[section.sub]` headers and odd spacing are sections too.
  assert.equal(keptGitConfig('[ http.https://x ]\n\textraHeader = SECRET\n'), '');
  assert.equal(keptGitConfig('[HTTP]\n\textraHeader = SECRET\n'), '');
  assert.equal(keptGitConfig(''), '');
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
