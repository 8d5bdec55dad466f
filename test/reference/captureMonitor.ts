// Captures what the reference (Claude Code 2.1.328, offline against the fake API) sends the model
// for a Monitor: the tool result, then each event notification and the end notification, with a
// watch command that writes a batch of lines at once, an over-long line, and a burst of lines over
// the rate limit. The texts become test/fixtures/reference-tools/2.1.328/monitor-events.json (ids
// and paths normalised, the reference's preamble and guidance left out), which tasks/core/monitorLines.ts and tasks/core/taskNotifications.ts follow.
//   node dist/test/reference/captureMonitor.js [--out FILE]
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import '../support/isolatedHome';
import { exitError, offlineDirs, offlineEnv, runToExit } from '../support/claudeOffline';
import { startFakeAnthropic, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { CLAUDE_BIN, ensureReference, REFERENCE_VERSION } from './run';

/** 12 lines at once (one event), a 600-character line, then 14 lines 250 ms apart (over the 10-event burst). */
export const MONITOR_COMMAND = [
  'for i in $(seq 1 12); do echo "batch $i"; done',
  'sleep 0.6',
  "printf 'L%.0s' $(seq 1 600); echo",
  'sleep 0.6',
  'for i in $(seq 1 14); do echo "burst $i"; sleep 0.25; done',
  'sleep 2.5',
  'echo last',
].join('; ');

type Block = { type: string; text?: string; content?: unknown; tool_use_id?: string };
type Msg = { role: string; content: string | Block[] };

function texts(m: Msg): string[] {
  if (typeof m.content === 'string') return [m.content];
  return m.content.flatMap((b) => {
    if (b.type === 'text' && b.text) return [b.text];
    if (b.type === 'tool_result')
      return [typeof b.content === 'string' ? b.content : JSON.stringify(b.content)].map((t) => `[tool_result] ${t}`);
    return [];
  });
}

export async function captureMonitor(): Promise<{ version: string; command: string; seen: string[] }> {
  ensureReference();
  const { root, dir, home } = await offlineDirs('da-ref-monitor-', { settings: true });
  const fake = await startFakeAnthropic({ validateToolPairing: false, allowSystemMessages: true });
  let n = 0;
  fake.script((req) => {
    if (!req.tools || req.tools.length === 0) return textResponse('ok');
    if (n++ === 0)
      return toolUseResponse([
        {
          id: 'toolu_monitor',
          name: 'Monitor',
          input: { description: 'watch <lines> & more', timeout_ms: 60_000, command: MONITOR_COMMAND },
        },
      ]);
    return textResponse('noted');
  });
  try {
    const r = await runToExit(
      CLAUDE_BIN,
      ['-p', 'watch it', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'bypassPermissions'],
      { cwd: dir, env: offlineEnv(home, fake.baseURL, { ENABLE_TOOL_SEARCH: 'false' }) },
    );
    const failed = exitError(r);
    if (failed) throw new Error(failed);
    // Every text the model was sent after its Monitor call, in order, each once.
    const seen: string[] = [];
    for (const req of fake.messageRequests().filter((r) => r.tools && r.tools.length > 0)) {
      for (const m of req.messages as Msg[]) for (const t of texts(m)) if (!seen.includes(t)) seen.push(t);
    }
    const normalised = seen
      .filter((t) => t.includes('<task-notification>') || t.startsWith('[tool_result] Monitor'))
      .map((t) =>
        t
          .replace(/<output-file>[^<]*<\/output-file>/g, '<output-file>$OUTPUT_FILE</output-file>')
          .replace(/(<task-id>|\(task )b[a-z0-9]{8}\b/g, '$1$TASK_ID')
          // Not the reference's own words (its preamble, its guidance after the first sentence): only their place.
          .replace(
            /^<system-reminder>\n[\s\S]*?\n\n<task-notification>/,
            '<system-reminder>\n$PREAMBLE\n\n<task-notification>',
          )
          .replace(/^(\[tool_result\] Monitor started \([^)]*\)\.) [\s\S]*$/, '$1 $GUIDANCE'),
      );
    return { version: REFERENCE_VERSION, command: MONITOR_COMMAND, seen: normalised };
  } finally {
    await fake.close();
    await rm(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const out =
    outAt >= 0
      ? args[outAt + 1]!
      : join(
          __dirname,
          '..',
          '..',
          '..',
          'test',
          'fixtures',
          'reference-tools',
          REFERENCE_VERSION,
          'monitor-events.json',
        );
  const captured = await captureMonitor();
  await writeFile(out, `${JSON.stringify(captured, null, 2)}\n`);
  process.stdout.write(`${captured.seen.length} texts -> ${out}\n`);
}

if (require.main === module)
  main().catch((err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
