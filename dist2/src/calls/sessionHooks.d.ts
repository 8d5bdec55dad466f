import type { AgentHookFields, HookRun, HooksConfig, SessionHookEventName } from '../hooks/types';
import type { TranscriptStore } from '../stores/messageStore';
import type { PermissionMode } from '../tools/permissionTypes';
export interface RunSessionHooksInput {
    event: SessionHookEventName;
    sessionId: string;
    cwd: string;
    permissionMode: PermissionMode;
    /** The transcript head: materialized as the `transcript_path` file before the hooks run. */
    head: string | null;
    hooks: unknown;
    /** The event's own input fields (prompt, stop_hook_active, source, reason, message…). */
    fields: Record<string, unknown>;
    /** A subagent's session: the parent's session_id, and agent_id/agent_type (as the reference). */
    agentHookFields?: AgentHookFields;
}
export interface RunSessionHooksResult {
    runs: HookRun[];
    transcriptPath?: string;
}
export interface HookDeps {
    transcripts: TranscriptStore;
    transcriptFile: (sessionId: string) => string;
    /** Worker-level hooks (library users), merged after the session's. */
    hooks?: HooksConfig;
}
export declare function runSessionHooksWith(deps: HookDeps, input: RunSessionHooksInput, signal?: AbortSignal): Promise<RunSessionHooksResult>;
