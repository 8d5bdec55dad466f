// Reading a configuration file the way the loaders must (settings, `.mcp.json`, agent definitions,
// `~/.claude.json`): they run in the client, outside the sandbox, and what they read configures
// the session or goes to the model (an agent file's body is a system prompt). So the file is read
// through a descriptor bound to its real path (src/files/safeFs.ts), and refused — never read, so
// no message can quote it — when that real path is
//  - a credential file (the sandbox's read-deny list: `~/.ssh`, `~/.aws`, …) reached through a
//    link (`~/.claude.json`, on the list, is read as itself; `.claude/agents/x.md -> ~/.ssh/id_rsa`
//    and `~/.claude.json -> ~/.ssh/id_rsa` are refused), or
//  - for a project's file, outside the directory it configures (`within`): a symlink out of the
//    project, of the file or of a directory on its way (`.claude -> /elsewhere`), is not followed.
// The reference (Claude Code 2.1.328) follows such links (it loads an agent file linked from
// outside and sends its body, and starts the servers of a linked `.mcp.json`); this is a
// deliberate difference (docs/settings.md).
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { isCredentialPath } from './credentials';
import { isAccessRefused, readFileBoundSync } from '../files/safeFs';
import { insideWorkingDirs } from './paths';

function realOrSelf(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}

export type ConfigFileRead = { text: string } | { missing: true } | { refused: string };

export interface ConfigReadOptions {
  /** A project's file: its real path must lie inside one of these directories. */
  within?: readonly string[];
  /** For the credential list (default: the user's home). */
  home?: string;
}

/** Reads one configuration file (see the header); throws only for what a plain read would (EISDIR, EACCES…). */
export function readConfigFileSync(path: string, opts: ConfigReadOptions = {}): ConfigFileRead {
  const abs = resolve(path);
  const home = opts.home ?? homedir();
  let refusal: string | undefined;
  try {
    const { buf } = readFileBoundSync(abs, (real) => {
      // `~/.claude.json` itself is on the list and is read; a link from it to another one is not followed.
      if (
        isCredentialPath(real, home) &&
        (!isCredentialPath(abs, home) || real !== join(realOrSelf(dirname(abs)), basename(abs)))
      )
        refusal = `it resolves to ${real}, a credential file`;
      else if (opts.within && !insideWorkingDirs([real], opts.within)) {
        refusal = `it resolves to ${real}, outside ${opts.within.join(', ')} (a project's configuration must lie inside the project: a symlink out of it is not followed)`;
      }
      return refusal;
    });
    return { text: buf.toString('utf8') };
  } catch (err) {
    if (isAccessRefused(err)) return { refused: refusal ?? err.message };
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { missing: true };
    throw err;
  }
}
