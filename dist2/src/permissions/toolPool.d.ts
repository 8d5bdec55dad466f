import type { AnyTool } from '../tools/Tool';
import type { ToolPermissionContext } from '../tools/permissionTypes';
import type { ToolPool } from '../tools/pool';
export interface CreateToolPoolOptions {
    /** Tools supplied by the library user, appended after `tools`. */
    userTools?: readonly AnyTool[];
}
/**
 * Built-ins (and user tools) minus the tools a blanket deny rule names (`Bash`, not
 * `Bash(rm:*)`; the rule may name the tool, one of its aliases or its `rulesAs`: `Bash` removes Monitor) minus disabled tools
 * (`isEnabled()` false or throwing). Two tools answering to the same name (or alias) are an
 * error, thrown here so that a misconfigured session fails at start-up, not mid-job.
 */
export declare function createToolPool(tools: readonly AnyTool[], permissionContext: ToolPermissionContext, options?: CreateToolPoolOptions): ToolPool;
