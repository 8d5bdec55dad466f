// unit: agent-controlled text in the CLI's human formats (src/cli/terminalText.ts): every C0 and C1
// control, DEL and bidi control is shown, never sent raw; newlines and tabs kept where a layout
// wants them; printable text (any script, emoji) unchanged. And JSON, the machine formats' encoding,
// escapes every C0 control itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { terminalLine, terminalSafe } from '../../src/cli/terminalText';

const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

test('unit: OSC 52, CSI, CR and BEL are shown, not sent', () => {
  const osc = 'ls\u001b]52;c;cm0gLXJmIH4=\u0007\r\u001b[2Kecho harmless';
  assert.equal(terminalSafe(osc), 'ls␛]52;c;cm0gLXJmIH4=␇\\r␛[2Kecho harmless');
  assert.equal(terminalSafe('a\u001b[1A\u001b[2Jb'), 'a␛[1A␛[2Jb');
  assert.equal(terminalSafe('\u0000\u0008\u007f'), '␀␈␡');
});

test('unit: C1 controls (a one-byte CSI, OSC, ST) and bidi overrides and isolates are shown as escapes', () => {
  assert.equal(terminalSafe('x\u009b2Jy\u009d52;c;x\u009c'), 'x\\u009b2Jy\\u009d52;c;x\\u009c');
  assert.equal(terminalSafe('rm -rf \u202eexe.txt'), 'rm -rf \\u202eexe.txt');
  for (const c of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069])
    assert.doesNotMatch(terminalSafe(`a${String.fromCharCode(c)}b`), RAW);
});

test('unit: every code point below U+00A0 and every bidi control comes out without a raw control', () => {
  let all = '';
  for (let c = 0; c < 0xa0; c++) all += String.fromCharCode(c);
  all += '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069';
  assert.doesNotMatch(terminalSafe(all), RAW);
  assert.doesNotMatch(terminalLine(all), /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
});

test('unit: newlines and tabs are kept for layouts, shown in one-line fields (an approval line)', () => {
  assert.equal(terminalSafe('a\nb\tc'), 'a\nb\tc');
  assert.equal(terminalLine('a\nb\tc\r'), 'a\\nb\\tc\\r');
  assert.equal(terminalSafe('a\nb', { newlines: false }), 'a\\nb');
});

test('unit: printable text is unchanged (other scripts, emoji, box drawing, marks that are not overrides)', () => {
  const s = 'café — 日本語 — עברית — 👍 ── ⏸ ✓ \u200f ~/x y.txt';
  assert.equal(terminalSafe(s), s);
  assert.equal(terminalLine(s), s);
});

test('unit: JSON (the machine formats) escapes every C0 control itself', () => {
  let c0 = '';
  for (let c = 0; c < 0x20; c++) c0 += String.fromCharCode(c);
  assert.doesNotMatch(JSON.stringify({ c0 }), /[\u0000-\u001f]/);
});

test('unit: guardStderr — every write to stderr shows controls (strings, Buffers split inside a character, console.error, a logger), stdout untouched (issue 30, K5, L6)', () => {
  const mod = JSON.stringify(require.resolve('../../src/cli/terminalText'));
  const script = `
    const { guardStderr } = require(${mod});
    guardStderr();
    guardStderr(); // twice is once
    process.stderr.write('warn \\x1b]52;c;UFdORUQ=\\x07\\x1b[2K end\\n');
    const b = Buffer.from('é\\u202e\\x1b[31m');
    process.stderr.write(b.subarray(0, 1));
    process.stderr.write(b.subarray(1), () => process.stdout.write('callback ran\\n'));
    process.stderr.write('\\n');
    console.error('log %s', 'formatted \\x1b[2K.js');
    process.stdout.write('out \\x1b[1m\\n');
  `;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /[\u001b\u0007\u202e]/, JSON.stringify(r.stderr));
  assert.equal(r.stderr, 'warn ␛]52;c;UFdORUQ=␇␛[2K end\né\\u202e␛[31m\nlog formatted ␛[2K.js\n');
  // The callback of a Buffer write still runs (asynchronously); stdout keeps its bytes.
  assert.deepEqual(r.stdout.split('\n').sort(), ['', 'callback ran', 'out \u001b[1m']);
});
