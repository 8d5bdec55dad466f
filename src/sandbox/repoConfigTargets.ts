// Files the PERSON's repository configuration names inside the project (red team, issue 30, M6):
// `.git/config` is protected, but what it points at was an ordinary project path — the directory
// `core.hooksPath` names (`.githooks`: the person's next `git commit` ran a hook a command rewrote)
// and the files `include.path` / `includeIf.*.path` include (absent: git ignores them; a command
// created one with `core.fsmonitor`, the person's `git status` ran it). They are protected like
// `.git/hooks` and `config.worktree`. So are the project files its drivers and filters run (M6c).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseGitConfig } from '../hostProcess/gitConfigText';
import { hookControlFiles } from '../permissions/commandFiles';
import type { ProtectedEntry } from './protect';

const MAX_CONFIG_BYTES = 1024 * 1024;

function readConfig(file: string): string | undefined {
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size > MAX_CONFIG_BYTES) return undefined;
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

const expand = (v: string, base: string) =>
  v === '~' || v.startsWith('~/') ? path.join(os.homedir(), v.slice(1)) : path.resolve(base, v);

/**
 * Does this config entry hold a command git runs by itself (a driver, a filter, a program)? Its
 * words may name project files (M6c). Aliases only when they run a shell (`!…`).
 */
function runsCommand(section: string, sub: string | undefined, key: string, value: string): boolean {
  if (section === 'alias') return value.startsWith('!');
  if (sub !== undefined)
    return (
      (section === 'filter' && ['clean', 'smudge', 'process'].includes(key)) ||
      (section === 'diff' && ['textconv', 'command'].includes(key)) ||
      (section === 'merge' && key === 'driver')
    );
  return (
    (section === 'core' && ['fsmonitor', 'sshcommand', 'editor', 'pager'].includes(key)) ||
    (section === 'gpg' && key === 'program') ||
    (section === 'sequence' && key === 'editor')
  );
}

/**
 * For each working directory with a `.git` directory: the hooks directory its config's last
 * `core.hooksPath` names (relative: to the working tree, as git runs hooks there) and the files its
 * `include.path` / `includeIf.<cond>.path` name (relative: to the git directory), when they lie
 * inside `roots` (elsewhere no command can write them).
 */
export function repositoryConfigTargets(
  roots: readonly string[],
): (Omit<ProtectedEntry, 'existed'> & { existed?: boolean })[] {
  const out: (Omit<ProtectedEntry, 'existed'> & { existed?: boolean })[] = [];
  const inside = (p: string) =>
    roots.some((r) => {
      const rel = path.relative(r, p);
      return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
    });
  for (const root of roots) {
    const gitDir = path.join(root, '.git');
    if (!fs.lstatSync(gitDir, { throwIfNoEntry: false })?.isDirectory()) continue;
    const entries = [path.join(gitDir, 'config'), path.join(gitDir, 'config.worktree')].flatMap(
      (f) => parseGitConfig(readConfig(f) ?? '') ?? [],
    );
    let hooksPath: string | undefined;
    const commands: string[] = [];
    for (const e of entries) {
      if (e.value === undefined || e.value === '') continue;
      if (runsCommand(e.section, e.subsection, e.key, e.value)) commands.push(e.value.replace(/^!/, ''));
      if (e.section === 'core' && e.subsection === undefined && e.key === 'hookspath') hooksPath = e.value;
      else if ((e.section === 'include' || e.section === 'includeif') && e.key === 'path') {
        const p = expand(e.value, gitDir);
        if (inside(p)) out.push({ path: p, kind: 'file', denyAbsent: true });
      }
    }
    // The project files the config's own drivers run (`filter.x.clean = sh tools/strip.sh`: the
    // person's `git add` runs it; M6c), found as a hook's are.
    for (const f of hookControlFiles(
      commands.map((command) => ({ command })),
      root,
      roots,
      os.homedir(),
    ))
      if (!f.startsWith(gitDir + path.sep)) out.push({ path: f, kind: 'file' });
    if (hooksPath !== undefined) {
      const p = expand(hooksPath, root);
      if (inside(p) && !p.startsWith(gitDir + path.sep)) out.push({ path: p, kind: 'gitHooks' });
    }
  }
  return out;
}
