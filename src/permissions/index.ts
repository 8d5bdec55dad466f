export { decidePermission, decidePermissionSync, permissionEnvOf, shellReadOutside, fsCommandsInside } from './decide';
export type { HookPermissionDecision, PermissionDecision } from './decide';
export { ruleMatches, ruleMatchesFacts, ruleCoversTool, findMatchingRule, callFacts, isShellTool } from './matcher';
export type { PermissionEnv, CallFacts } from './matcher';
export { parseRule, parseRuleSafe, formatRule, validatePermissionRules } from './rules';
export type { PermissionRule, RuleBehavior } from './rules';
export { matchShellRule, matchCommandPattern, isDangerousEnvName, isWriteRedirect, unallowableReason } from './shell';
export { analyzeShell } from './shellAnalysis';
export type { ShellAnalysis, ShellCommand, ShellWord, ShellRedirect } from './shellAnalysis';
export { loadShellParser, shellParserReady, shellParserError } from './bashParser';
export {
  compilePathPattern,
  matchPathPattern,
  pathForms,
  resolveLogical,
  resolvePhysical,
  resolveReal,
  insideWorkingDirs,
  isInside,
  expandHome,
  globToRegex,
} from './paths';
export type { PathPattern, PathMatchEnv } from './paths';
export {
  PROTECTED_DIRECTORY_NAMES,
  PROTECTED_FILE_NAMES,
  PROTECTED_SEQUENCES,
  PROJECT_CONTROL_FILES,
  GIT_CONTROL_ENTRIES,
  protectedReason,
  protectedReasonOfForms,
  isProtectedPath,
  controlFiles,
  hookControlFiles,
} from './protectedPaths';
export type { ControlFiles, HookCommand, ProtectionOptions } from './protectedPaths';
