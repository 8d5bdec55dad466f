export * from './types';
export { normalizeHooksConfig, matcherMatches, isValidMatcher, hooksFor } from './config';
export type { MatchedHook } from './config';
export { runShellCommand } from './command';
export type { CommandRunResult, CommandRunOptions } from './command';
export { runPreToolUseHooks, runPostToolUseHooks, parseHookStdout } from './run';
export type { HookRunEnv, PreToolUseHooksResult, PostToolUseHooksResult } from './run';
export { runPreCompactHooks } from './preCompact';
export type { PreCompactHooksResult } from './preCompact';
