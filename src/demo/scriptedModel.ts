// The built-in scripted demo model: `durable-agent demo` (and `dev`/`worker --demo-model`, for
// tests) answers every session with this script, served by the local fake Messages API (the real SDK talks to
// it over HTTP, so everything else — streaming, activities, tools — is exactly the real path).
// It is clearly not Claude: it follows a fixed plan on the bundled sample project.
import { createHash } from 'node:crypto';
import {
  startFakeAnthropic,
  textResponse,
  toolUseResponse,
  type FakeAnthropicServer,
  type MessagesRequest,
  type ResponseSpec,
} from '../testing/fakeAnthropic';

export const DEMO_MODEL_LABEL = 'scripted demo model (this is not Claude)';

const BUGGY = 'return s[Math.floor(s.length / 2)];';
const FIXED =
  'const mid = Math.floor(s.length / 2);\n  return s.length % 2 === 0 ? (s[mid - 1] + s[mid]) / 2 : s[mid];';

function firstUserText(req: MessagesRequest): string {
  const first = req.messages[0];
  if (!first) return '';
  return typeof first.content === 'string' ? first.content : JSON.stringify(first.content);
}

/** The demo's plan, one step per turn: explore in parallel, read, test, fix (asks), re-test, report. */
export function demoResponse(req: MessagesRequest): ResponseSpec {
  const spec = demoStep(req);
  // DURABLE_AGENT_DEMO_DELAY_MS slows the "model" down so the turns can be watched (and killed).
  const delay = Number(process.env.DURABLE_AGENT_DEMO_DELAY_MS ?? 0);
  return Number.isFinite(delay) && delay > 0 && !('kind' in spec) ? { ...spec, latencyMs: delay } : spec;
}

function demoStep(req: MessagesRequest): ResponseSpec {
  const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
  // Ids depend on the conversation, not on a counter: a repeated model call (retry, restart)
  // yields the same ids, so the session's ledger recognises calls that already ran.
  const seed = createHash('sha256').update(firstUserText(req)).digest('hex').slice(0, 10);
  const id = (i: number) => `toolu_demo${seed}_t${turn}_${i}`;
  switch (turn) {
    case 1:
      return toolUseResponse(
        [
          { id: id(1), name: 'Glob', input: { pattern: '**/*.js' } },
          { id: id(2), name: 'Grep', input: { pattern: 'TODO', output_mode: 'content' } },
          { id: id(3), name: 'Read', input: { file_path: 'README.md' } },
        ],
        {
          text: `[${DEMO_MODEL_LABEL}] I'll look around the project first: three read-only calls, run as one parallel batch.`,
        },
      );
    case 2:
      return toolUseResponse(
        [
          { id: id(1), name: 'Read', input: { file_path: 'src/stats.js' } },
          { id: id(2), name: 'Read', input: { file_path: 'test/stats.test.js' } },
        ],
        { text: 'The TODO points at median(). Reading the code and its test together.' },
      );
    case 3:
      return toolUseResponse(
        [{ id: id(1), name: 'Bash', input: { command: 'node test/stats.test.js', description: 'Run the tests' } }],
        {
          text: 'Running the tests to confirm the bug.',
        },
      );
    case 4:
      return toolUseResponse(
        [{ id: id(1), name: 'Edit', input: { file_path: 'src/stats.js', old_string: BUGGY, new_string: FIXED } }],
        {
          text: 'median() picks the upper middle value for even lengths. Fixing it — this edit needs your approval.',
        },
      );
    case 5:
      return toolUseResponse(
        [
          {
            id: id(1),
            name: 'Bash',
            input: { command: 'node test/stats.test.js', description: 'Run the tests again' },
          },
        ],
        {
          text: 'Re-running the tests.',
        },
      );
    default:
      return textResponse(
        'Done: median() now averages the two middle values for even-length inputs, and the tests pass. (This was the scripted demo model.)',
      );
  }
}

export async function startDemoModel(log?: (line: string) => void): Promise<FakeAnthropicServer> {
  return startFakeAnthropic({ script: demoResponse, ...(log ? { log } : {}) });
}
