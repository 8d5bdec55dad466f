// The red teams' in-process tool call (issue 30, rounds k, m, n): one tool use through
// runToolPipeline — the one pipeline — with the real built-in tools, Bash in the real OS sandbox,
// and the permission context a worker builds for a session in `root` (sessionPermission: the files
// the session's hooks run are protected). No allow rule unless a row names one.
import { initialContext } from '../../src/core/context';
import { toolResultText } from '../../src/core/apiMessages';
import { runToolPipeline } from '../../src/toolCall/pipeline';
import { createToolPool } from '../../src/permissions/toolPool';
import { BUILTIN_TOOLS } from '../../src/tools';
import type { PermissionMode } from '../../src/toolProtocol/permissionTypes';
import type { ResultStore } from '../../src/toolProtocol/Tool';
import type { SandboxSettings } from '../../src/sandbox/settings';
import type { SandboxHost } from '../../src/sandbox/host';
import { sessionPermission } from '../../src/toolCall/toolSession';

export type RedTool = (
  root: string,
  mode: PermissionMode,
  name: string,
  input: Record<string, unknown>,
  sandbox?: SandboxSettings,
  allow?: string[],
) => Promise<{ text: string; status: string }>;

/** A `tool(root, mode, name, input, sandbox?, allow?)` for one test file; `host()` is read at each call (made in `before`). */
export function redTool(host: () => SandboxHost, tag: string): RedTool {
  let n = 0;
  return async (root, mode, name, input, sandbox = {}, allow = []) => {
    const permission = sessionPermission(
      { mode, rules: { allow, ask: [], deny: [] }, workingDirectories: [root], sandbox },
      {} as ResultStore,
      {},
      root,
    );
    const o = await runToolPipeline({ type: 'tool_use', id: `toolu_${tag}_${++n}`, name, input }, {
      pool: createToolPool(BUILTIN_TOOLS, permission),
      sessionId: `${tag}-${process.pid}`,
      agent: initialContext(root),
      permission,
      sandboxHost: host(),
    } as Parameters<typeof runToolPipeline>[1]);
    return { text: o.result ? toolResultText(o.result) : `(${o.status})`, status: o.status };
  };
}
