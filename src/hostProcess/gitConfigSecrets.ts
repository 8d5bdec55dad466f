// Credentials in a repository's own git configuration (red team o, O12). actions/checkout writes the
// job's token into `.git/config` (`http.https://github.com/.extraheader = AUTHORIZATION: basic …`,
// its default `persist-credentials: true`); GitLab CI and many scripts clone with the token in the
// remote URL (`https://gitlab-ci-token:<token>@…`, `https://<pat>@github.com/…`). Sandboxed git needs
// the rest of that file (remotes, branches, the repository format), not the credential: the sandbox
// sees a copy with each span this pattern captures replaced (src/sandbox/readDenies.ts), and the file
// tools show the same spans masked (src/tools/read.ts, grep.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A word matched in any letter case (git's keys are; the runtime's pattern has no `i` flag). */
const ci = (w: string) => w.replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);

/** Key names whose value is a credential by convention (`http.<url>.extraHeader`, `sendemail.smtpPass`, `*.token`). */
const SECRET_KEY = `[A-Za-z0-9-]*(?:${['extraheader', 'pass', 'token', 'secret', 'apikey', 'api-key', 'privatekey'].map(ci).join('|')})[A-Za-z0-9-]*`;

/**
 * One capture group (the runtime masks group 1 of each match; flags `gd` only): the value of a
 * credential key (backslash-newline continuations included), the userinfo of an http(s) URL, a
 * `user:password@` of any URL, a token of a known shape anywhere.
 */
export const GIT_CONFIG_SECRET_PATTERN = `(${[
  `(?<=(?:^|\\n|\\])[ \\t]*${SECRET_KEY}[ \\t]*=[ \\t]*)(?=\\S)(?:[^\\n\\\\]|\\\\[\\s\\S])*[^\\s\\\\]`,
  `(?<=${ci('http')}[sS]?://)[^\\s/@"\\\\]+(?=@)`,
  `(?<=://)[^\\s/@":\\\\]*:[^\\s/@"\\\\]*(?=@)`,
  `(?:gh[pousr]_|github_pat_|glpat-|xox[abposr]-|AKIA)[A-Za-z0-9_-]{8,}`,
  `(?<=(?:${['password', 'passwd', 'token', 'secret', 'api_key', 'api-key', 'apikey'].map(ci).join('|')})[ \\t]*[=:][ \\t]*)[^\\s"';&\\\\]+`,
].join('|')})`;

const secret = () => new RegExp(GIT_CONFIG_SECRET_PATTERN, 'g');

/** Does a configuration text hold a credential the pattern masks? */
export function holdsGitSecret(text: string): boolean {
  return secret().test(text);
}

/** The text with each credential span replaced (what the file tools show). */
export function maskGitSecrets(text: string, mask = '***'): string {
  return text.replace(secret(), mask);
}

/** Is `real` (a real path) a git directory's `config` or `config.worktree` (a `HEAD` and `objects` beside it)? */
export function isRepositoryConfigPath(real: string): boolean {
  const base = path.basename(real);
  if (base !== 'config' && base !== 'config.worktree') return false;
  const dir = path.dirname(real);
  const has = (n: string) => fs.existsSync(path.join(dir, n));
  // A linked worktree's git directory has HEAD and commondir; a repository's HEAD and objects.
  return has('HEAD') && (has('objects') || has('commondir'));
}

/** Does the file at the real path `real` hold a credential the sandbox masks (a repository configuration)? */
export function repositoryConfigWithSecret(real: string): boolean {
  if (!isRepositoryConfigPath(real)) return false;
  try {
    const st = fs.statSync(real);
    return st.isFile() && (st.size > 1 << 20 || holdsGitSecret(fs.readFileSync(real, 'latin1')));
  } catch {
    return false;
  }
}
