// Monitor: watches a command's stdout as events (issue 19; the reference's name and schema:
// test/fixtures/reference-tools/2.1.328/Monitor.json). The call runs nothing itself: it names the
// task and records it with a `taskStarted` modifier (kind `monitor`); the session runs the command
// as a background task, sandboxed as Bash runs it, each batch of stdout lines becoming one
// `<task-notification>` (tasks/core/monitorLines.ts gives the reference's limits, engine/
// taskNotifications.ts the texts), the end of the stream one more; it is killed at `timeout_ms`.
// Permissions are Bash's for its command (`Bash(…)` rules, the shell analysis, the sandbox's
// auto-allow), and `Monitor(…)` rules too. The `ws` source (a WebSocket) is not supported.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ContextModifier } from '../core/context';
import { MAX_TASK_TEXT, type BackgroundTask } from '../core/autonomy';
import { formatDuration } from '../tasks/core/taskNotifications';
import { buildTool, type ToolUseContext } from '../toolProtocol/Tool';
import { isReadOnlyCommand } from './bash/command';
import { createTaskOutput, sandboxPermission } from './bash';

export const MONITOR_DEFAULT_TIMEOUT_MS = 300_000;
export const MONITOR_MIN_TIMEOUT_MS = 1000;
export const MONITOR_MAX_TIMEOUT_MS = 3_600_000;

const inputSchema = z.strictObject({
  description: z.string().describe('What you are watching, in a few words (it names each event you are sent).'),
  timeout_ms: z
    .number()
    .min(MONITOR_MIN_TIMEOUT_MS)
    .max(MONITOR_MAX_TIMEOUT_MS)
    .default(MONITOR_DEFAULT_TIMEOUT_MS)
    .describe(
      `Stop watching after this many milliseconds (default ${MONITOR_DEFAULT_TIMEOUT_MS}, at most ${MONITOR_MAX_TIMEOUT_MS}); you get one notice when it expires.`,
    ),
  command: z
    .string()
    .optional()
    .describe('The shell command to watch: each line it writes to stdout is an event; its exit ends the watch.'),
  ws: z
    .strictObject({
      url: z.string(),
      protocols: z.array(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/)).optional(),
    })
    .optional()
    .describe('Not supported here (a WebSocket source): use `command` instead.'),
});

export type MonitorInput = z.infer<typeof inputSchema>;

export interface MonitorOutput {
  taskId: string;
  timeoutMs: number;
  /** Always false here (the reference's tool_response has it: a watch without a timeout, which its schema does not offer). */
  persistent: false;
}

/** The API schema: as the reference's, `timeout_ms` is listed as required (it has a default). */
const inputJSONSchema = (() => {
  const { $schema: _s, ...rest } = z.toJSONSchema(inputSchema, { io: 'output' }) as Record<string, unknown>;
  return rest;
})();

// Characters that would be hidden or misleading in an approval prompt (the reference refuses them too).
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\u0080-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;

const PROMPT = `Starts a background watch on a shell command and returns at once with its task id: every line the command writes to stdout becomes an event that reaches you as a <task-notification> (lines that arrive together come as one event); the command's exit ends the watch with one more notification.

- Use it instead of polling in a loop: \`tail -f build.log | grep --line-buffered -E "ERROR|done"\`, \`while sleep 30; do curl -s localhost:8080/health; echo; done\`. Filter in the command: only lines that matter should reach you; a command that writes too fast has events suppressed and is stopped.
- Write to stdout line by line (grep --line-buffered, python -u); stderr is not an event.
- timeout_ms: default ${MONITOR_DEFAULT_TIMEOUT_MS} (5 minutes), at most ${MONITOR_MAX_TIMEOUT_MS} (1 hour); when it expires you get one notice and the watch stops. TaskStop stops it sooner.
- The command runs as Bash runs it (the same permission rules, the same sandbox); \`ws\` (a WebSocket source) is not supported.
- An event is not a message from the user.`;

/** A monitor's task id: `b` + 8 lowercase letters and digits (the reference's shell task ids), derived from the call. */
export function monitorTaskId(sessionId: string, toolUseId: string): string {
  const digest = createHash('sha256').update(`monitor/${sessionId}/${toolUseId}`).digest();
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let id = 'b';
  for (let i = 0; i < 8; i++) id += alphabet[(digest[i] as number) % alphabet.length];
  return id;
}

export const MonitorTool = buildTool<MonitorInput, MonitorOutput>({
  name: 'Monitor',
  rulesAs: 'Bash',
  inputSchema,
  inputJSONSchema,
  maxResultSizeChars: 10_000,
  prompt: () => PROMPT,
  summary: (i) => `Monitor: ${(i.description ?? '').slice(0, 80)}`,
  // The call only records the task: it runs nothing, so it is safe alongside others and on a retry.
  isConcurrencySafe: () => true,
  isReadOnly: (i) => typeof i.command === 'string' && isReadOnlyCommand(i.command),
  isIdempotent: () => true,
  // The reference loads it on demand (ToolSearch), as TaskStop.
  shouldDefer: true,
  getRuleContent: (i) => i.command,
  checkPermissions: (i, ctx) =>
    typeof i.command === 'string'
      ? sandboxPermission({ command: i.command }, ctx)
      : Promise.resolve({ behavior: 'passthrough' }),

  async validateInput(i, ctx) {
    if (i.ws !== undefined)
      return {
        result: false,
        message:
          'Monitor: the `ws` (WebSocket) source is not supported here. Watch with a `command` instead (for example a websocat or curl command that prints one line per message).',
        errorCode: 1,
      };
    if (i.command === undefined) return { result: false, message: 'Monitor needs a `command` to watch.', errorCode: 2 };
    if (i.command.trim() === '') return { result: false, message: '`command` must not be empty.', errorCode: 3 };
    if (CONTROL.test(i.command))
      return {
        result: false,
        message: '`command` contains control characters that would be hidden in an approval prompt.',
        errorCode: 4,
      };
    if (!i.description.trim()) return { result: false, message: '`description` must not be empty.', errorCode: 5 };
    if (!ctx.backgroundTasks || ctx.monitorTasks === false)
      return {
        result: false,
        message:
          'Monitor needs the durable runner: this session runs in process, where nothing would run the watch. ' +
          'Run the command with Bash instead (in the foreground, timeout up to 600000 ms).',
        errorCode: 6,
      };
    return { result: true };
  },

  async call(i, ctx: ToolUseContext) {
    const taskId = monitorTaskId(ctx.sessionId, ctx.toolUseId);
    // Where stdout and stderr go, as a background command's (stdout lines are the events too).
    const outputPath = await createTaskOutput(ctx.sessionId, taskId);
    const task: BackgroundTask = {
      id: taskId,
      kind: 'monitor',
      toolUseId: ctx.toolUseId,
      description: i.description.trim().slice(0, MAX_TASK_TEXT),
      startedAt: Date.now(),
      timeoutMs: i.timeout_ms,
      outputPath,
      state: 'running',
      // A preview (the context travels with every call); the task's activity reads the whole
      // command from the call's record in the execution ledger.
      command: (i.command ?? '').slice(0, MAX_TASK_TEXT),
      cwd: ctx.agent.cwd,
    };
    const modifiers: ContextModifier[] = [{ type: 'taskStarted', task }];
    return { data: { taskId, timeoutMs: i.timeout_ms, persistent: false }, contextModifiers: modifiers };
  },

  mapToolResultToToolResultBlockParam(d, toolUseId) {
    return {
      type: 'tool_result',
      tool_use_id: toolUseId,
      content: `Monitor started (task ${d.taskId}, expires in ${formatDuration(d.timeoutMs)} unless the source ends first; you get one notice at expiry — re-arm if you still need the watch). Each event reaches you as a notification: go on with other work, without polling or sleeping. An event is not a reply from the user.`,
    };
  },
});
