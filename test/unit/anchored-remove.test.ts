// unit: the undo removes a new protected directory without resolving anything below it by path
// again (src/sandbox/anchored.ts removeAnchored, landed on main; red team, issue 30, round q, Q3). The race row is
// redq's `Q3 (the anchored undo, raced below the entry)` (test/unit/red-issue30-q.test.ts on its
// branch), here against the function the live guard and the check after the call run: a child
// process fills `.claude/a` and, once the worker's removal has taken a first child, puts a symlink
// to the person's directory in place of `a`. Oracles: the person's files on disk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { removeAnchored } from '../../src/sandbox/anchored';
import { anchoredUndoRace } from '../support/swappers';
import { tempBase } from '../support/redTeamUnit';

const PY = '/usr/bin/python3';
const base = tempBase('anchrm');

test(
  'Q3 (the anchored undo, raced below the entry): a command that swaps a directory INSIDE its new .claude/ for a symlink to HOME while the worker removes it never makes the worker remove a file of HOME',
  existsSync(PY) ? {} : { skip: `${PY} is needed` },
  async (t) => {
    const { undos, removed } = await anchoredUndoRace(base, 5);
    t.diagnostic(`${undos} undos; removed of the person's: ${removed.join(' ') || 'none'}`);
    assert.ok(undos > 0);
    assert.deepEqual({ removedInHome: removed }, { removedInHome: [] });
  },
);

test('removeAnchored: a tree 300 directories deep with files and a symlink to an outside directory at each level is removed whole; the outside directory keeps its files', () => {
  const outside = path.join(base, 'outside');
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(outside, 'keep'), 'mine\n');
  const top = path.join(base, 'deep');
  let d = path.join(top, '.claude');
  for (let i = 0; i < 300; i++) {
    mkdirSync(d, { recursive: true });
    writeFileSync(path.join(d, 'f'), 'x');
    symlinkSync(outside, path.join(d, 'out'));
    d = path.join(d, 'd');
  }
  removeAnchored(top, '.claude');
  assert.deepEqual(readdirSync(top), []);
  assert.deepEqual(readdirSync(outside), ['keep']);
  // A file, a symlink (itself), and a name already gone.
  writeFileSync(path.join(top, '.envrc'), 'x');
  symlinkSync(outside, path.join(top, '.vscode'));
  for (const n of ['.envrc', '.vscode', '.missing']) removeAnchored(top, n);
  assert.deepEqual([readdirSync(top), readdirSync(outside)], [[], ['keep']]);
});
