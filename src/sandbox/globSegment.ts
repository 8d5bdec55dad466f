// One path segment of a glob that a sandboxed command may have written (a lefthook `extends:`, a
// pnpm workspace's `packages:`), as a test of a directory entry's name. It never throws: the readers
// of the person's hook configuration run after every command, and a `[` left unescaped in a RegExp
// made them throw — and the hook-path screens that caught the throw saw no hook paths at all (red
// team v, V11). A `[...]` class is a class (`!` or `^` negates); a `[` with no `]` after it, or a
// class JavaScript refuses (`[z-a]`), is the character itself.

import { setFlagsFromString } from 'node:v8';

// Backtracking bounded as the Glob tool's is (tools/globPattern.ts; red team w, W10: lefthook-local.yml's
// `extends: x/*a*a*a*a*a*a*a*a*b` over a 46-character name held the worker's thread 24 s): past 50,000
// backtracks V8 runs the RegExp again on its linear-time engine.
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

/** `s` with every character a RegExp reads specially escaped. */
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** The RegExp source of one glob segment: `*` → `star`, `?` → `one`, classes kept, the rest literal. */
function source(seg: string, star: string, one: string, classes: boolean): string {
  let re = '';
  for (let k = 0; k < seg.length; k++) {
    const ch = seg[k]!;
    if (ch === '*') re += star;
    else if (ch === '?') re += one;
    else if (ch === '[' && classes) {
      const from = seg[k + 1] === '!' || seg[k + 1] === '^' ? k + 2 : k + 1;
      // A `]` right after the opening (or its negation) is a member, as in fnmatch.
      const close = seg.indexOf(']', from + 1);
      if (close < 0) {
        re += '\\[';
        continue;
      }
      const body = seg.slice(from, close).replace(/[\\\]^[]/g, '\\$&');
      re += `[${from === k + 2 ? '^' : ''}${body}]`;
      k = close;
    } else re += escaped(ch);
  }
  return re;
}

/**
 * A test of a name against the glob segment `seg`; `star` and `one` are what `*` and `?` match (a
 * name's characters: `[^/]*`, `[^/]`, or `.*`, `.`). Never throws.
 */
export function segmentTest(seg: string, star: string, one: string): (name: string) => boolean {
  for (const classes of [true, false]) {
    try {
      const re = new RegExp(`^${source(seg, star, one, classes)}$`, 's');
      return (name) => re.test(name);
    } catch {
      // a class JavaScript refuses: its `[` read as itself
    }
  }
  return (name) => name === seg;
}
