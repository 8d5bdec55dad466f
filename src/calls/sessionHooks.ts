// Session-level hooks (SessionStart, UserPromptSubmit, Stop, SubagentStart, SubagentStop, SessionEnd,
// Notification) for any scheduler: the core of the `runSessionHooks` activity (`hook-<event>-<n>`;
// command hooks are I/O, so they run on the worker) and of the in-process runner. The session
// (src/engine/session.ts) decides what their answers mean.
import { trimHookRun } from '../engine/hooks';
import { normalizeHooksConfig } from '../hooks/config';
import { runSessionEventHooks } from '../hooks/session';
import { writeTranscriptFile } from '../hooks/transcript';
import type { HookPins } from '../engine/context';
import type { AgentHookFields, HookRun, HooksConfig, SessionHookEventName } from '../hooks/types';
import type { TranscriptStore } from '../stores/messageStore';
import type { PermissionMode } from '../tools/permissionTypes';

export interface RunSessionHooksInput {
  event: SessionHookEventName;
  sessionId: string;
  /** The agent's current directory: the hook input's `cwd`. */
  cwd: string;
  /**
   * Where the command hooks run, and their CLAUDE_PROJECT_DIR: the session's project root
   * (hookProjectDir). Absent in an activity an older workflow scheduled (before this field): the
   * hooks then run in `cwd`, as they did.
   */
  projectDir?: string;
  /** The files the command hooks run, pinned at the session's start (absent: sessions started before pins). */
  hookPins?: HookPins;
  /** The session's `sandbox.passEnv`: worker variables its command hooks get besides the allowlist. */
  passEnv?: string[];
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

export async function runSessionHooksWith(
  deps: HookDeps,
  input: RunSessionHooksInput,
  signal?: AbortSignal,
): Promise<RunSessionHooksResult> {
  const config = normalizeHooksConfig(input.hooks);
  const extra = deps.hooks?.[input.event];
  if (extra?.length) config[input.event] = [...(config[input.event] ?? []), ...extra];
  const messages = await deps.transcripts.load(input.head);
  const transcriptPath = await writeTranscriptFile(deps.transcriptFile(input.sessionId), messages, {
    sessionId: input.sessionId,
    cwd: input.cwd,
  });
  const runs = await runSessionEventHooks(
    {
      session_id: input.sessionId,
      transcript_path: transcriptPath,
      cwd: input.cwd,
      permission_mode: input.permissionMode,
      ...(input.agentHookFields ?? {}),
      hook_event_name: input.event,
      ...(input.event === 'SubagentStop' ? { agent_transcript_path: transcriptPath } : {}),
      ...input.fields,
    },
    {
      config,
      projectDir: input.projectDir ?? input.hookPins?.projectDir ?? input.cwd,
      ...(input.hookPins ? { pins: input.hookPins } : {}),
      ...(input.passEnv ? { passEnv: input.passEnv } : {}),
      ...(signal ? { signal } : {}),
    },
  );
  return { runs: runs.map((r) => trimHookRun(r)), transcriptPath };
}
