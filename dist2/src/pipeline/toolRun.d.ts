import type { AgentContext } from '../engine/context';
import type { HookPermissionDecision } from '../permissions/decide';
import type { ToolPermissionContext } from '../tools/permissionTypes';
import type { AnyTool, ToolUseContext } from '../tools/Tool';
import type { RunState } from './runState';
import type { PipelineEnv, PipelinePhase } from './types';
export interface ToolRun {
    readonly state: RunState;
    readonly env: PipelineEnv;
    readonly tool: AnyTool;
    readonly ctx: ToolUseContext;
    /** Aborted with the caller's signal; the tool and the hooks see this one. */
    readonly controller: AbortController;
    /** Phase 'post': the checks ran in phase 'pre'; the run continues from its state with the scheduler's output. */
    readonly resumed: Extract<PipelinePhase, {
        kind: 'post';
    }> | undefined;
    /** The input as the schema parsed it (what the hooks, the permission check and call() see). */
    data: unknown;
    /** The PreToolUse hooks' combined permission decision, for the permission check. */
    hookDecision?: HookPermissionDecision;
    /** When call() started (duration_ms of the hooks after it). */
    callStarted: number;
}
/**
 * The session's permission context with the allow rules of the skills loaded so far (their
 * `allowed-tools`, granted by a Skill call: the context modifier the audit shows). Deny and ask
 * rules still come first, as for every allow rule.
 */
export declare function withSkillGrants(permission: ToolPermissionContext, agent: AgentContext): ToolPermissionContext;
export declare function newToolRun(state: RunState, env: PipelineEnv, tool: AnyTool, controller: AbortController): ToolRun;
/** Phase 'post': the state phase 'pre' handed to the scheduler (input, hook text, notices, permission, hook runs). */
export declare function takeResumed(run: ToolRun, resumed: NonNullable<ToolRun['resumed']>): void;
