// A throwaway git repository for tests: `main` with one commit of README.md, under the real path
// of a new temp directory (worktree paths are compared as git reports them).
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function gitRepo(prefix = 'da-repo-'): Promise<string> {
  const dir = realpathSync(await mkdtemp(join(tmpdir(), prefix)));
  const g = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  g('init', '-q', '-b', 'main');
  g('config', 'user.email', 't@example.com');
  g('config', 'user.name', 't');
  await writeFile(join(dir, 'README.md'), 'main checkout\n');
  g('add', '.');
  g('commit', '-qm', 'init');
  return dir;
}
