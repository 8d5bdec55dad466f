import { type ShellCommand, type ShellRedirect } from './shellAnalysis';
/** Environment variables whose assignment changes what a command runs: a rule never allows them. */
export declare function isDangerousEnvName(name: string): boolean;
/**
 * Matches one simple command's text against a Bash rule spec:
 * `prefix:*` → the command is `prefix` or starts with `prefix ` (a word boundary: `ls:*` does not
 * match `lsof`); a spec with `*` → glob over the whole text (`*` matches anything, spaces
 * included; a trailing ` *` also matches the bare command; `\*` is a literal star); otherwise
 * exact, whitespace-normalised.
 */
export declare function matchCommandPattern(spec: string, text: string): boolean;
/** A redirection that writes a file (not `2>&1`, not `>&-`, not `/dev/null`). */
export declare function isWriteRedirect(r: ShellRedirect): boolean;
/** Why an allow rule can never match this command, or undefined. */
export declare function unallowableReason(cmd: ShellCommand): string | undefined;
/** Strips timeout/time/nice/nohup (with their options) for allow rules; undefined if unsure. */
export declare function stripAllowWrappers(tokens: string[]): string[] | undefined;
export interface ShellRuleEnv {
    cwd?: string;
    home?: string;
}
/** Does a Bash rule spec match a command line, for a rule of the given behavior? */
export declare function matchShellRule(spec: string, command: string, behavior: 'allow' | 'ask' | 'deny', env?: ShellRuleEnv): boolean;
