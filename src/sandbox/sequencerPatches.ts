// The patches a stopped `git am` (or `git rebase --apply`) has still to apply (red team t, T3). They
// wait in `.git/rebase-apply/0001`, `0002`… (and the current one in `patch`): work-tree content that
// the person's `git am --skip` or `--continue` (what `git status` tells them) applies AND commits.
// The main checkout's sandbox writes `.git/` beyond its config and hooks, so a command can leave an am
// stopped at a patch that no longer applies with a next one replacing `.githooks/pre-commit`: their
// next commit ran the agent's hook. After each command, each patch file it created or changed is read
// for the paths it touches (git's headers: `diff --git`, `---`/`+++`, `rename`/`copy`; every leading
// component stripped in turn, as `-p<n>` would); one touching the repository's hook paths (the ref
// screen's P1 rule, hookPathspecs.ts) or a `.git` entry — or that cannot be read, or is
// MIME-encoded (am decodes base64 and quoted-printable bodies; a charset that is no ASCII superset, W4), or an `apply-opt` the command wrote
// with an option that may move the paths (anything but the whitespace, context, `-p`, `--reject`,
// `--include`/`--exclude` options: git reads `--dir` as `--directory`, V14), or a `threeway` it wrote, or
// any patch it wrote while `threeway` is there (am -3's fallback follows renames into the hooks, V20) —
// removes the operation's state, named: it can be neither continued nor skipped into the patch.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readdirOwned, readRegularFile, removeTree } from './anchored';
import { hookPathspecs, hooksUnread } from './hookPathspecs';
import { protectedRepositoryEntry } from '../permissions/protectedPaths';
import { commonDirOf } from './repoConfigTargets';
import { gitlinkChangesControl, patchGitlinks } from './gitlinkCommits';

const APPLY = 'rebase-apply';
/** A patch file's name in the am state: numbered, or the current one. */
const PATCH = /^(\d{4,}|patch)$/;
/** A patch bigger than this is not read: the command's, and the operation's state removed. */
const MAX_PATCH = 16 << 20;
/** Patch files one command's check reads at most; past it the state is removed. */
const MAX_PATCHES = 2_000;
const STAMP = 'stamp:';
/**
 * am's `-3` (`rebase-apply/threeway`): a patch that does not apply falls back to a 3-way merge whose
 * rename detection pairs the patch's pre-image with a similar file of HEAD — a hook (red team v, V20).
 */
const THREEWAY = 'threeway';

const stampOf = (p: string): string | undefined => {
  const st = fs.lstatSync(p, { throwIfNoEntry: false });
  return st ? `${STAMP}${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : undefined;
};

/** The am state's patch files and `apply-opt` of `gitDirs` (their sequencerDirs): path → stamp. */
export function patchStamps(dirs: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const g of dirs) {
    const dir = path.join(g, APPLY);
    let names: fs.Dirent[];
    try {
      names = readdirOwned(dir);
    } catch {
      continue;
    }
    for (const e of names) {
      if (!PATCH.test(e.name) && e.name !== 'apply-opt' && e.name !== THREEWAY) continue;
      const s = stampOf(path.join(dir, e.name));
      if (s) out.set(path.join(dir, e.name), s);
    }
  }
  return out;
}

/** A C-quoted name of git's headers (`"a/x\tb"`), unquoted; the text itself when not quoted. */
function unquote(name: string): string {
  if (!name.startsWith('"')) return name;
  const body = name.slice(1, name.lastIndexOf('"') > 0 ? name.lastIndexOf('"') : undefined);
  return body.replace(/\\([0-7]{3}|.)/g, (_, c: string) =>
    /^[0-7]{3}$/.test(c)
      ? String.fromCharCode(parseInt(c, 8))
      : (({ n: '\n', t: '\t' } as Record<string, string>)[c] ?? c),
  );
}

/** Every name a patch's headers give (both halves of `diff --git`, whichever way git splits it). */
export function patchNames(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    let m = /^diff --git (.*)$/.exec(line);
    if (m) {
      const rest = m[1]!;
      out.push(rest);
      for (let i = rest.indexOf(' '); i >= 0; i = rest.indexOf(' ', i + 1))
        out.push(rest.slice(0, i), rest.slice(i + 1));
      continue;
    }
    m = /^(?:---|\+\+\+|rename from|rename to|copy from|copy to|rename old|rename new) (.*)$/.exec(line);
    if (m) out.push(m[1]!, m[1]!.split('\t')[0]!);
  }
  return out.map((n) => unquote(n.trim())).filter((n) => n !== '' && n !== '/dev/null');
}

/** Does one of `names`, any leading components stripped, name a hook path, a protected path or a `.git` entry? */
export function touchesHooks(names: readonly string[], specs: readonly string[]): boolean {
  if (hooksUnread(specs)) return names.length > 0; // not screenable (red team v, V11)
  for (const name of names) {
    const parts = name.split('/').filter((p) => p !== '' && p !== '.');
    if (parts.some((p) => p.toLowerCase() === '.git')) return true;
    if (protectedRepositoryEntry(parts.join('/')) !== undefined) return true; // a protected path, any depth (X1)
    for (let i = 0; i < parts.length; i++) {
      const rel = parts.slice(i).join('/');
      if (specs.some((s) => rel === s || rel.startsWith(`${s}/`) || s.startsWith(`${rel}/`))) return true;
    }
  }
  return false;
}

/** Transfer encodings that leave the body as it is written. */
const PLAIN_ENCODINGS = new Set(['', '7bit', '8bit', 'binary']);
/**
 * Charsets whose conversion to UTF-8 leaves every ASCII byte as it is. mailinfo converts each line of the
 * message from the mail's `charset=` — the patch's first line too, which ends the message (red team w, W4:
 * in UTF-7 `+AC4-githooks` is `.githooks`, and a binary patch's names are that line's alone).
 */
const ASCII_CHARSETS = /^(?:|us-ascii|ascii|utf-?8|iso[-_]?8859[-_]?\d{1,2}|latin-?1|(?:windows|cp)-?125\d)$/i;

/**
 * Does a `Content-Transfer-Encoding` header anywhere in the patch (the mail's, or a MIME part's; folded
 * lines joined) name anything but a plain encoding, or a `Content-Type` header a flowed format or a
 * charset that rewrites ASCII (UTF-7, UTF-16, ISO-2022, EBCDIC…: W4)? git's mailinfo decodes a body whose value merely
 * CONTAINS base64 or quoted-printable (`x-base64`, an RFC 2047 `=?utf-8?q?base64?=`): a value that is not
 * plain is refused, never read as text (red team u, U4).
 */
export function encodedBody(text: string): boolean {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  for (let i = 0; i < lines.length; i++) {
    const m = /^content-(transfer-encoding|type)[ \t]*:(.*)$/i.exec(lines[i]!);
    if (!m) continue;
    let value = m[2]!;
    while (i + 1 < lines.length && /^[ \t]/.test(lines[i + 1]!)) value += ` ${lines[++i]!}`;
    // A `format=flowed` body (any `format=` attribute of the value, as git's has_attr_value finds it):
    // mailinfo joins its soft-broken lines (`.gith ` + `ooks/pre-commit`) before git apply reads them (red team v, V9).
    if (m[1]!.toLowerCase() === 'type') {
      if (/format=\s*"?\s*flowed/i.test(value)) return true;
      // Every `charset=` in the value (git's slurp_attr takes the first, anywhere: `xcharset=` too).
      for (const c of value.matchAll(/charset=("?)([^"; \t]*)/gi)) if (!ASCII_CHARSETS.test(c[2]!)) return true;
    } else if (!PLAIN_ENCODINGS.has(value.trim().toLowerCase())) return true;
  }
  return false;
}

/**
 * The options `git am` hands to `git apply` that move no path (am.c: the whitespace ones, context,
 * `-p`, `--reject`, `--include`/`--exclude`), each word whole. Anything else in an `apply-opt` the
 * command wrote is refused: git apply's option parser takes any unambiguous prefix of a long option,
 * `--dir=.githooks` is `--directory=.githooks` (red team v, V14).
 */
const SAFE_APPLY_OPT =
  /^(?:--whitespace=[a-z-]*|--ignore-space-change|--ignore-whitespace|--reject|-C\d+|-p\d+|--(?:in|ex)clude=.*)$/s;

/** Is an `apply-opt` text (git's shell-quoted words, as am reads them: quote.c sq_dequote) only safe options? */
function applyOptsSafe(text: string): boolean {
  const s = text.trim();
  let i = 0;
  while (i < s.length) {
    if (/\s/.test(s[i]!)) {
      i++;
      continue;
    }
    if (s[i] !== "'") return false;
    let word = '';
    for (;;) {
      const end = s.indexOf("'", i + 1);
      if (end < 0) return false;
      word += s.slice(i + 1, end);
      i = end + 1;
      // `'\''` and `'\!'`: a quote or a `!` between two quoted parts of one word.
      if (s[i] !== '\\' || (s[i + 1] !== "'" && s[i + 1] !== '!') || s[i + 2] !== "'") break;
      word += s[i + 1];
      i += 2;
    }
    if (i < s.length && !/\s/.test(s[i]!)) return false;
    if (!SAFE_APPLY_OPT.test(word)) return false;
  }
  return true;
}

/** Why a patch file the command wrote is refused; undefined when it touches nothing of the hooks. */
function patchVerdict(p: string, specs: readonly string[]): string | undefined {
  const text = readRegularFile(p, MAX_PATCH);
  if (text === undefined) return undefined;
  if (text === null) return 'is no regular file (or too big to read)';
  // git am writes `threeway` in every state, `t` or `f`: on is `t`.
  const on = (f: string) => readRegularFile(f, 64)?.trim() === 't';
  if (path.basename(p) === THREEWAY)
    return on(p) ? 'turns on am’s 3-way fallback, whose rename detection carries a patch into the hooks' : undefined;
  if (on(path.join(path.dirname(p), THREEWAY)))
    return 'is a patch of an am with its 3-way fallback on, whose rename detection carries a patch into the hooks';
  if (path.basename(p) === 'apply-opt')
    return applyOptsSafe(text) ? undefined : 'holds an option git apply may read as --directory (it moves the paths)';
  if (encodedBody(text)) return 'is encoded (not read)';
  if (touchesHooks(patchNames(text), specs)) return 'changes the repository’s hooks or carries a git directory';
  // A gitlink it moves, followed into the submodule's objects (gitlinkCommits.ts; red team y, Y4).
  const links = patchGitlinks(text);
  const gitDir = commonDirOf(path.dirname(path.dirname(p)));
  return links === undefined || links.some((g) => gitlinkChangesControl(gitDir, g))
    ? 'moves a gitlink to a submodule commit that changes a protected path there (or could not be screened)'
    : undefined;
}

/**
 * After a command: an am state (`rebase-apply/`) with a patch file it created or changed that changes
 * the hooks (see above) is removed whole; one note each.
 */
export function undoHookPatches(
  before: ReadonlyMap<string, string | undefined | null>,
  dirs: readonly string[],
  rel: (p: string) => string,
): string[] {
  const notes: string[] = [];
  const now = patchStamps(dirs);
  const byDir = new Map<string, string[]>();
  for (const [p, stamp] of now)
    if (before.get(p) !== stamp) byDir.set(path.dirname(p), [...(byDir.get(path.dirname(p)) ?? []), p]);
  for (const [dir, changed] of byDir) {
    const gitDir = path.dirname(dir);
    let why: string | undefined;
    let which = changed[0]!;
    if (changed.length > MAX_PATCHES)
      why = `is one of ${changed.length} patch files the command wrote (too many to read)`;
    else {
      const specs = hookPathspecs(commonDirOf(gitDir));
      for (const p of changed.sort()) {
        why = patchVerdict(p, specs);
        which = p;
        if (why) break;
      }
    }
    if (!why) continue;
    let ok = true;
    try {
      removeTree(dir);
    } catch {
      ok = false;
    }
    notes.push(
      `${rel(gitDir)}: ${APPLY}/${path.basename(which)} ${why} (the person’s \`git am --skip\` or \`--continue\` would apply and commit it): ${ok ? 'the operation’s state removed' : 'could not be undone'}`,
    );
  }
  return notes;
}
