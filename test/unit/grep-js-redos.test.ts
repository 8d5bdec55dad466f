// Grep's JavaScript fallback (no ripgrep) against a pattern the agent chose that backtracks
// catastrophically (ReDoS, issue 30): the worker's one thread is never held more than about a
// second at a time, the call ends in a few seconds, and its result says which files were not
// searched and why. Before the fix `(a+)+$` over 30 `a`s and a `!` held the thread 10-15 s per file.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GrepTool } from '../../src/tools/grep';
import { makeTmpDir, removeDir, ToolSession } from './tools-harness';

// ripgrep made unavailable the way grepEngine.ts detects it: `rg --version` does not run.
process.env.DURABLE_AGENT_RG_PATH = '/nonexistent/fixf/rg';
delete process.env.DURABLE_AGENT_GREP_ENGINE;

let dir: string;
before(async () => {
  dir = await makeTmpDir('grep-redos-');
  const bomb = `${'a'.repeat(30)}!\n`;
  for (let i = 0; i < 5; i++) await fs.writeFile(path.join(dir, `bomb${i}.txt`), bomb);
  await fs.writeFile(path.join(dir, 'plain.txt'), 'needle here\n');
  await fs.writeFile(path.join(dir, 'big.log'), 'row y y\n'.repeat(300_000) + 'last pin\n');
});
after(() => removeDir(dir));

/** Runs the call while a 50 ms ticker measures the longest stretch the thread was held. */
async function timedGrep(input: Record<string, unknown>) {
  let last = Date.now();
  let held = 0;
  const tick = setInterval(() => {
    const now = Date.now();
    held = Math.max(held, now - last);
    last = now;
  }, 50);
  const t0 = Date.now();
  try {
    const r = await new ToolSession(dir).run(GrepTool, input);
    return { r, held: Math.max(held, Date.now() - last), wall: Date.now() - t0 };
  } finally {
    clearInterval(tick);
  }
}

describe('Grep JavaScript fallback: a catastrophically backtracking pattern (issue 30)', () => {
  it('one file: the thread is held at most ~1 s and the result names the file not searched', async () => {
    const { r, held, wall } = await timedGrep({ pattern: '(a+)+$', path: 'bomb0.txt', output_mode: 'content' });
    assert.equal(r.data?.engine, 'javascript');
    assert.ok(held < 1800, `the worker's thread was held ${held} ms`);
    assert.ok(wall < 5000, `the call took ${wall} ms`);
    assert.match(r.text, /bomb0\.txt: not searched: the pattern ran over 1 s/);
  });

  it('many files: the call stops after a few time-outs and says how many files were left', async () => {
    const { r, held, wall } = await timedGrep({ pattern: '(a+)+$' });
    assert.ok(held < 1800, `the worker's thread was held ${held} ms`);
    assert.ok(wall < 6000, `the call took ${wall} ms`);
    assert.match(r.text, /not searched: the pattern ran over 1 s/);
    assert.match(r.text, /files? not searched: the search stopped after 3 files/);
  });

  it('control: an ordinary pattern still finds its matches, with case folding and unicode', async () => {
    const { r } = await timedGrep({ pattern: 'NEEDLE', '-i': true, output_mode: 'content' });
    assert.equal(r.text, 'plain.txt:1:needle here');
    const u = await timedGrep({ pattern: '\\p{L}+dle', output_mode: 'files_with_matches' });
    assert.equal(u.r.text, 'Found 1 file\nplain.txt');
  });

  it('control: a file that takes many slices is searched whole, line by line and multiline', async () => {
    const lines = await timedGrep({ pattern: 'y', path: 'big.log', output_mode: 'count' });
    assert.equal(lines.r.text, 'big.log:600000\n\nFound 600000 total occurrences across 1 file.');
    const multi = await timedGrep({ pattern: 'y\\nlast', path: 'big.log', output_mode: 'count', multiline: true });
    assert.equal(multi.r.text, 'big.log:1\n\nFound 1 total occurrence across 1 file.');
    const last = await timedGrep({ pattern: 'pin', path: 'big.log', output_mode: 'content' });
    assert.equal(last.r.text, 'big.log:300001:last pin');
    assert.ok(Math.max(lines.held, multi.held, last.held) < 1000, 'the thread was given back between slices');
  });
});
