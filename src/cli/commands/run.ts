// `durable-agent run`: start a session and follow it live. The steps, in order (each one may stop
// the run with a one-line UsageError before anything starts):
//   1. check the prompt, --cwd and --add-dir;   2. load settings (managed ones beat the flags);
//   3. load memory (CLAUDE.md);   4. refuse a disabled bypassPermissions mode;
//   5. resolve MCP servers;   6. load subagents;   7. build the session's options;
//   8. compare the control files with the last session here;   9. start, print, follow.
// With -p/--print or --output-format (text|json|stream-json), step 9 prints only what `claude -p`
// prints in that format (src/cli/printFollow.ts, src/cli/printFormat.ts); the prompt may come on stdin.
import { Option, type Command } from 'commander';
import { PERMISSION_MODES } from '../../toolProtocol/permissionTypes';
import { UsageError, addConnectionOptions, collect, fraction, positiveInt, usdAmount, wholeNumber } from '../options';
import { OUTPUT_FORMATS } from '../printFormat';
import type { RunOpts } from './runOpts';

export type { RunOpts } from './runOpts';

/**
 * The flags that shape a session (everything of `run` but --id, --detach and --json): `run` and
 * `schedule add` share them, and buildRunSession reads them.
 */
export function addSessionFlags(cmd: Command): Command {
  return cmd
    .option('--cwd <dir>', 'working directory of the session', process.cwd())
    .option('--model <name>', 'model (env ANTHROPIC_MODEL)')
    .option('--max-tokens <n>', 'max output tokens per model call', positiveInt('--max-tokens'))
    .addOption(
      new Option('--thinking <mode>', 'extended thinking (on by default): enabled (= adaptive) or disabled').choices([
        'enabled',
        'adaptive',
        'disabled',
      ]),
    )
    .option(
      '--max-thinking-tokens <n>',
      'thinking budget for models that take one (0: off; env MAX_THINKING_TOKENS wins)',
      wholeNumber('--max-thinking-tokens'),
    )
    .option('--system-prompt <text>', 'replace the default system prompt')
    .option('--append-system-prompt <text>', 'add to the system prompt')
    .addOption(new Option('--permission-mode <mode>', 'permission mode').choices([...PERMISSION_MODES]))
    .option('--allow <rule>', 'allow rule, e.g. "Bash(npm test)" (repeatable)', collect, [])
    .option('--ask <rule>', 'ask rule (repeatable)', collect, [])
    .option('--deny <rule>', 'deny rule (repeatable)', collect, [])
    .option('--add-dir <dir>', 'additional working directory (repeatable)', collect, [])
    .option(
      '--mcp-config <file|json>',
      'MCP servers from a JSON file or string { "mcpServers": … } (repeatable; no approval needed)',
      collect,
      [],
    )
    .option('--strict-mcp-config', 'use only the --mcp-config servers (not ~/.claude.json, .mcp.json or settings)')
    .option('--max-turns <n>', 'stop after N turns', positiveInt('--max-turns'))
    .option(
      '--notify-webhook <url>',
      'POST notifications (approval needed, ended, failed…) here (env DURABLE_AGENT_NOTIFY_WEBHOOK)',
    )
    .option(
      '--max-total-tokens <n>',
      "budget of N tokens for the session's whole tree (subagents, compactions, side calls)",
      positiveInt('--max-total-tokens'),
    )
    .option(
      '--max-budget-usd <usd>',
      "budget in US dollars for the session's whole tree; over it the session waits in budget_exceeded",
      usdAmount('--max-budget-usd'),
    )
    .addOption(
      new Option('--on-budget <what>', 'over budget: wait for `budget ID --add` (default; -p: end) or end').choices([
        'wait',
        'end',
      ]),
    )
    .option(
      '--budget-threshold <fraction>',
      'notify once past this share of the budget (default 0.8)',
      fraction('--budget-threshold'),
    )
    .option(
      '--approval-timeout <seconds>',
      'deny a pending approval after this long',
      positiveInt('--approval-timeout'),
    )
    .addOption(
      new Option('--on-interrupt <what>', 'after an interrupt: wait for a message or end').choices(['wait', 'end']),
    )
    .option('--task-queue <name>', 'task queue (env DURABLE_AGENT_TASK_QUEUE)')
    .option(
      '--tool-task-queue <name>',
      'task queue of the tool activities: a worker on the host that has the working directory',
    )
    .option('--no-sandbox', 'run Bash without the OS sandbox (default: sandboxed where the platform supports it)')
    .option(
      '--trust-checkout',
      "start although the worktree's control files (.claude/, .mcp.json, the scripts hooks run) came with a checkout and differ from the main checkout's (named first)",
    )
    .option(
      '--no-streaming-tools',
      'start tools only when the model message is complete (default: safe tools start while it streams; env DURABLE_AGENT_STREAMING_TOOL_EXECUTION=0)',
    )
    .option(
      '--tool-search <mode>',
      'deferred tools behind ToolSearch: true, false, auto or auto:N (default auto: when MCP and other deferrable schemas reach N% (10) of the window; env ENABLE_TOOL_SEARCH)',
    );
}

export function addRunCommand(program: Command): void {
  addSessionFlags(
    addConnectionOptions(
      program
        .command('run')
        .description('Start a session and follow it live (Ctrl-C detaches; the job keeps running)')
        .argument('[prompt...]', 'what the agent should do (with -p: else read from stdin)'),
    ),
  )
    // Run only: a schedule's firings would all share one worktree.
    .option(
      '--worktree [name]',
      'run in the git worktree .claude/worktrees/<name> (branch worktree-<name>) of the repository, created or reused before the session starts',
    )
    .option('--id <id>', 'session id (default: generated)')
    .option('--detach', 'print the session id and return')
    .option('--json', 'JSON lines')
    .option('-p, --print', "print the session's result and nothing else, as `claude -p` (default format text)")
    .addOption(
      new Option('--output-format <format>', 'with -p: what to print (implies -p)').choices([...OUTPUT_FORMATS]),
    )
    .option('--verbose', 'with -p: needed by --output-format stream-json, as the reference')
    .action(runCommand);
}

/**
 * The flags checked, then the run itself (./runSession.ts), loaded only when `run` runs: `--help`, a
 * usage error and the other commands do without it (issue 32).
 */
async function runCommand(promptWords: string[], o: RunOpts): Promise<void> {
  if (o.outputFormat) o.print = true;
  if (o.print) {
    o.outputFormat ??= 'text';
    if (o.detach) throw new UsageError('-p/--print follows the session to its end: it does not take --detach');
    if (o.outputFormat === 'stream-json' && !o.verbose)
      throw new UsageError('When using --print, --output-format=stream-json requires --verbose');
  } else if (promptWords.length === 0) throw new UsageError("missing required argument 'prompt'");
  await (await import('./runSession')).runSession(promptWords, o);
}
