// unit (issue 30, red team s, S12): for a session in HOME, what HOME's dot-entry links lead to (a
// dotfiles checkout linked as `~/.zshrc`: GNU stow's layout) is closed to writes
// (permissions/homeClosure.ts dotLinkTargets). The walk had ONE 2,000-entry budget, spent depth first
// in readdir order: three large dot-directories (`.oh-my-zsh/plugins`, `.vscode/extensions`,
// `.mozilla/firefox`, common in a developer's HOME) left most of the start-up links unread, and the
// file tools wrote their targets in acceptEdits. Now HOME's dot-entries and the dot-directories' own
// entries are read whole, breadth first; the budget bounds the deeper levels only. Function level:
// the matcher the file tools use; the end-to-end row (Read then Write in acceptEdits) is S12 in
// red-issue30-s.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { closedHomePath, dotLinkTargets } from '../../src/permissions/homeClosure';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-dotlinks-')));
after(() => rmSync(base, { recursive: true, force: true }));

const LINKED = ['.bashrc', '.bash_profile', '.profile', '.zshrc', '.zshenv', '.bash_aliases', '.inputrc', '.vimrc'];

test('S12: every start-up link into ~/dotfiles is closed to writes, with three dot-directories of 2,100 entries each beside them', () => {
  const home = path.join(base, 'home');
  for (const big of ['.oh-my-zsh/plugins', '.vscode/extensions', '.mozilla/firefox']) {
    mkdirSync(path.join(home, big), { recursive: true });
    for (let i = 0; i < 2100; i++) mkdirSync(path.join(home, big, `e${i}`));
  }
  mkdirSync(path.join(home, 'dotfiles', 'nvim'), { recursive: true });
  for (const n of LINKED) {
    writeFileSync(path.join(home, 'dotfiles', n.slice(1)), `# ${n}\n`);
    symlinkSync(path.join(home, 'dotfiles', n.slice(1)), path.join(home, n));
  }
  mkdirSync(path.join(home, '.config'), { recursive: true });
  symlinkSync(path.join(home, 'dotfiles', 'nvim'), path.join(home, '.config', 'nvim'));
  const targets = dotLinkTargets(home);
  const scope = { home, workingDirectories: [home] };
  for (const n of [...LINKED.map((l) => l.slice(1)), 'nvim']) {
    const f = path.join(home, 'dotfiles', n);
    assert.ok(targets.includes(f), `${n} is a link target: ${targets.length} found`);
    assert.equal(closedHomePath(f, scope, 'write'), true, `${n}: a write of it is closed`);
  }
  assert.equal(closedHomePath(path.join(home, 'dotfiles', 'README.md'), scope, 'write'), false, 'the rest stays open');
});
