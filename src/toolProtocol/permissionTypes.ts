// Permission configuration types, shared by tools, the pipeline and the workflows (pure data).
import type { SandboxSettings } from '../sandbox/settings';

export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export interface PermissionRules {
  /** Rule strings: `Tool` or `Tool(spec)`, e.g. `Bash(npm run test:*)`, `Read(./src/**)`. */
  allow: string[];
  ask: string[];
  deny: string[];
}

export interface ToolPermissionContext {
  mode: PermissionMode;
  rules: PermissionRules;
  /** Absolute working directories: the session's cwd is always one of them. */
  workingDirectories: string[];
  /**
   * The session's `sandbox` settings (reference format, paths resolved at start). Sessions always
   * have it: the tool activities put `{}` (the default: sandboxed) when the session input has none.
   * Absent means no sandbox at all (a tool called directly, outside a session).
   */
  sandbox?: SandboxSettings;
  /**
   * Absolute paths protected like the built-in control files (src/permissions/protectedPaths.ts):
   * the scripts and task files the session's hooks run. Set by the tool activities from the
   * session's hooks, never by the workflow.
   */
  controlFiles?: string[];
  /**
   * Sessions apart (issue 30): each `root` holds one directory per session on this worker (the
   * session temp root: temp files, task outputs, spools; the store's `results/`), `own` is this
   * session's directory in it (its subagents' lie inside it). Any other path under a root is
   * another session's: the file tools are refused it in every mode (src/permissions/sessionsApart.ts).
   * `formerly`: the name releases before 0.3.0 gave the session's results directory, refused like
   * any other (a name several ids shared), named so that the refusal says why. Set by the tool
   * activities (withTaskDirectory, withResultDirectory), never by the workflow.
   */
  sessionsApart?: Array<{ root: string; own: string; formerly?: string[] }>;
}
