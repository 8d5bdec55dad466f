// unit: memory files as a reading channel (issue 18, finding 5). The loader runs in the worker,
// outside the sandbox, and sends what it reads to the model: a CLAUDE.md, CLAUDE.local.md, rule or
// @import that is (or is reached through) a symlink to a credential file, or out of the project,
// must not be read — a warning names it. What the reference (Claude Code 2.1.328, offline against
// the fake API) does was settled with its binary: it follows a project CLAUDE.md / CLAUDE.local.md
// symlinked outside (we do too) and even to ~/.ssh/id_rsa (we do not: a leak), and follows no
// import or rule that resolves outside the project (nor do we). Real files, real symlinks.
import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadMemory, memoryReminder } from '../../src/claudeMd/claudeMd';
import { hiddenPathPredicate } from '../../src/permissions/resultFilter';
import { createRaceFixture, startFlipper } from '../support/races';

const KEY = 'PRIVATE-KEY-d41b';
const AWS = 'AWS-SECRET-93ac';
let root = '';
let cwd = '';
let home = '';
let outside = '';

function put(path: string, content: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}
function link(target: string, at: string): void {
  mkdirSync(dirname(at), { recursive: true });
  symlinkSync(target, at);
}
const load = (extra: Parameters<typeof loadMemory>[1] = {}) =>
  loadMemory(cwd, { home, configDir: join(home, '.claude'), managed: join(root, 'no-managed.md'), ...extra });
const text = (m: ReturnType<typeof loadMemory>) => memoryReminder(m.files);

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'da-memory-containment-')));
  home = join(root, 'home');
  cwd = join(root, 'proj');
  outside = join(root, 'outside');
  mkdirSync(cwd, { recursive: true });
  put(join(home, '.ssh', 'id_rsa'), `${KEY}\n`);
  put(join(home, '.aws', 'credentials'), `${AWS}\n`);
  put(join(outside, 'notes.md'), 'outside notes\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

test('unit: a project CLAUDE.md symlinked to a credential file is not read (warned); one symlinked to an ordinary outside file is, as the reference', () => {
  link(join(home, '.ssh', 'id_rsa'), join(cwd, 'CLAUDE.md'));
  link(join(home, '.aws', 'credentials'), join(cwd, 'CLAUDE.local.md'));
  link(join(outside, 'notes.md'), join(cwd, '.claude', 'CLAUDE.md'));
  const m = load();
  assert.ok(!text(m).includes(KEY) && !text(m).includes(AWS), 'no credential reached the model');
  assert.ok(text(m).includes('outside notes'), 'an ordinary file outside is followed, as Claude Code does');
  assert.ok(
    m.warnings.some((w) => w.startsWith(`${join(cwd, 'CLAUDE.md')}: not loaded: it is a credential file`)),
    m.warnings.join('\n'),
  );
  assert.ok(
    m.warnings.some((w) => w.startsWith(`${join(cwd, 'CLAUDE.local.md')}: not loaded: it is a credential file`)),
    m.warnings.join('\n'),
  );
});

test('unit: a project @import that resolves outside — a symlinked file, a symlinked directory on the way — is not read (warned); an in-project symlink is', () => {
  put(join(cwd, 'CLAUDE.md'), 'p\n@./imp-link.md\n@./rlink/deep.md\n@./key.md\n@./docs/in-link.md\n');
  link(join(outside, 'notes.md'), join(cwd, 'imp-link.md'));
  put(join(outside, 'rdir', 'deep.md'), 'outside deep\n');
  link(join(outside, 'rdir'), join(cwd, 'rlink'));
  link(join(home, '.ssh', 'id_rsa'), join(cwd, 'key.md'));
  put(join(cwd, 'docs', 'real.md'), 'in-project target\n');
  link(join(cwd, 'docs', 'real.md'), join(cwd, 'docs', 'in-link.md'));
  const m = load();
  const t = text(m);
  assert.ok(!t.includes('outside notes') && !t.includes('outside deep') && !t.includes(KEY), t);
  assert.ok(t.includes('in-project target'));
  for (const spec of ['./imp-link.md', './rlink/deep.md', './key.md']) {
    assert.ok(
      m.warnings.some((w) => w.startsWith(`${join(cwd, 'CLAUDE.md')}: @import ${spec} is not loaded:`)),
      `${spec}: ${m.warnings.join('\n')}`,
    );
  }
});

test('unit: a project rule symlinked out of the project, or a rules directory that is a symlink, is not read (as the reference)', () => {
  put(join(outside, 'rule.md'), 'outside rule\n');
  link(join(outside, 'rule.md'), join(cwd, '.claude', 'rules', 'r.md'));
  link(join(home, '.ssh', 'id_rsa'), join(cwd, '.claude', 'rules', 'k.md'));
  put(join(cwd, '.claude', 'rules', 'ok.md'), 'in-project rule\n');
  const sub = join(cwd, 'sub');
  put(join(outside, 'rdir', 'r2.md'), 'outside rules dir\n');
  link(join(outside, 'rdir'), join(sub, '.claude', 'rules'));
  const m = loadMemory(sub, {
    home,
    configDir: join(home, '.claude'),
    managed: join(root, 'no-managed.md'),
    workingDirectories: [cwd],
  });
  const t = text(m);
  assert.ok(t.includes('in-project rule'));
  assert.ok(!t.includes('outside rule') && !t.includes(KEY) && !t.includes('outside rules dir'), t);
  assert.equal(m.warnings.filter((w) => w.includes(': not loaded: ')).length, 3, m.warnings.join('\n'));
});

test('unit: user memory may import any file but a credential file; a Read deny rule keeps a file out', () => {
  put(join(home, '.claude', 'CLAUDE.md'), 'user\n@~/notes.md\n@~/.ssh/id_rsa\n@~/.aws/credentials\n');
  put(join(home, 'notes.md'), 'user notes\n');
  put(join(cwd, 'CLAUDE.md'), 'p\n@./secret.md\n@./plain.md\n');
  put(join(cwd, 'secret.md'), 'DENIED-TEXT\n');
  put(join(cwd, 'plain.md'), 'plain\n');
  const readDenied = hiddenPathPredicate(
    'Read',
    { allow: [], ask: [], deny: ['Read(./secret.md)'] },
    { cwd, workingDirectories: [cwd] },
  );
  const m = load({ readDenied });
  const t = text(m);
  assert.ok(t.includes('user notes') && t.includes('plain'));
  assert.ok(!t.includes(KEY) && !t.includes(AWS) && !t.includes('DENIED-TEXT'), t);
  assert.ok(
    m.warnings.some((w) => w.includes('@import ./secret.md is not loaded: a Read deny rule covers it')),
    m.warnings.join('\n'),
  );
  assert.equal(
    m.warnings.filter((w) => w.includes('is not loaded: it is a credential file')).length,
    2,
    m.warnings.join('\n'),
  );
});

test('unit: a CLAUDE.md that is a FIFO does not hang the loader', () => {
  execFileSync('mkfifo', [join(cwd, 'CLAUDE.md')]);
  put(join(cwd, 'CLAUDE.local.md'), 'local\n');
  const m = load();
  assert.deepEqual(
    m.files.map((f) => f.path),
    [join(cwd, 'CLAUDE.local.md')],
  );
});

// Loads under the swap: 1,000 by default (issue 32: two swapper threads spin a core each for as long
// as the loads run), 2,000 with RACES_DEEP=1 (as unit/races). The control: both swappers flipped.
const MEMORY_LOADS = process.env.RACES_DEEP === '1' ? 2000 : 1000;

test(`unit: a CLAUDE.md swapped between a file and a symlink to ~/.ssh/id_rsa while memory loads, ${MEMORY_LOADS.toLocaleString('en-US')} times: the key is never read`, async () => {
  const fx = createRaceFixture();
  try {
    const h = join(fx.root, 'home');
    put(join(h, '.ssh', 'id_rsa'), `${KEY}\n`);
    // The project's CLAUDE.md is the flipped entry; it imports @./x, the flipped file of the fixture's second entry.
    put(join(fx.proj, 'CLAUDE.md'), 'project memory\n@./d/x\n');
    const flipMd = startFlipper(fx, 'file', join(fx.proj, 'CLAUDE.md'), join(h, '.ssh', 'id_rsa'));
    const flipDir = startFlipper(fx, 'dir');
    let leaked = 0;
    try {
      for (let i = 0; i < MEMORY_LOADS; i++) {
        const m = loadMemory(fx.proj, { home: h, configDir: join(h, '.claude'), managed: join(fx.root, 'none.md') });
        const t = memoryReminder(m.files);
        if (t.includes(KEY) || t.includes('BAIT-SECRET')) leaked++;
        // Yield now and then so the swappers' threads get the CPU on a loaded machine.
        if (i % 100 === 0) await new Promise((r) => setImmediate(r));
      }
    } finally {
      assert.ok((await flipMd.stop()) > 0);
      assert.ok((await flipDir.stop()) > 0);
    }
    assert.equal(leaked, 0);
    const after = loadMemory(fx.proj, { home: h, configDir: join(h, '.claude'), managed: join(fx.root, 'none.md') });
    assert.ok(
      memoryReminder(after.files).includes('project memory') && memoryReminder(after.files).includes('safe X[A]'),
      'with the swappers stopped, the memory and its import load',
    );
  } finally {
    rmSync(fx.root, { recursive: true, force: true });
  }
});
