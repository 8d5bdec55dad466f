import type { ToolUseContext } from '../tools/Tool';
import type { PermissionRules } from '../tools/permissionTypes';
import { type PermissionEnv } from './matcher';
/**
 * A predicate telling whether an absolute path is hidden from `toolName`: some deny or ask rule
 * for Read (or for the tool itself) with a path spec covers it. Undefined when no rule could hide
 * anything (the common case: no filtering cost).
 */
export type HiddenPaths = ((abs: string) => boolean) & {
    under: (dir: string) => boolean;
};
export declare function hiddenPathPredicate(toolName: string, rules: PermissionRules | undefined, env: PermissionEnv): HiddenPaths | undefined;
/** hiddenPathPredicate for a tool call's context. */
export declare function hiddenPathFilter(toolName: string, ctx: Pick<ToolUseContext, 'agent' | 'permission'>): HiddenPaths | undefined;
