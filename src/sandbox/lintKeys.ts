// The Python linters' protected keys in ordinary project files (red team n, N7; red team o, O14).
// `.pylintrc`, `mypy.ini`, `.flake8` are protected files because the tool runs code they name when
// it merely starts (every editor's lint on save): pylint's `init-hook` (Python, exec'd) and
// `load-plugins`, mypy's `plugins` and `python_executable`, flake8's local plugins. The same keys are
// read from pyproject.toml (`[tool.pylint.*]`, `[tool.mypy]`, `[tool.flake8]`), setup.cfg and
// tox.ini (`[pylint.*]`, `[mypy]`, `[flake8:local-plugins]`, and `[DEFAULT]`, which configparser
// gives every section) — project files a session edits all the time. As for package.json's control
// keys (manifestBins.ts): after a sandboxed command (and as it runs) a file whose protected keys the
// command added or changed is put back as it was (removed when the command made it: a file cannot
// be half put back without a writer of the format), and the file tools refuse such an edit.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { iniKeys, tomlKeys, type ConfigKey } from './configKeys';
import { linkText, ownBytes, putBackLink } from './keptBytes';
import { MAX_MANIFEST_BYTES, rewrite, setAsideOrRemove } from './manifestBins';

/** The files read here (folded names). */
const LINT_FILES = new Set(['pyproject.toml', 'setup.cfg', 'tox.ini']);

/** Is this a file whose linter keys are watched (outside node_modules)? */
export function isLintManifest(dir: string, folded: string): boolean {
  return LINT_FILES.has(folded) && !dir.split(/[\\/]/).includes('node_modules');
}

/** pylint's options that run or import code (argparse takes any unambiguous prefix: a prefix counts). */
const PYLINT_KEYS = [
  'init-hook',
  'load-plugins',
  'extension-pkg-allow-list',
  'extension-pkg-whitelist',
  'unsafe-load-any-extension',
  'rcfile',
  // A Python expression pylint eval()s for the score it prints by default (red team q, Q15).
  'evaluation',
];
/** pylint's options that import code only for some values: a dotted reporter class (`pkg.mod.Reporter`, Q15). */
const PYLINT_DOTTED_KEYS = ['output-format'];
const MYPY_KEYS = ['plugins', 'python_executable'];

const prefixOf = (keys: readonly string[], k: string) => {
  const n = k.trim().toLowerCase().replace(/_/g, '-');
  return n !== '' && keys.some((d) => d.startsWith(n) || n.startsWith(d));
};
/** Does pylint run or import code for this option (`value`: as the file holds it)? */
const pylintKey = (k: string, value = '') =>
  prefixOf(PYLINT_KEYS, k) || (prefixOf(PYLINT_DOTTED_KEYS, k) && value.includes('.'));
const mypyKey = (k: string) => MYPY_KEYS.includes(k.trim().toLowerCase().replace(/-/g, '_'));

/** Does a key at this path of a pyproject.toml run code through pylint, mypy or flake8? */
function tomlProtected(p: readonly string[], value: string): boolean {
  const [top, tool, ...rest] = p.map((c) => c.toLowerCase());
  if (top !== 'tool') return false;
  if (tool === 'pylint') return rest.some((c) => pylintKey(c, value));
  if (tool === 'mypy') return rest.some(mypyKey);
  if (tool === 'flake8') return rest.some((c) => c.includes('local'));
  return false;
}

/** Does an option of this INI section run code through pylint, mypy or flake8 (or reach every section)? */
function iniProtected(section: string, key: string, value: string): boolean {
  const s = section.trim().toLowerCase();
  const all = s === 'default';
  return (
    ((all || s.includes('pylint')) && pylintKey(key, value)) ||
    ((all || s.includes('mypy')) && mypyKey(key)) ||
    ((all || s.includes('flake8')) && (s.includes('local') || /^(paths|extension|report)$/.test(key.trim())))
  );
}

/** The protected keys of a file's text, as one string to compare ('' when none); throws when unreadable. */
function protectedText(name: string, text: string): string {
  const keep = (keys: ConfigKey[], f: (k: ConfigKey) => boolean) => keys.filter(f).map((k) => [k.path, k.value]);
  if (name === 'pyproject.toml') {
    const keys = keep(tomlKeys(text), (k) => tomlProtected(k.path, k.value));
    return keys.length > 0 ? JSON.stringify(keys) : '';
  }
  // Read both ways configparser is used (pylint strips inline comments, mypy and flake8 do not).
  const keys = [true, false].flatMap((inline) =>
    keep(iniKeys(text, inline), (k) => iniProtected(k.path[0]!, k.path[1]!, k.value)),
  );
  return keys.length > 0 ? JSON.stringify(keys) : '';
}

/** What a file's protected keys are: what is compared, and its bytes (put back when they change). */
export interface LintState {
  /** The protected keys as text; `unreadable:<hash>` when the file cannot be read as its format. */
  keys: string;
  raw?: Buffer;
  /** Over MAX_MANIFEST_BYTES: its identity. */
  large?: string;
  /** The link's own text when the path was a symbolic link: put back instead of any bytes read through it (V13b). */
  link?: string;
  /** It was there, but its bytes could not be read as the project's own file (a link on the way: V13c). */
  unkept?: true;
}

const ABSENT: LintState = { keys: '' };

/** Are the protected keys `now` those of `was` or fewer (a command may remove one, as for package.json's)? */
function onlyRemoved(was: string, now: string): boolean {
  if (now === was || now === '') return true;
  const list = (t: string) => (t === '' ? [] : (JSON.parse(t) as unknown[]).map((k) => JSON.stringify(k)));
  if (!now.startsWith('[') || (was !== '' && !was.startsWith('['))) return false;
  const left = list(was);
  for (const k of list(now)) {
    const i = left.indexOf(k);
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

function stateOf(file: string): LintState | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return undefined;
    const id = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    if (st.size > MAX_MANIFEST_BYTES) return { keys: `large:${id}`, large: id };
    const raw = fs.readFileSync(fd);
    if (raw.length > MAX_MANIFEST_BYTES) return { keys: `large:${id}`, large: id };
    let keys: string;
    try {
      keys = protectedText(path.basename(file).toLowerCase(), raw.toString('utf8'));
    } catch {
      keys = `unreadable:${createHash('sha256').update(raw).digest('hex')}`;
    }
    return { keys, raw };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Each file's protected keys now: the baseline a command is compared with. */
export function lintKeysOf(files: readonly string[]): Map<string, LintState> {
  const out = new Map<string, LintState>();
  for (const f of files) {
    const state = stateOf(f) ?? ABSENT;
    const link = linkText(f);
    // What was read is compared; the bytes kept to put back are the project's own file, read again
    // without following a link anywhere on the way (V13b, V13c): none when that cannot be.
    const { raw: _r, ...judged } = state;
    const raw = link === undefined && state.raw ? ownBytes(f, MAX_MANIFEST_BYTES) : undefined;
    if (link !== undefined) out.set(f, { ...judged, link });
    else out.set(f, raw ? { ...judged, raw } : state.raw ? { ...judged, unkept: true } : judged);
  }
  return out;
}

const WHY =
  "pylint's init-hook, plugins or evaluation, mypy's plugins or python_executable, flake8's local plugins: the person's linter runs them when it starts";

/**
 * Puts back each file whose protected keys the command added or changed since `before` (as it was;
 * removed when new); one note per file.
 */
export function undoLintKeys(
  files: readonly string[],
  before: ReadonlyMap<string, LintState>,
  rel: (p: string) => string = (p) => p,
  /** While the command runs (liveGuard.ts): a file it cannot read may be half written; the check after the call judges it. */
  live = false,
): string[] {
  const notes: string[] = [];
  for (const f of files) {
    const now = stateOf(f);
    const was = before.get(f) ?? ABSENT;
    if (!now || onlyRemoved(was.keys, now.keys)) continue;
    if (live && now.keys.startsWith('unreadable:')) continue;
    const unsure = now.keys.startsWith('unreadable:') || now.large !== undefined;
    const what = unsure ? `it cannot be checked for ${WHY}` : `this call added or changed ${WHY}`;
    try {
      let done: string;
      if (was.link !== undefined) done = putBackLink(f, was.link);
      else if (was.raw) {
        rewrite(f, was.raw);
        done = 'put back as it was';
      } else {
        setAsideOrRemove(f, was.large !== undefined || was.unkept === true);
        done = was.large || was.unkept ? `moved to ${path.basename(f)}.set-aside` : 'removed';
      }
      notes.push(`${rel(f)}: ${done} (${what}; leave these keys to the person)`);
    } catch (err) {
      notes.push(`${rel(f)}: could not be undone (${what}): ${(err as Error).message}`);
    }
  }
  return notes;
}

/**
 * Why the file tools refuse to write `after` over `before` (null: a new file) at `file`, or
 * undefined: the write adds or changes the linter keys the sandbox puts back (every permission mode).
 */
export function lintEditRefusal(file: string, before: string | null, after: string): string | undefined {
  const name = path.basename(file).normalize('NFC').toLowerCase();
  if (!isLintManifest(path.dirname(file), name)) return undefined;
  const read = (t: string) => {
    try {
      return protectedText(name, t);
    } catch {
      return `unreadable:${createHash('sha256').update(t).digest('hex')}`;
    }
  };
  const was = before === null ? '' : read(before);
  const now = Buffer.byteLength(after) > MAX_MANIFEST_BYTES ? 'large' : read(after);
  if (onlyRemoved(was, now)) return undefined;
  const what =
    now.startsWith('unreadable:') || now === 'large' ? `cannot be checked for ${WHY}` : `adds or changes ${WHY}`;
  return `Refused to write ${file}: the edit ${what}. These keys are protected in every permission mode (docs/security.md "package.json keys"); leave them to the person.`;
}
