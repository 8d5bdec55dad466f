// One session's tool calls through the real pipeline (runToolPipeline) with the permission context a
// worker builds, no rule, in-process: each call's context modifiers kept (a Read counts for the next
// Edit). For attack rows whose oracle is the file system and what the person runs afterwards.
import { applyContextModifiers, initialContext } from '../../src/core/context';
import { toolResultText } from '../../src/core/apiMessages';
import { runToolPipeline } from '../../src/toolCall/pipeline';
import { createToolPool } from '../../src/permissions/toolPool';
import { BUILTIN_TOOLS } from '../../src/tools';
import type { SandboxHost } from '../../src/sandbox/host';
import type { PermissionMode } from '../../src/toolProtocol/permissionTypes';
import type { ResultStore } from '../../src/toolProtocol/Tool';
import { sessionPermission } from '../../src/toolCall/toolSession';

export type ToolRun = (name: string, input: Record<string, unknown>) => Promise<{ text: string; isError: boolean }>;

let n = 0;

/** A session in `root` (its only working directory) in `mode`; each call returns its result text and is_error. */
export function pipelineSession(root: string, mode: PermissionMode, sandboxHost: SandboxHost): ToolRun {
  const permission = sessionPermission(
    { mode, rules: { allow: [], ask: [], deny: [] }, workingDirectories: [root], sandbox: {} },
    {} as ResultStore,
    {},
    root,
  );
  let agent = initialContext(root);
  return async (name, input) => {
    const o = await runToolPipeline({ type: 'tool_use', id: `toolu_session_${process.pid}_${++n}`, name, input }, {
      pool: createToolPool(BUILTIN_TOOLS, permission),
      sessionId: `pipeline-session-${process.pid}`,
      agent,
      permission,
      sandboxHost,
    } as Parameters<typeof runToolPipeline>[1]);
    agent = applyContextModifiers(agent, o.contextModifiers);
    return { text: o.result ? toolResultText(o.result) : `(${o.status})`, isError: o.result?.is_error === true };
  };
}
