// The person's global git configuration as sandboxed commands see it. `~/.gitconfig` and
// `$XDG_CONFIG_HOME/git/config` are read-denied in the sandbox (src/permissions/credentials.ts):
// they hold tokens by convention (`http.extraHeader`, `url.<token>.insteadOf`, credential helpers,
// `sendemail.smtpPass`). git dies on a global file it may not read, so a sandboxed command gets
// GIT_CONFIG_GLOBAL = a copy holding only the sections below (identity, aliases, formatting,
// branch and merge habits), written once per worker process in a directory of its own that no
// sandbox can write (issue 30, J3). Unsandboxed commands and worker-side git are not changed here.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Sections copied: none of them holds a credential by git's or a tool's convention. */
const KEPT_SECTIONS: ReadonlySet<string> = new Set([
  'user',
  'core',
  'init',
  'alias',
  'color',
  'pull',
  'push',
  'merge',
  'diff',
  'commit',
  'tag',
  'log',
  'format',
  'rebase',
  'status',
  'branch',
  'advice',
  'fetch',
  'help',
  'rerere',
  'submodule',
  'column',
  'grep',
]);
/** Keys dropped even in a kept section: a command or file outside git's own (still sandboxed, but not the person's habit). */
const DROPPED_KEYS: ReadonlySet<string> = new Set(['user.signingkey', 'core.askpass', 'core.sshcommand']);

/** The kept part of one git configuration text (sections by name; continuation lines stay with their entry). */
export function keptGitConfig(text: string): string {
  const out: string[] = [];
  let section = '';
  let keep = false;
  let dropEntry = false; // the current entry (and its continuation lines) is dropped
  let continued = false;
  for (const line of text.split(/\r?\n/)) {
    const wasContinued = continued;
    continued = /\\$/.test(line);
    if (wasContinued) {
      if (keep && !dropEntry) out.push(line);
      continue;
    }
    dropEntry = false;
    const header = /^\s*\[\s*([A-Za-z0-9-]+)[.\s"\]]/.exec(line);
    if (header) {
      section = header[1]!.toLowerCase();
      keep = KEPT_SECTIONS.has(section);
      // A header may carry an entry after `]` on the same line: it goes with its section.
      if (keep) out.push(line);
      continue;
    }
    if (!keep) continue;
    const key = /^\s*([A-Za-z][A-Za-z0-9-]*)/.exec(line)?.[1]?.toLowerCase();
    if (key && DROPPED_KEYS.has(`${section}.${key}`)) {
      dropEntry = true;
      continue;
    }
    out.push(line);
  }
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}

let made: { key: string; env: Record<string, string> } | undefined;

/**
 * `{ GIT_CONFIG_GLOBAL: <copy> }` for a sandboxed command: the kept part of the XDG file, then of
 * `~/.gitconfig` (git's order). The copy is made again only when the person's files change.
 */
export function sandboxGitConfigEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const home = env.HOME;
  if (!home) return { GIT_CONFIG_GLOBAL: '/dev/null' };
  const xdg = env.XDG_CONFIG_HOME || path.join(home, '.config');
  const text = [path.join(xdg, 'git', 'config'), path.join(home, '.gitconfig')]
    .map((f) => {
      try {
        return keptGitConfig(readFileSync(f, 'utf8'));
      } catch {
        return '';
      }
    })
    .join('');
  if (made?.key === text) return made.env;
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'da-gitconfig-')), 'gitconfig');
  writeFileSync(file, text, { mode: 0o444 });
  made = { key: text, env: { GIT_CONFIG_GLOBAL: file } };
  return made.env;
}
