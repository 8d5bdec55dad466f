// Session-level hooks (SessionStart, UserPromptSubmit, Stop, SubagentStart, SubagentStop, SessionEnd,
// Notification) for any scheduler: the core of the `runSessionHooks` activity (`hook-<event>-<n>`;
// command hooks are I/O, so they run on the worker) and of the in-process runner. The session
// (src/core/session.ts) decides what their answers mean.
import { trimHookRun } from '../core/hooks';
import { hookCommandsOf, normalizeHooksConfig } from '../hooks/config';
import { hookSandboxControlFiles, type HookSandbox } from '../hooks/sandboxed';
import { hookControlFiles } from '../permissions/protectedPaths';
import type { SandboxHost } from '../sandbox/host';
import type { SandboxSettings } from '../sandbox/settings';
import { runSessionEventHooks } from '../hooks/session';
import { writeTranscriptFile } from '../hooks/transcript';
import type { HookPins } from '../core/context';
import type { AgentHookFields, HookRun, HooksConfig, SessionHookEventName } from '../hooks/types';
import type { TranscriptStore } from '../stores/messageStore';
import type { PermissionMode } from '../toolProtocol/permissionTypes';

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
  /**
   * The session's sandbox settings (`{}`: the default): its command hooks run inside its sandbox
   * unless it is off or `sandbox.hooks` is `host` (src/hooks/sandboxed.ts). Absent in an activity
   * an older workflow scheduled: the hooks then run on the host, as they did.
   */
  sandbox?: SandboxSettings;
  /** The agent's additional working directories (a sandboxed hook may write there, as Bash may). */
  additionalDirectories?: string[];
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
  /** The worker's OS sandbox, which the session's command hooks run in (the worker's start-up owns it). */
  sandboxHost?: SandboxHost;
  /** The worker's own state (the store, the data directory): denied to sandboxed hooks. */
  privatePaths?: readonly string[];
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
  const projectDir = input.projectDir ?? input.hookPins?.projectDir ?? input.cwd;
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
      projectDir,
      ...(input.hookPins ? { pins: input.hookPins } : {}),
      ...(input.passEnv ? { passEnv: input.passEnv } : {}),
      ...(input.sandbox
        ? { sandbox: sessionHookSandbox(deps, input, input.sandbox, config, projectDir, transcriptPath) }
        : {}),
      ...(signal ? { signal } : {}),
    },
  );
  return { runs: runs.map((r) => trimHookRun(r)), transcriptPath };
}

/**
 * The sandbox a session-level hook runs in: the session's sandboxed Bash plan over its project root,
 * its cwd and additional directories, the files its hooks run protected, this run's transcript file
 * readable (it lies in the store, which is denied).
 */
export function sessionHookSandbox(
  deps: { sandboxHost?: SandboxHost; privatePaths?: readonly string[] },
  input: { sessionId: string; cwd: string; additionalDirectories?: string[] },
  settings: SandboxSettings,
  config: HooksConfig,
  projectDir: string,
  transcriptPath: string | undefined,
): HookSandbox {
  const workingDirectories = [...new Set([projectDir, input.cwd, ...(input.additionalDirectories ?? [])])];
  return {
    ...(deps.sandboxHost ? { host: deps.sandboxHost } : {}),
    sessionId: input.sessionId,
    settings,
    workingDirectories,
    controlFiles: hookSandboxControlFiles(
      hookControlFiles(hookCommandsOf(config), projectDir, workingDirectories),
      config,
      projectDir,
      workingDirectories,
    ),
    ...(deps.privatePaths ? { privatePaths: deps.privatePaths } : {}),
    readable: transcriptPath ? [transcriptPath] : [],
  };
}
