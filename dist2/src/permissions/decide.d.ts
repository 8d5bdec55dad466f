import type { AnyTool, PermissionResult, ToolUseContext } from '../tools/Tool';
import type { ToolPermissionContext } from '../tools/permissionTypes';
import { type PermissionEnv } from './matcher';
export { permissionEnvOf } from './matcher';
export { fsCommandsInside, shellReadOutside } from './shellPaths';
/** What the PreToolUse hooks decided, combined (deny > ask > allow). */
export interface HookPermissionDecision {
    behavior: 'allow' | 'ask' | 'deny';
    reason?: string;
    /** Which hook decided (its command, or a function hook's name). */
    hook: string;
}
export type PermissionDecision = Exclude<PermissionResult, {
    behavior: 'passthrough';
}>;
/** The forms of the call's path (logical, real, physical) this decision was made on, if it has a path. */
export declare function pathsCheckedBy(decision: PermissionDecision): readonly string[] | undefined;
/**
 * Decides whether one call may run. Order (first that applies wins):
 *
 *  1. a PreToolUse hook's deny                                       → deny   (hook)
 *  2. a deny rule                                                    → deny   (rule)
 *  3. the tool's own checkPermissions says deny (or throws)          → deny   (tool)
 *  4. an ask rule                                                    → ask    (rule)
 *  5. a PreToolUse hook's ask                                        → ask    (hook)
 *  6. plan mode and the call is not read-only                        → deny   (mode)
 *  7. bypassPermissions mode (unless the model asked to leave the sandbox) → allow  (mode)
 *  7a. a file tool writes a protected path (protectedPaths.ts)       → ask    (safetyCheck)
 *  7b. the tool asks because the call leaves the OS sandbox          → ask    (sandbox)
 *  8. a PreToolUse hook's allow                                      → allow  (hook)
 *  9. an allow rule                                                  → allow  (rule)
 * 10. the tool's checkPermissions says allow / ask                   → allow / ask (tool)
 * 11. the mode's default: read-only calls inside the working directories are allowed (a Bash
 *     command only when every file it names is inside and no Read deny/ask rule covers it); in
 *     acceptEdits, file edits inside them too (and mkdir/touch/mv/cp/rm/rmdir via Bash, never on
 *     a protected path); a path outside the working directories asks (workingDirectory);
 *     everything else asks (mode).
 * Finally, in dontAsk mode any `ask` becomes `deny` (nobody is there to answer).
 *
 * Choices: in bypassPermissions, deny rules AND ask rules still apply (an explicit ask rule is
 * the user's own instruction — the reference's code does the same, its docs only mention deny);
 * a hook's allow skips the mode's ask and the tool's ask but never a deny/ask rule or the tool's
 * deny, and does not lift plan mode's deny. A protected path (7a) asks whatever a hook or an allow
 * rule says, as the reference's "sensitive file" check (its settings' allow rules and hooks do not
 * lift it either); only bypassPermissions writes it unasked. Malformed rules are ignored here (validate them at
 * start-up with validatePermissionRules).
 */
export declare function decidePermission(tool: AnyTool, input: unknown, ctx: ToolUseContext, hookDecision?: HookPermissionDecision): Promise<PermissionDecision>;
/** The same decision with the tool's checkPermissions result already known (pure but for realpath). */
export declare function decidePermissionSync(tool: AnyTool, input: unknown, permission: ToolPermissionContext, env: PermissionEnv, toolResult?: PermissionResult, hookDecision?: HookPermissionDecision): PermissionDecision;
/** Why writing a path (all its forms) is a protected write in this session, or undefined. */
export declare function protectedWrite(forms: readonly string[], permission: Pick<ToolPermissionContext, 'controlFiles'>, env: PermissionEnv): string | undefined;
