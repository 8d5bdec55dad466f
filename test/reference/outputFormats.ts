// test:reference, output formats (issue 20.7): the same scripted session through `claude -p
// --output-format text|json|stream-json` (the reference, against the fake Messages API) and through
// `durable-agent -p …` (the real CLI against a Temporal dev server and a worker of this process),
// compared line by line: the sequence of line types, every key the reference sends (but those in
// REFERENCE_ONLY_KEYS, docs/tools.md) present in ours with the same JSON type, and the values that
// are deterministic (content blocks, result, subtype, is_error, num_turns, stop_reason, errors…).
// Flags: the exit code and the message after each side's prefix. Thinking cases (`requests`, issue
// 31 deliverable 6): what each side's main-loop requests ask of thinking, by model, setting and env.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  errorResponse,
  refusalResponse,
  startFakeAnthropic,
  textResponse,
  toolUseResponse,
  type FakeAnthropicServer,
  type ResponseSpec,
} from '../../src/testing/fakeAnthropic';
import { withAgent } from '../support/agent';
import { offlineDirs, offlineEnv, runToExit } from '../support/claudeOffline';
import { closeTestEnv } from '../support/temporal';

type Json = Record<string, unknown>;
type Script = (turn: number, dir: string) => ResponseSpec;

export interface FormatCase {
  name: string;
  /** Arguments after `-p` on both sides (the prompt among them unless `stdin`). */
  args: string[];
  script: Script;
  stdin?: string;
  /** A flag case: nothing starts; exit code and message compared. */
  flags?: boolean;
  /** `--model` on both sides (default: the reference's own; ours claude-test). */
  model?: string;
  /** More environment on both sides (MAX_THINKING_TOKENS, …). */
  env?: Record<string, string>;
  /** The project's `.claude/settings.json` on both sides. */
  settings?: Json;
  /** Also compare what each main-loop request asks of thinking (`thinking`, `temperature`, the binding beta). */
  requests?: boolean;
}

const read: Script = (t, dir) =>
  t === 0
    ? toolUseResponse([{ id: 'toolu_of_read', name: 'Read', input: { file_path: join(dir, 'a.txt') } }])
    : textResponse('The file says hello.');
const multi: Script = (t, dir) =>
  t === 0
    ? toolUseResponse(
        [
          { id: 'toolu_of_m1', name: 'Read', input: { file_path: join(dir, 'a.txt') } },
          { id: 'toolu_of_m2', name: 'Bash', input: { command: 'echo hi' } },
        ],
        { text: 'Let me look.' },
      )
    : textResponse('Done.');
const plain: Script = () => textResponse('Just text.');
const refused: Script = () =>
  refusalResponse([{ type: 'text', text: 'I will not' }], {
    category: 'cyber',
    explanation: 'This looks like malware development.',
  });
const windowFull: Script = () => ({
  content: [{ type: 'text', text: 'A partial answer' }],
  stop_reason: 'model_context_window_exceeded',
});
const thoughtful: Script = () => ({
  content: [
    { type: 'thinking', thinking: 'Think first: + / = stay as they are.' },
    { type: 'redacted_thinking', data: 'RW5jcnlwdGVkIHRoaW5raW5n+/==' },
    { type: 'text', text: 'Thought it through.' },
  ],
  stop_reason: 'end_turn',
});
/** A thinking case: one main-loop request whose `thinking` (and temperature, beta) is compared. */
const thinkingCase = (name: string, over: Partial<FormatCase>): FormatCase => ({
  name: `thinking request: ${name}`,
  args: ['hi', '--output-format', 'json'],
  script: plain,
  requests: true,
  ...over,
});
const api400: Script = () => errorResponse(400, { message: 'bad request here' });

export const FORMAT_CASES: FormatCase[] = [
  { name: 'output text: a Read, then the answer', args: ['read a.txt'], script: read },
  { name: 'output json: a Read, then the answer', args: ['read a.txt', '--output-format', 'json'], script: read },
  {
    name: 'output stream-json: text and two tool calls in one message',
    args: ['look', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'bypassPermissions'],
    script: multi,
  },
  { name: 'output json: the prompt on stdin', args: ['--output-format', 'json'], script: plain, stdin: 'say it\n' },
  { name: 'output text: an API error', args: ['x'], script: api400 },
  { name: 'output json: an API error', args: ['x', '--output-format', 'json'], script: api400 },
  {
    name: 'output stream-json: an API error',
    args: ['x', '--output-format', 'stream-json', '--verbose'],
    script: api400,
  },
  {
    name: 'output json: --max-turns 1 reached',
    args: ['read', '--output-format', 'json', '--max-turns', '1'],
    script: read,
  },
  { name: 'output text: --max-turns 1 reached', args: ['read', '--max-turns', '1'], script: read },
  { name: 'output flags: a bad format', args: ['x', '--output-format', 'bogus'], script: plain, flags: true },
  {
    name: 'output flags: stream-json without --verbose',
    args: ['x', '--output-format', 'stream-json'],
    script: plain,
    flags: true,
  },
  { name: 'output flags: no prompt and no stdin', args: ['--output-format', 'json'], script: plain, flags: true },
  { name: 'output flags: an unknown option', args: ['x', '--bogus'], script: plain, flags: true },
  // Stop reasons that are not a success (issue 31 items 2 and 3).
  { name: 'output text: a refusal', args: ['x'], script: refused },
  { name: 'output json: a refusal', args: ['x', '--output-format', 'json'], script: refused },
  { name: 'output text: the context window exceeded', args: ['x'], script: windowFull },
  { name: 'output json: the context window exceeded', args: ['x', '--output-format', 'json'], script: windowFull },
  {
    name: 'output stream-json: thinking and redacted thinking',
    args: ['think', '--output-format', 'stream-json', '--verbose'],
    model: 'claude-sonnet-4-5',
    script: thoughtful,
  },
  // What the reference sends with thinking on (issue 31 item 8), per model, setting and env.
  ...[
    'claude-sonnet-4-5',
    'claude-sonnet-4-20250514',
    'claude-opus-4-20250514',
    'claude-opus-4-1',
    'claude-opus-4-1-20250805',
    'claude-opus-4-5',
    'claude-haiku-4-5',
    'claude-opus-4-6',
    'claude-3-7-sonnet-20250219',
    'claude-fable-5-1',
  ].map((model) => thinkingCase(`${model} (default)`, { model })),
  thinkingCase('claude-sonnet-4-5 (alwaysThinkingEnabled true)', {
    model: 'claude-sonnet-4-5',
    settings: { alwaysThinkingEnabled: true },
  }),
  thinkingCase('claude-sonnet-4-5 (alwaysThinkingEnabled false)', {
    model: 'claude-sonnet-4-5',
    settings: { alwaysThinkingEnabled: false },
  }),
  thinkingCase('claude-sonnet-4-5 (MAX_THINKING_TOKENS=2048)', {
    model: 'claude-sonnet-4-5',
    env: { MAX_THINKING_TOKENS: '2048' },
  }),
  thinkingCase('claude-opus-4-6 (MAX_THINKING_TOKENS=2048)', {
    model: 'claude-opus-4-6',
    env: { MAX_THINKING_TOKENS: '2048' },
  }),
  thinkingCase('claude-opus-4-6 (MAX_THINKING_TOKENS=0)', {
    model: 'claude-opus-4-6',
    env: { MAX_THINKING_TOKENS: '0' },
  }),
  thinkingCase('claude-sonnet-4-5 (MAX_THINKING_TOKENS=4096 beats alwaysThinkingEnabled false)', {
    model: 'claude-sonnet-4-5',
    env: { MAX_THINKING_TOKENS: '4096' },
    settings: { alwaysThinkingEnabled: false },
  }),
];

/**
 * Keys the reference sends that durable-agent does not, per line (docs/tools.md, "Output formats"):
 * the reference's own client, UI and plugin state, timings it measures inside its process (a thinking
 * block's line: how long it streamed, how it was displayed), and the tool's structured output on a
 * tool_result line.
 */
export const REFERENCE_ONLY_KEYS: Record<string, string[]> = {
  init: [
    'terminal_slash_commands',
    'capabilities',
    'analytics_disabled',
    'product_feedback_disabled',
    'memory_paths',
    'messaging_socket_path',
    'fast_mode_state',
    'fast_mode_disabled_reason',
    'per_turn_effort_active',
    'ultrathink_available',
    'ultrathink_typed_raises',
    'view_mode',
  ],
  user: ['tool_use_result', 'tool_result_meta'],
  assistant: ['thinking_duration_ms', 'thinking_display'],
  'message.usage': ['service_tier'],
  result: [
    'ttft_ms',
    'ttft_stream_ms',
    'time_to_request_ms',
    'first_content_frame_ms',
    'queued_turn_count',
    'result_index',
    'model_usage_since_last_result',
    'fast_mode_state',
    'fast_mode_disabled_reason',
    'subagent_stats',
    'safety_stops',
  ],
  'result.usage': [
    'output_tokens_details',
    'service_tier',
    'cache_creation',
    'inference_geo',
    'iterations',
    'speed',
    'fallback_credit',
  ],
};

export interface Side {
  code: number | null;
  stdout: string;
  stderr: string;
  /** `requests` cases: what each main-loop request asked of thinking (see `thinkingAsked`). */
  requests?: ThinkingAsked[];
}

async function projectDir(c: FormatCase): Promise<{ root: string; dir: string; home: string }> {
  const dirs = await offlineDirs('da-ref-of-');
  await writeFile(join(dirs.dir, 'a.txt'), 'hello\n');
  if (c.settings) {
    await mkdir(join(dirs.dir, '.claude'), { recursive: true });
    await writeFile(join(dirs.dir, '.claude', 'settings.json'), JSON.stringify(c.settings));
  }
  return dirs;
}

/** A request's thinking as compared: the sides' max_tokens differ, so a budget of max_tokens - 1 is said so. */
export interface ThinkingAsked {
  /** The `thinking` parameter without `display`, keys sorted; `none` when absent. */
  thinking: string;
  /** `thinking.display` (the reference sends "omitted"); `absent`. */
  display: string;
  temperature: string;
  /** The thinking-binding beta in `anthropic-beta`. */
  bindingBeta: boolean;
}

const sorted = (o: Json): Json => Object.fromEntries(Object.entries(o).sort(([x], [y]) => (x < y ? -1 : 1)));

/** What the main loop's requests (those offering tools) asked of thinking. */
function thinkingAsked(fake: FakeAnthropicServer): ThinkingAsked[] {
  return fake.requests
    .filter((r) => r.valid && Array.isArray((r.body as Json)['tools']) && ((r.body as Json)['tools'] as []).length > 0)
    .map((r) => {
      const body = r.body as Json;
      const { display, ...t } = (body['thinking'] as Json | undefined) ?? {};
      const budget = t['budget_tokens'];
      if (budget !== undefined && budget === Number(body['max_tokens']) - 1) t['budget_tokens'] = 'max_tokens-1';
      return {
        thinking: body['thinking'] === undefined ? 'none' : JSON.stringify(sorted(t)),
        display: display === undefined ? 'absent' : JSON.stringify(display),
        temperature: body['temperature'] === undefined ? 'absent' : JSON.stringify(body['temperature']),
        bindingBeta: (r.headers['anthropic-beta'] ?? '').includes('thinking-binding'),
      };
    });
}

/** The requests' differences, one line per request and aspect (so that a deliberate row can name one). */
function requestDiffs(ref: ThinkingAsked[], ours: ThinkingAsked[]): string[] {
  if (ref.length !== ours.length) return [`requests: ref sent ${ref.length} main-loop requests, ours ${ours.length}`];
  const out: string[] = [];
  ref.forEach((r, i) => {
    const o = ours[i]!;
    for (const k of ['thinking', 'display', 'temperature', 'bindingBeta'] as const)
      if (r[k] !== o[k])
        out.push(
          `request ${i + 1} ${k === 'thinking' ? 'thinking' : `thinking ${k}`} ref=${String(r[k])} ours=${String(o[k])}`,
        );
  });
  return out;
}

function scripted(fake: FakeAnthropicServer, c: FormatCase, dir: string): void {
  let turn = 0;
  fake.script((req) => (!req.tools || req.tools.length === 0 ? textResponse('ok') : c.script(turn++, dir)));
}

async function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, stdin?: string): Promise<Side> {
  const r = await runToExit(cmd, args, { cwd, env, ...(stdin !== undefined ? { stdin } : {}) });
  return { code: r.code, stdout: r.stdout.split(cwd).join('$DIR'), stderr: r.stderr.split(cwd).join('$DIR') };
}

export async function referenceSide(c: FormatCase, claudeBin: string): Promise<Side> {
  const { dir, home } = await projectDir(c);
  const fake = await startFakeAnthropic({ validateToolPairing: false, allowSystemMessages: true });
  try {
    scripted(fake, c, dir);
    const args = ['-p', ...c.args, ...(c.model ? ['--model', c.model] : [])];
    const side = await run(claudeBin, args, dir, offlineEnv(home, fake.baseURL, c.env ?? {}), c.stdin);
    return c.requests ? { ...side, requests: thinkingAsked(fake) } : side;
  } finally {
    await fake.close();
  }
}

const MAIN = join(__dirname, '..', '..', 'src', 'cli', 'main.js');

/** durable-agent's side: the real CLI, a dev server (TEMPORAL_TEST_ADDRESS or one of its own) and a worker in this process. */
export async function durableSide(c: FormatCase): Promise<Side> {
  const { dir, home } = await projectDir(c);
  return withAgent({}, async ({ fake, taskQueue, storeDir, env }) => {
    scripted(fake, c, dir);
    const address = process.env.TEMPORAL_TEST_ADDRESS ?? env.connection.options.address;
    const side = await run(
      process.execPath,
      [MAIN, '-p', ...c.args, ...(c.flags ? [] : ['--cwd', dir, '--model', c.model ?? 'claude-test', '--no-sandbox'])],
      dir,
      {
        ...c.env,
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        DURABLE_AGENT_HOME: join(home, '.durable-agent'),
        TEMPORAL_ADDRESS: address,
        DURABLE_AGENT_TASK_QUEUE: taskQueue,
        DURABLE_AGENT_STORE_DIR: storeDir,
        ANTHROPIC_API_KEY: 'test-key',
      },
      c.stdin,
    );
    return c.requests ? { ...side, requests: thinkingAsked(fake) } : side;
  });
}

export async function closeFormatSides(): Promise<void> {
  await closeTestEnv();
}

/**
 * Lines only the reference prints (docs/tools.md, "Output formats"): `system` `thinking_tokens`, its
 * running estimate while a thinking block streams. durable-agent prints a turn's lines when the turn
 * lands in the store, so it has no such progress; the thinking blocks themselves are compared.
 */
export const REFERENCE_ONLY_LINES = ['thinking_tokens'];

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const lineKind = (l: Json): string => (l['subtype'] === 'init' ? 'init' : String(l['type']));

function parseLines(s: string): Json[] | string {
  try {
    return s
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Json);
  } catch (err) {
    return `not JSON lines: ${err instanceof Error ? err.message : String(err)}: ${s.slice(0, 200)}`;
  }
}

/** Keys of the reference's object that ours lacks or holds with another JSON type. */
function keyDiffs(where: string, ref: Json, ours: Json, skip: string[] = []): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(ref)) {
    if (skip.includes(k)) continue;
    if (!(k in ours)) out.push(`${where} lacks ${k}`);
    else if (typeOf(v) !== typeOf(ours[k])) out.push(`${where}.${k} is ${typeOf(ours[k])}, ref ${typeOf(v)}`);
  }
  return out;
}

/**
 * A content block as compared, keys sorted: a tool_result by its id and is_error (false as absent),
 * not its text (each tool's texts are compared by the tool cases; Read numbers lines its own way).
 */
function block(b: Json): string {
  const { is_error, content, ...rest } = b;
  const o: Json = { ...rest, ...(is_error ? { is_error } : {}) };
  if (b['type'] !== 'tool_result' && content !== undefined) o['content'] = content;
  return JSON.stringify(Object.fromEntries(Object.entries(o).sort(([x], [y]) => (x < y ? -1 : 1))));
}

const RESULT_VALUES = [
  'type',
  'subtype',
  'is_error',
  'num_turns',
  'result',
  'stop_reason',
  'terminal_reason',
  'errors',
  'permission_denials',
  'api_error_status',
  'api_error_type',
];

function lineDiffs(i: number, ref: Json, ours: Json): string[] {
  const kind = lineKind(ref);
  const at = `line ${i + 1} (${kind})`;
  const out = keyDiffs(at, ref, ours, REFERENCE_ONLY_KEYS[kind]);
  if (kind === 'assistant' || kind === 'user') {
    const rm = ref['message'] as Json;
    const om = (ours['message'] ?? {}) as Json;
    out.push(...keyDiffs(`${at} message`, rm, om));
    if (rm['usage'] && om['usage'])
      out.push(
        ...keyDiffs(
          `${at} message.usage`,
          rm['usage'] as Json,
          om['usage'] as Json,
          REFERENCE_ONLY_KEYS['message.usage'],
        ),
      );
    const rb = ((rm['content'] ?? []) as Json[]).map(block).join(' ');
    const ob = ((om['content'] ?? []) as Json[]).map(block).join(' ');
    if (rb !== ob) out.push(`${at} content ref=${rb.slice(0, 200)} ours=${ob.slice(0, 200)}`);
    if (kind === 'assistant' && ref['is_api_error_message'] !== ours['is_api_error_message'])
      out.push(
        `${at} is_api_error_message ref=${String(ref['is_api_error_message'])} ours=${String(ours['is_api_error_message'])}`,
      );
  }
  if (kind === 'init') {
    for (const k of ['cwd', 'permissionMode', 'output_style'])
      if (ref[k] !== ours[k]) out.push(`${at} ${k} ref=${JSON.stringify(ref[k])} ours=${JSON.stringify(ours[k])}`);
  }
  if (kind === 'result') {
    out.push(
      ...keyDiffs(
        `${at} usage`,
        ref['usage'] as Json,
        (ours['usage'] ?? {}) as Json,
        REFERENCE_ONLY_KEYS['result.usage'],
      ),
    );
    for (const k of RESULT_VALUES)
      if (JSON.stringify(ref[k]) !== JSON.stringify(ours[k]))
        out.push(`${at} ${k} ref=${JSON.stringify(ref[k])} ours=${JSON.stringify(ours[k])}`);
  }
  return out;
}

/** The message of a one-line error without its prefix (`Error: `, `error: `, `durable-agent: `). */
const errorMessage = (stderr: string): string =>
  stderr
    .trim()
    .split('\n')[0]!
    .replace(/^(Error: |error: |durable-agent: )/, '');

/** What differs between the two sides of a case (empty: they agree). */
export function compareFormat(c: FormatCase, ref: Side, ours: Side): string[] {
  const diffs: string[] = [];
  if (c.requests) diffs.push(...requestDiffs(ref.requests ?? [], ours.requests ?? []));
  if (ref.code !== ours.code)
    diffs.push(`exit ref=${ref.code} ours=${ours.code} (ours stderr: ${ours.stderr.trim().slice(0, 200)})`);
  if (c.flags) {
    if (errorMessage(ref.stderr) !== errorMessage(ours.stderr))
      diffs.push(
        `message ref=${JSON.stringify(errorMessage(ref.stderr))} ours=${JSON.stringify(errorMessage(ours.stderr))}`,
      );
    if (ours.stdout !== '') diffs.push(`stdout not empty: ${ours.stdout.slice(0, 100)}`);
    return diffs;
  }
  if (!c.args.includes('--output-format')) {
    if (ref.stdout !== ours.stdout)
      diffs.push(`stdout ref=${JSON.stringify(ref.stdout)} ours=${JSON.stringify(ours.stdout)}`);
    return diffs;
  }
  const all = parseLines(ref.stdout);
  const a = typeof all === 'string' ? all : all.filter((l) => !REFERENCE_ONLY_LINES.includes(String(l['subtype'])));
  const b = parseLines(ours.stdout);
  if (typeof a === 'string') return [...diffs, `reference ${a}`];
  if (typeof b === 'string') return [...diffs, `durable-agent ${b}`];
  const ka = a.map(lineKind).join(',');
  const kb = b.map(lineKind).join(',');
  if (ka !== kb) return [...diffs, `lines ref=[${ka}] ours=[${kb}]`];
  a.forEach((l, i) => diffs.push(...lineDiffs(i, l, b[i]!)));
  return diffs;
}
