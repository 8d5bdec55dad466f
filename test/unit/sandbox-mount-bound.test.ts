// unit: the denies the sandbox runtime certainly mounts, counted before a call is prepared (mountBound.ts;
// red team u, U10b): what counts, what is left out to keep the count a lower bound, the refusal past
// what bubblewrap takes, and the runtime's own limit as the bound's source; the placeholders made in slices.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  MAX_DENY_MOUNTS,
  RUNTIME_MAX_BWRAP_ARGS,
  certainDenyMounts,
  tooManyDenyMounts,
} from '../../src/sandbox/mountBound';
import { PlaceholderRegistry } from '../../src/sandbox/placeholders';

const base = mkdtempSync(path.join(os.tmpdir(), 'mount-bound-'));

test('unit: the bound is the runtime’s own (its BWRAP_MAX_ARGS): an upgrade that changes it fails here', () => {
  const utils = path.join(
    path.dirname(require.resolve('@anthropic-ai/sandbox-runtime')),
    'sandbox',
    'linux-sandbox-utils.js',
  );
  const m = /const BWRAP_MAX_ARGS = (\d+);/.exec(readFileSync(utils, 'utf8'));
  assert.ok(m, 'the runtime names its limit BWRAP_MAX_ARGS');
  assert.equal(Number(m[1]), RUNTIME_MAX_BWRAP_ARGS);
  assert.equal(MAX_DENY_MOUNTS, 3000);
});

test('unit: counted — there or absent in an open writable directory; left out — symlinked, covered, outside, unmakeable', () => {
  const root = path.join(base, 'p');
  const other = path.join(base, 'outside');
  for (const d of ['r1/.git/hooks', 'r2/.git', 'r3/.vscode', 'covered/dir', 'real', other])
    mkdirSync(path.resolve(root, d), { recursive: true });
  writeFileSync(path.join(root, 'real', 'f'), '');
  symlinkSync(path.join(root, 'real'), path.join(root, 'link'));
  const at = (p: string) => path.resolve(root, p);
  const denyWrite = [
    at('r1/.git/hooks'), // there: counted
    at('r2/.git/commondir'), // absent, parent open: counted
    at('r2/.git/commondir'), // the same twice: once
    at('r1/.git/hooks/pre-commit'), // under git's hooks (the runtime may deny them whole): left out
    at('r3/.vscode/settings.json'), // under a directory the runtime denies itself: left out
    at('covered'), // there: counted
    at('covered/dir/x'), // under another denied directory: left out
    at('link/f'), // through a symlink: left out
    at('missing/deeper/x'), // parent absent (its placeholder is an ancestor, maybe shared): left out
    path.join(other, 'x'), // outside the writable directories: left out
  ];
  // 3 denies, and the directories the runtime pins above two of them: r1, r1/.git, r2, r2/.git.
  assert.equal(certainDenyMounts({ allowWrite: [root], denyWrite }), 7);
  assert.equal(certainDenyMounts({ allowWrite: [], denyWrite }), 0);
});

test('unit: past what bubblewrap takes, refused with the nested repositories named and what to do', () => {
  const root = path.join(base, 'many');
  mkdirSync(root);
  const repos = Array.from({ length: MAX_DENY_MOUNTS + 1 }, (_, i) => path.join(root, `r${i}`, '.git'));
  // Absent paths in one open directory each count: no need to make three thousand files.
  const flat = Array.from({ length: MAX_DENY_MOUNTS + 1 }, (_, i) => path.join(root, `f${i}`));
  assert.equal(tooManyDenyMounts({ allowWrite: [root], denyWrite: flat.slice(1) }, [root]), undefined, '3000: runs');
  const why = tooManyDenyMounts({ allowWrite: [root], denyWrite: flat }, [root]);
  assert.match(
    why ?? '',
    /more than 3000 mounts for the 3001 paths .* nothing ran\..*start the session in a directory with fewer/s,
  );
  assert.equal(
    tooManyDenyMounts({ allowWrite: [root], denyWrite: flat, disabled: true }, [root]),
    undefined,
    'no filesystem sandbox: nothing to mount',
  );
  // Their `.git/commondir` (absent, in a `.git` that is not there either): none counted, none refused.
  const nested = repos.map((r) => path.join(r, 'commondir'));
  assert.equal(tooManyDenyMounts({ allowWrite: [root], denyWrite: nested }, [root]), undefined);
  // A thousand repositories: a placeholder each and two pins (r<i>, r<i>/.git) — 3000 runs; one more is refused.
  for (const r of repos.slice(0, 1001)) mkdirSync(r, { recursive: true });
  assert.equal(certainDenyMounts({ allowWrite: [root], denyWrite: nested.slice(0, 1000) }), 3000);
  assert.equal(tooManyDenyMounts({ allowWrite: [root], denyWrite: nested.slice(0, 1000) }, [root]), undefined);
  assert.match(
    tooManyDenyMounts({ allowWrite: [root], denyWrite: nested.slice(0, 1001) }, [root]) ?? '',
    /1001 git repositories/,
  );
  for (const r of repos.slice(1001)) mkdirSync(r, { recursive: true });
  assert.match(
    tooManyDenyMounts({ allowWrite: [root], denyWrite: nested }, [root]) ?? '',
    /3001 git repositories nested in the working directories \(r0, r1, r2, r3, r4, …\).*rm -rf <dir>\/\.git/s,
  );
});

test('unit (U10b, placeholders in slices): two commands’ holds and a release interleaved keep every placeholder a running command holds', async () => {
  const root = path.join(base, 'sliced');
  const dirs = Array.from({ length: 400 }, (_, i) => path.join(root, `r${i}`, '.git'));
  for (const d of dirs) mkdirSync(d, { recursive: true });
  const registry = new PlaceholderRegistry();
  const cfg = { allowWrite: [root], denyWrite: dirs.map((d) => path.join(d, 'commondir')) };
  // A first command holds the first half; a second, in slices, the whole while the first releases in between.
  const first = registry.hold({ ...cfg, denyWrite: cfg.denyWrite.slice(0, 200) }, base);
  assert.equal(first.paths.length, 200);
  const second = registry.holdSliced(cfg, base);
  const releasing = first.releaseSliced();
  const [held] = await Promise.all([second, releasing]);
  assert.equal(held.paths.length, 400, 'the second command holds all 400');
  assert.equal(
    cfg.denyWrite.filter((p) => existsSync(p)).length,
    400,
    'none removed under the second command by the first one’s release',
  );
  await held.releaseSliced();
  assert.equal(cfg.denyWrite.filter((p) => existsSync(p)).length, 0, 'all removed once nobody holds them');
  assert.deepEqual(registry.paths(), []);
});
