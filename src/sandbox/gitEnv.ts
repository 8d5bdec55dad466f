// The git configuration a sandboxed command reads (hostProcess/sandboxGitConfig.ts): the kept copy of
// the person's global configuration, whose excludes file also holds the names the sandbox keeps absent
// with an empty placeholder while a command runs (protect.ts DENIED_EVEN_ABSENT) — without it the
// agent's `git add -A && git commit` committed eighteen empty files (`.bashrc`, `.claude`, `.mcp.json`…),
// which the ref screen now puts back as a commit adding protected paths (red team x, X1).
import { sandboxGitConfigEnv, sandboxGitExcludesFile } from '../hostProcess/sandboxGitConfig';
import { DENIED_EVEN_ABSENT } from './protect';

/** `{ GIT_CONFIG_GLOBAL }` for a sandboxed command (Bash, a sandboxed hook). */
export function sandboxGitEnv(): Record<string, string> {
  return sandboxGitConfigEnv(process.env, DENIED_EVEN_ABSENT);
}

/** The files of sandboxGitEnv, which a command must be able to read even in a closed HOME. */
export function sandboxGitFiles(): string[] {
  const config = sandboxGitEnv().GIT_CONFIG_GLOBAL!;
  const excludes = sandboxGitExcludesFile(process.env, DENIED_EVEN_ABSENT);
  return excludes === undefined ? [config] : [config, excludes];
}
