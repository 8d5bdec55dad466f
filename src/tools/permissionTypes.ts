// Permission configuration types, shared by tools, the pipeline and the workflows (pure data).

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
}
