import type { AnyTool, ToolUseContext } from '../tools/Tool';
import { type PermissionRule, type RuleBehavior } from './rules';
/** Where a call happens: the base of relative paths and rules, and the working directories. */
export interface PermissionEnv {
    /** The session cwd: relative tool paths and relative rule patterns are taken from here. */
    cwd: string;
    /** Absolute working directories (the cwd should be one of them). */
    workingDirectories: readonly string[];
    /** Home directory for `~` (default os.homedir()). */
    home?: string;
    /** The project root: `./x` and `x/y` rule patterns are anchored here, whatever the cwd (default: cwd). */
    root?: string;
}
/** What the rules need to know about one call; computed once, never throws. */
export interface CallFacts {
    tool: AnyTool;
    input: unknown;
    readOnly: boolean;
    /** Set when the tool declares getPath: the path as given (undefined = cwd) and its forms. */
    path?: {
        given: string | undefined;
        forms: string[];
        error?: string;
    };
    /** getRuleContent's value, for non-path tools. */
    ruleContent?: string;
    /** Bash-style matching (compound commands, wrappers) for the rule content. */
    shell: boolean;
}
export declare function isShellTool(tool: AnyTool): boolean;
export declare function callFacts(tool: AnyTool, input: unknown, env: PermissionEnv): CallFacts;
/**
 * Does the rule's tool name cover this call? Directly (name or alias), or by family for path
 * tools: `Read` covers every read-only tool with getPath (Read, Glob, Grep…), `Edit` covers every
 * file-writing tool with getPath (Edit, Write…).
 */
export declare function ruleCoversTool(rule: PermissionRule, facts: CallFacts, glob?: boolean): boolean;
/**
 * Does a rule match a call, for a rule of the given list? Path specs: deny/ask match when ANY
 * form of the path (logical or symlink-resolved) matches, allow only when ALL do. Bash specs:
 * see matchShellRule. Other tools with getRuleContent: prefix (`x:*`), glob or exact match.
 * A `Tool(spec)` rule never matches a tool with neither getPath nor getRuleContent.
 */
export declare function ruleMatchesFacts(rule: PermissionRule, behavior: RuleBehavior, facts: CallFacts, env: PermissionEnv): boolean;
/** Table-testable form: `ruleMatches('Bash(npm run test:*)', 'allow', BashTool, {command}, env)`. */
export declare function ruleMatches(rule: string | PermissionRule, behavior: RuleBehavior, tool: AnyTool, input: unknown, env: PermissionEnv): boolean;
/** The first rule of a list that matches (malformed rules are skipped), or undefined. */
export declare function findMatchingRule(rules: readonly string[], behavior: RuleBehavior, facts: CallFacts, env: PermissionEnv): PermissionRule | undefined;
/** The environment a ToolUseContext implies: cwd, working directories (cwd + additional ones). */
export declare function permissionEnvOf(ctx: Pick<ToolUseContext, 'agent' | 'permission'>): PermissionEnv;
