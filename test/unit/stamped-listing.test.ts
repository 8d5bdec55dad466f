// unit: directory listings kept while the directory is unchanged (src/sandbox/stampedListing.ts,
// issue 32: per-call cost). A kept listing must never hide a change: an entry made, removed, renamed
// or swapped for a link is seen at the next read, and a directory changed within the margin of its
// read (the file system's clock is coarser than the read) is read again every time. The protected
// paths' walk (protect.ts scanProtected) gives the same entries and truncation from kept listings as
// from fresh reads, at every budget and depth, before and after the tree changes.
import { after, afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { StampedListings, setListingMarginForTests } from '../../src/sandbox/stampedListing';
import { scanProtected, type ProtectedScan } from '../../src/sandbox/protect';

const base = fs.realpathSync(fs.mkdtempSync(path.join(tmpdir(), 'da-stamped-listing-')));
after(() => fs.rmSync(base, { recursive: true, force: true }));
afterEach(() => setListingMarginForTests(2_000));

let seq = 0;
const dirOf = (files: string[]): string => {
  const d = path.join(base, `d${++seq}`);
  fs.mkdirSync(d);
  for (const f of files) fs.writeFileSync(path.join(d, f), 'x');
  return d;
};

/** Until the clock is past every change time below `dir` (ms): what a margin of 0 keeps from then on. */
async function settled(dir: string): Promise<void> {
  const newest = (p: string): number => {
    const st = fs.lstatSync(p);
    if (!st.isDirectory()) return st.ctimeMs;
    return Math.max(st.ctimeMs, st.mtimeMs, ...fs.readdirSync(p).map((n) => newest(path.join(p, n))));
  };
  const t = newest(dir);
  while (Date.now() <= t + 1) await new Promise((r) => setTimeout(r, 2));
}

const counted = () => {
  let reads = 0;
  const l = new StampedListings((_d, entries) => {
    reads++;
    return entries.map((e) => `${e.name}${e.isDirectory() ? '/' : e.isSymbolicLink() ? '@' : ''}`).sort();
  });
  return { l, reads: () => reads };
};

test('a listing is kept while its directory is unchanged; an entry made, removed, renamed or swapped for a link is seen at once', async () => {
  setListingMarginForTests(0);
  const d = dirOf(['a', 'b']);
  await settled(d);
  const { l, reads } = counted();
  assert.deepEqual(l.of(d), ['a', 'b']);
  assert.deepEqual(l.of(d), ['a', 'b']);
  assert.equal(reads(), 1, 'kept: read once');
  const steps: Array<[() => void, string[]]> = [
    [() => fs.writeFileSync(path.join(d, 'c'), 'x'), ['a', 'b', 'c']],
    [() => fs.rmSync(path.join(d, 'a')), ['b', 'c']],
    [() => fs.renameSync(path.join(d, 'b'), path.join(d, '.mcp.json')), ['.mcp.json', 'c']],
    [
      () => {
        fs.rmSync(path.join(d, 'c'));
        fs.symlinkSync('/etc', path.join(d, 'c'));
      },
      ['.mcp.json', 'c@'],
    ],
    [() => fs.mkdirSync(path.join(d, '.claude')), ['.claude/', '.mcp.json', 'c@']],
  ];
  for (const [change, want] of steps) {
    const before = reads();
    change();
    assert.deepEqual(l.of(d), want, 'seen at the first read after the change');
    assert.equal(reads(), before + 1);
    await settled(d);
    l.of(d);
    l.of(d);
    assert.ok(reads() <= before + 2, 'kept again once settled');
  }
  // A directory replaced by another at the same path (renamed into place): a new stamp.
  const other = dirOf(['z']);
  fs.rmSync(d, { recursive: true });
  fs.renameSync(other, d);
  assert.deepEqual(l.of(d), ['z']);
});

test("the caller's own lstat of the directory (the object screen's) stands for the listing's: kept while unchanged, a change seen at once", async () => {
  setListingMarginForTests(0);
  const d = dirOf(['a']);
  await settled(d);
  const { l, reads } = counted();
  const taken = () => fs.lstatSync(d);
  assert.deepEqual(l.of(d, taken()), ['a']);
  assert.deepEqual(l.of(d, taken()), ['a']);
  assert.deepEqual(l.of(d), ['a'], 'the same kept listing with or without it');
  assert.equal(reads(), 1);
  fs.writeFileSync(path.join(d, 'b'), 'x');
  assert.deepEqual(l.of(d, taken()), ['a', 'b'], 'a new entry is seen at the first read after it');
  assert.equal(reads(), 2);
  // A file's stamp is no directory's: read, never kept.
  fs.writeFileSync(path.join(d, 'c'), 'x');
  assert.deepEqual(l.of(d, fs.lstatSync(path.join(d, 'a'))), ['a', 'b', 'c']);
});

test('control: a directory changed within the margin of its read is read again every time', () => {
  const d = dirOf(['a']);
  const { l, reads } = counted();
  for (let i = 0; i < 5; i++) l.of(d);
  assert.equal(reads(), 5, 'nothing kept: its last change is within 2 s of the read');
});

const shape = (s: ProtectedScan) =>
  JSON.stringify({
    truncated: s.truncated,
    entries: [...s.entries.values()].sort((a, b) => a.path.localeCompare(b.path)),
  });

/** A project with protected entries at every depth, plain files around them, node_modules and links. */
function project(): string {
  const root = path.join(base, `p${++seq}`);
  const files: Record<string, string> = {
    'a.txt': 'x',
    '.mcp.json': '{}',
    'src/x.ts': 'x',
    'src/y.ts': '',
    'src/lib/.envrc': 'x',
    'src/lib/z.ts': 'x',
    'src/lib/deep/one/.claude/settings.json': '{}',
    'src/lib/deep/one/two/.vscode/tasks.json': '{}',
    'pkg/.git/config': '[core]',
    'pkg/.git/hooks/pre-commit': 'x',
    'pkg/.config/git/config': 'x',
    'pkg/mise.dev.toml': 'x',
    'node_modules/.bin/tool': 'x',
    'node_modules/m/.claude/x': 'x',
    '.husky/pre-commit': 'x',
  };
  for (const [f, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    fs.writeFileSync(path.join(root, f), text);
  }
  for (let i = 0; i < 12; i++) fs.writeFileSync(path.join(root, 'src', `f${i}.ts`), 'x');
  fs.symlinkSync('/etc', path.join(root, 'src', 'linked'));
  fs.symlinkSync('a.txt', path.join(root, '.bashrc'));
  return root;
}

/** Each budget and depth: the scan from kept listings against one from fresh reads. */
function compareAll(root: string, label: string): void {
  for (const depth of [1, 2, 3, 5])
    for (let budget = 0; budget <= 60; budget++) {
      setListingMarginForTests(Infinity); // nothing kept: every directory read
      const fresh = shape(scanProtected([root], [], depth, budget));
      setListingMarginForTests(0);
      scanProtected([root], [], depth, budget); // keeps every settled listing
      const kept = shape(scanProtected([root], [], depth, budget));
      assert.equal(kept, fresh, `${label}: depth ${depth}, budget ${budget}`);
    }
}

test('scanProtected: the same entries and truncation from kept listings as from fresh reads, before and after changes', async () => {
  const root = project();
  await settled(root);
  compareAll(root, 'settled');
  assert.ok(JSON.parse(shape(scanProtected([root], [], 5, 10))).truncated, 'control: a small budget truncates');
  // Changes deep in the tree and at the top, seen by the next scan (their directories' stamps moved).
  setListingMarginForTests(0);
  const keptScan = () => [...scanProtected([root]).entries.keys()];
  const claude = path.join(root, 'src/lib/deep/one/.claude');
  assert.ok(keptScan().includes(claude));
  fs.rmSync(claude, { recursive: true });
  fs.writeFileSync(path.join(root, 'src/lib/deep/one/.gitmodules'), 'x');
  fs.renameSync(path.join(root, 'src/x.ts'), path.join(root, 'src/.envrc'));
  const now = keptScan();
  assert.ok(!now.includes(claude), 'a removed protected directory is gone at once');
  assert.ok(now.includes(path.join(root, 'src/lib/deep/one/.gitmodules')), 'a new one at depth 5 is seen at once');
  assert.ok(now.includes(path.join(root, 'src/.envrc')), 'a rename into a protected name is seen at once');
  compareAll(root, 'just changed');
  await settled(root);
  compareAll(root, 'changed, settled');
});
