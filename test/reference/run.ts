// `npm run test:reference`: differential tests against the reference agent (Claude Code), opt-in,
// not part of `npm test`. Installs @anthropic-ai/claude-code into ~/.cache/durable-agent/claude-code
// (reused when present), then for every case in ./cases sends the same scripted tool_use blocks
// through the reference (`claude -p`, against the fake Messages API) and through durable-agent
// (the in-process runner, against another fake) and compares per tool_use_id: is_error, the effect
// on files, the size policy (persisted with a preview) and the PreToolUse/PostToolUse hook input.
// Exits non-zero only on a difference not listed in DELIBERATE.
//
//   node dist/test/reference/run.js [--verbose] [--json FILE] [--jobs N] [case-name-substring...]
//
// --jobs: cases run at a time (default 2; both sides of a case always run together).
//
// The reference is pinned (REFERENCE_VERSION). DURABLE_AGENT_CLAUDE_CODE_VERSION=2.1.197 runs the
// cases against another version (installed into ~/.cache/durable-agent/claude-code-<version>);
// DURABLE_AGENT_CLAUDE_CODE_CACHE names the install directory.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import '../support/isolatedHome';
import { exitError, offlineEnv, runToExit } from '../support/claudeOffline';
import {
  startFakeAnthropic,
  textResponse,
  toolUseResponse,
  type FakeAnthropicServer,
  type MessageSpec,
  type RequestContentBlock,
} from '../../src/testing/fakeAnthropic';
import { runLocalSession } from '../../src/inprocess/runSession';
import { SandboxHost } from '../../src/sandbox/host';
import { BUILTIN_TOOL_NAMES } from '../../src/temporal/client';
import { CASES, DELIBERATE, deliberateReason, type RefCall, type RefCase } from './cases';
import { loadMemory, memoryReminder, sha256 } from '../../src/claudeMd/claudeMd';
import { resolveMcpServers } from '../../src/mcp/config';
import { compareSession, readTranscript, SESSION_EVENTS, type SessionSide } from './session';
import { webSite, type WebSite } from './webSite';
import { FORMAT_CASES, closeFormatSides, compareFormat, durableSide, referenceSide } from './outputFormats';

/** Tools 2.1.328 defers behind ToolSearch (test/fixtures/reference-tools/2.1.328/index.json): a case calling one gets every tool up front there. */
const DEFERRED_IN_REFERENCE = new Set([
  'EnterWorktree',
  'ExitWorktree',
  'NotebookEdit',
  'WebFetch',
  'WebSearch',
  'Monitor',
  'TaskStop',
  'CronCreate',
  'CronList',
  'CronDelete',
]);
/** The version of @anthropic-ai/claude-code the cases are checked against. */
export const PINNED_VERSION = '2.1.328';
export const REFERENCE_VERSION = process.env.DURABLE_AGENT_CLAUDE_CODE_VERSION ?? PINNED_VERSION;
export const CACHE_DIR =
  process.env.DURABLE_AGENT_CLAUDE_CODE_CACHE ??
  join(
    homedir(),
    '.cache',
    'durable-agent',
    REFERENCE_VERSION === PINNED_VERSION ? 'claude-code' : `claude-code-${REFERENCE_VERSION}`,
  );
export const CLAUDE_BIN = join(CACHE_DIR, 'node_modules', '.bin', 'claude');
/** The tool events whose input the capture hook records on both sides. */
const TOOL_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'];
/** Every event captured on both sides: the tool events and the session-level ones (./session.ts). */
const CAPTURED_EVENTS = [...TOOL_EVENTS, ...SESSION_EVENTS];

/** What one agent did with one tool_use block. */
export interface Observed {
  content: string;
  isError: boolean;
  persisted: boolean;
  pre?: Record<string, unknown>;
  post?: Record<string, unknown>;
  /** PostToolUseFailure's input (a call that failed). */
  failure?: Record<string, unknown>;
}

export interface SideResult {
  results: Map<string, Observed>;
  files: Record<string, string>;
  /** The case's `modelSees` texts the model's conversation mentions. */
  seen: string[];
  /** Session-level hook inputs and the transcript file. */
  session: SessionSide;
  /** ToolSearch cases: per model request, the case's called tools whose schema the request carried (sent up front or loaded). */
  offered?: string[][];
  /** Background Bash calls: each task's output file at the end (by tool_use id), and the task notifications the model got. */
  background?: { outputs: Record<string, string>; notifications: string[] };
  /**
   * The capture hook's log, one line per file it wrote (name, event, tool_use_id, size, or why it
   * could not be read), and on our side the hook runs and notices the runner recorded per call:
   * shown by --verbose and --json, so that a hook that "did not run" can be told from one whose
   * file was lost or unreadable.
   */
  hookLog?: string[];
  error?: string;
}

/** The version installed in CACHE_DIR (undefined: none). */
function installedVersion(): string | undefined {
  try {
    return (
      JSON.parse(
        readFileSync(join(CACHE_DIR, 'node_modules', '@anthropic-ai', 'claude-code', 'package.json'), 'utf8'),
      ) as { version?: string }
    ).version;
  } catch {
    return undefined;
  }
}

export function ensureReference(): void {
  const have = existsSync(CLAUDE_BIN) ? installedVersion() : undefined;
  if (have === REFERENCE_VERSION) return;
  if (have !== undefined) {
    throw new Error(
      `${CACHE_DIR} holds @anthropic-ai/claude-code ${have}, the cases are pinned to ${REFERENCE_VERSION}: remove that directory (it is reinstalled), or set DURABLE_AGENT_CLAUDE_CODE_VERSION=${have} to run against it`,
    );
  }
  console.error(
    `[reference] installing @anthropic-ai/claude-code@${REFERENCE_VERSION} into ${CACHE_DIR} (once; ~370 MB)`,
  );
  const r = spawnSync(
    'npm',
    ['i', '--prefix', CACHE_DIR, '--no-audit', '--no-fund', `@anthropic-ai/claude-code@${REFERENCE_VERSION}`],
    { stdio: 'inherit' },
  );
  if (r.status !== 0 || installedVersion() !== REFERENCE_VERSION)
    throw new Error(
      `could not install @anthropic-ai/claude-code@${REFERENCE_VERSION} into ${CACHE_DIR} (npm exit ${r.status})`,
    );
}

/** A case's second working directory (`$OTHER`, passed as `--add-dir` / additionalDirectories when the case asks): a sibling of the project. */
const otherOf = (dir: string): string => join(dirname(dir), 'other');
/** Our side's sandbox, as runLocalSession's default (hosts of one process share the runtime and its availability). */
const sandboxHost = new SandboxHost();
/** The WebFetch cases' site (`$WEB`: `https://127.0.0.1:<port>`), started before the cases when one needs it. */
let site: WebSite | undefined;
const subText = (text: string, dir: string): string =>
  text
    .split('$OTHER')
    .join(otherOf(dir))
    .split('$DIR')
    .join(dir)
    .split('$WEB')
    .join(site?.base ?? '$WEB');
const sub = (value: unknown, dir: string): unknown => JSON.parse(subText(JSON.stringify(value), dir));
/** A case's MCP servers with the paths of node and the servers filled in. */
const mcpServersOf = (c: RefCase): Record<string, unknown> | undefined =>
  c.mcpServers &&
  (JSON.parse(
    JSON.stringify(c.mcpServers)
      .split('$NODE')
      .join(process.execPath)
      .split('$MCP_EVERYTHING')
      .join(require.resolve('@modelcontextprotocol/server-everything/dist/index.js'))
      .split('$MCP_FILESYSTEM')
      .join(require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'))
      .split('$MCP_TEST')
      .join(join(__dirname, '..', 'support', 'mcpServer.js')),
  ) as Record<string, unknown>);
const unsub = (text: string, dirs: string[]): string =>
  dirs.reduce((t, d) => t.split(otherOf(d)).join('$OTHER').split(d).join('$DIR'), text);

async function setupDir(
  c: RefCase,
  prefix: string,
): Promise<{ dir: string; capture: string; home: string; store: string }> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const dir = join(root, 'project');
  const capture = join(root, 'hooks');
  const home = join(root, 'home');
  const store = join(root, 'store');
  for (const d of [dir, capture, home, store, otherOf(dir)]) await mkdir(d, { recursive: true });
  const at = (name: string): string => (name.startsWith('$OTHER/') ? subText(name, dir) : join(dir, name));
  for (const [name, text] of Object.entries(c.files ?? {})) {
    await mkdir(dirname(at(name)), { recursive: true });
    await writeFile(at(name), text);
  }
  for (const [name, target] of Object.entries(c.symlinks ?? {})) {
    await mkdir(dirname(at(name)), { recursive: true });
    await symlink(subText(target, dir), at(name));
  }
  const mcp = mcpServersOf(c);
  if (mcp) await writeFile(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: sub(mcp, dir) }));
  if (c.git) {
    const g = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    g('init', '-q', '-b', 'main');
    g('config', 'user.email', 'ref@example.com');
    g('config', 'user.name', 'ref');
    g('add', '-A');
    g('commit', '-qm', 'init', '--allow-empty');
  }
  return { dir, capture, home, store };
}

/** The reference's own bookkeeping in a project (`.claude/.cc-writes/`, in the start directory and where a `cd` led it). */
const isBookkeeping = (rel: string): boolean => /(^|\/)\.claude\/\.cc-writes(\/|$)/.test(rel);
/**
 * What the reference's sandbox leaves in a `.git` directory that is not a full repository: empty
 * mount points for the git paths it masks (`.git/config.worktree`, `.git/info/`, `.git/worktrees/`, …,
 * `.claude-sandbox-noreplace`). An artefact of its bubblewrap binds, not an effect of the command;
 * ignored on both sides (an empty file or directory under `.git/` runs nothing).
 */
const isSandboxPlaceholder = (rel: string, text: string): boolean =>
  rel.includes('.claude-sandbox-noreplace') || (text === '' && /(^|\/)\.git\//.test(rel));

/**
 * Every file, directory and symlink under the project (and `$OTHER/…` under the second working
 * directory): control files included, so a write to `.claude/settings.json` or `.mcp.json` is
 * compared. Left out: the reference's bookkeeping (and a `.claude/` that holds nothing else), in
 * MCP cases the `.mcp.json` the harness wrote, and empty entries under `.git/` the case did not
 * create (the reference's sandbox placeholders).
 */
async function snapshot(c: RefCase, dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [base, prefix] of [
    [dir, ''],
    [otherOf(dir), '$OTHER/'],
  ] as const) {
    for (const e of await readdir(base, { withFileTypes: true, recursive: true })) {
      const full = join(e.parentPath ?? (e as unknown as { path: string }).path, e.name);
      const rel = relative(base, full);
      if (isBookkeeping(rel)) continue;
      if (prefix === '' && rel === '.mcp.json' && c.mcpServers) continue;
      const key = `${prefix}${rel}`;
      let text: string;
      try {
        text = e.isSymbolicLink() ? `-> ${await readlink(full)}` : e.isFile() ? await readFile(full, 'utf8') : '';
      } catch (err) {
        // Gone since readdir: an empty placeholder the sandbox runtime of a parallel case removed
        // (it keeps them in every project while any sandboxed command runs). Anything else is real.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw err;
      }
      if (
        isSandboxPlaceholder(key, text) &&
        !Object.keys(c.files ?? {}).some((f) => f === key || f.startsWith(`${key}/`))
      )
        continue;
      if (e.isSymbolicLink() || e.isFile()) out[key] = text;
      else if (e.isDirectory()) out[`${key}/`] = '';
    }
  }
  // A repository: its worktrees (path relative to the project, branch) and branches instead of `.git`'s bookkeeping.
  if (c.git) {
    for (const k of Object.keys(out)) if (/(^|\/)\.git(\/|$)/.test(k)) delete out[k];
    const list = execFileSync('git', ['worktree', 'list', '--porcelain'], { cwd: dir, encoding: 'utf8' });
    const worktrees = list
      .split('\n\n')
      .filter((b) => b.trim())
      .map((b) => {
        const path = /^worktree (.*)$/m.exec(b)?.[1] ?? '?';
        const branch = /^branch refs\/heads\/(.*)$/m.exec(b)?.[1] ?? '(detached)';
        return `${relative(dir, path) || '.'} ${branch}`;
      });
    const branches = execFileSync('git', ['branch', '--format=%(refname:short)'], { cwd: dir, encoding: 'utf8' });
    out['$GIT'] = `worktrees: ${worktrees.join(', ')}; branches: ${branches.trim().split('\n').join(', ')}`;
  }
  // A `.claude/` directory with nothing left in it (the reference made it for its bookkeeping).
  for (const k of Object.keys(out))
    if (/(^|\/)\.claude\/$/.test(k) && !Object.keys(out).some((o) => o !== k && o.startsWith(k))) delete out[k];
  return out;
}

/** The capture hook of each event; a case's `hookReplies` are printed after capturing (the hook's answer). */
async function hookSettings(
  capture: string,
  events: string[],
  c: RefCase,
  dir: string,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const e of events) {
    const reply = c.hookReplies?.[e] ?? c.hookRepliesOnce?.[e];
    let command = `cat > '${capture}'/$$.json`;
    if (reply !== undefined) {
      const file = join(capture, '..', `reply-${e}.json`);
      await writeFile(file, JSON.stringify(sub(reply, dir)));
      command +=
        c.hookReplies?.[e] !== undefined
          ? `; cat '${file}'`
          : `; if [ ! -e '${file}.used' ]; then touch '${file}.used'; cat '${file}'; fi`;
    }
    const exit2 = c.hookExit2Once?.[e];
    if (exit2 !== undefined) {
      const used = join(capture, '..', `exit2-${e}.used`);
      command += `; if [ ! -e '${used}' ]; then touch '${used}'; echo '${exit2}' >&2; exit 2; fi`;
    }
    out[e] = [{ matcher: '*', hooks: [{ type: 'command', command }] }];
  }
  return out;
}

/** Does the model's conversation (every request after the first) mention the text? */
function modelSaw(fake: FakeAnthropicServer, text: string): boolean {
  return fake.messageRequests().some((r) => JSON.stringify(r.messages).includes(text));
}

/** The prompt both sides start with; a request whose first message lacks it is a subagent's. */
const PROMPT = 'run the scripted tools';
const isChildRequest = (req: { messages: Array<{ content: unknown }> }): boolean =>
  !JSON.stringify(req.messages[0]?.content ?? '').includes(PROMPT);

/**
 * The fake's script: turn n's tool_use blocks for the n-th request that offers tools, then end_turn
 * (an empty turn: end_turn at once, the model waits for a task notification); side requests get
 * text. With `childLatencyMs`, a subagent's requests take no turn: they are answered after that
 * delay, and the parent's turns after the first wait until the child's first request arrived.
 */
function scriptFake(fake: FakeAnthropicServer, c: RefCase, dir: string): void {
  let turn = 0;
  let childAsked = (): void => undefined;
  const childArrived = new Promise<void>((resolve) => (childAsked = resolve));
  fake.script(async (req) => {
    if (!req.tools || req.tools.length === 0) return textResponse('ok');
    // WebSearch's own request (the server tool only): the same scripted search on both sides.
    if ((req.tools as Array<{ type?: string }>).every((t) => t.type?.startsWith('web_search_'))) return SEARCH_ANSWER;
    if (c.childLatencyMs !== undefined && isChildRequest(req)) {
      childAsked();
      return textResponse('done', { latencyMs: c.childLatencyMs });
    }
    const calls = c.turns[turn++];
    if (!calls) return textResponse('done');
    if (calls.length === 0) return textResponse('waiting');
    if (c.childLatencyMs !== undefined && turn > 1)
      await Promise.race([childArrived, new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
    return toolUseResponse(
      calls.map((call) => ({ id: call.id, name: call.name, input: withJobIds(sub(call.input, dir), req.messages) })),
    );
  });
}

/** What the fake answers a WebSearch's own request (both sides): one search, two results, a text. */
const SEARCH_ANSWER: MessageSpec = {
  content: [
    { type: 'server_tool_use', input: { query: 'durable execution' } },
    {
      type: 'web_search_tool_result',
      results: [
        { url: 'https://temporal.io/', title: 'Temporal', page_age: '2 days ago' },
        { url: 'https://docs.temporal.io/', title: 'Temporal docs' },
      ],
    },
    { type: 'text', text: 'Temporal runs durable workflows.' },
  ],
};

/** `$JOB(<tool_use_id>)` in an input: the job, background task, Monitor task or agent id that call's tool_result names (ids are random in the reference, derived from the call in durable-agent). */
function withJobIds(input: unknown, messages: Array<{ role: string; content: unknown }>): unknown {
  const text = JSON.stringify(input);
  if (!text.includes('$JOB(')) return input;
  const resultOf = (id: string): string => {
    for (const m of messages)
      if (Array.isArray(m.content))
        for (const b of m.content as RequestContentBlock[])
          if (b.type === 'tool_result' && b.tool_use_id === id) return textOf(b.content);
    return '';
  };
  return JSON.parse(
    text.replace(/\$JOB\(([^)]+)\)/g, (_, id: string) => {
      const m =
        /^Monitor started \(task (\S+),|^agentId: (\S+)|\b(?:job|task) ([0-9a-f]{8})\b|\bwith ID: (b[a-z0-9]{8})\b/m.exec(
          resultOf(id),
        );
      return m?.[1] ?? m?.[2] ?? m?.[3] ?? m?.[4] ?? 'none';
    }),
  ) as unknown;
}

/** The scheduling tools: their texts are compared with what differs by nature normalised. */
const SCHEDULE_TOOLS = new Set(['ScheduleWakeup', 'CronCreate', 'CronList', 'CronDelete']);
/**
 * A scheduling tool's text without what differs by nature between two runs: job ids (random in the
 * reference, derived from the call in durable-agent), clock times and dates of the next run, the
 * seconds until a wake-up (the reference rounds up to a whole minute).
 */
export function normaliseSchedule(text: string): string {
  return text
    .replace(/\b[0-9a-f]{8}\b/g, '<id>')
    .replace(/\b\d{2}:\d{2}:\d{2}\b/g, '<clock>')
    .replace(/\(in \d+s\)/g, '(in <n>s)')
    .replace(/\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2} \d{1,2}:\d{2}(?:am|pm)/g, '<date>');
}

/** A text without its `<tool_use_error>…</tool_use_error>` tags (the tags are compared on their own, for every tool). */
const unwrapError = (text: string): string => text.replace(/^<tool_use_error>([\s\S]*)<\/tool_use_error>$/, '$1');

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((b) =>
        b && typeof b === 'object' && 'text' in b ? String((b as { text: unknown }).text) : JSON.stringify(b),
      )
      .join('\n');
  return JSON.stringify(content ?? '');
}

/** The calls of a case that start a background task: Bash `run_in_background`, Monitor, Agent (unless `run_in_background: false`). */
const backgroundCalls = (c: RefCase): RefCall[] =>
  c.turns
    .flat()
    .filter(
      (t) =>
        t.name === 'Monitor' ||
        (t.name === 'Bash' && (t.input as { run_in_background?: unknown }).run_in_background) ||
        (t.name === 'Agent' && (t.input as { run_in_background?: unknown }).run_in_background !== false),
    );

/**
 * A background Agent's launched result: its first sentence and the `agentId: <id>` it gives (the
 * reference's words, ours too); the guidance around them is each side's own words.
 */
const agentLaunchLines = (text: string): string => {
  const [first, second] = text.split('\n');
  const sentence = /^[^.]*\./.exec(first ?? '')?.[0] ?? first ?? '';
  return `${sentence}\n${/^agentId: \S+/.exec(second ?? '')?.[0] ?? second ?? ''}`;
};

/** A Monitor result's first sentence (its task id and expiry); the guidance after it is each side's own words. */
const monitorSentence = (text: string): string => text.split('). ')[0] ?? text;

/**
 * Background Bash and Monitor calls: each task's id and output file (from its tool_result; a
 * Monitor's output file from its end notification), replaced in every
 * text by `$TASK(<tool_use_id>)` and `$OUTPUT(<tool_use_id>)` (ids are random in the reference,
 * derived from the call in durable-agent; the output files live in each side's temp dir); the
 * output files' contents at the end; and the `<task-notification>` texts the model got (each once,
 * the preamble — each side's own words — as `$PREAMBLE`). The results' texts are normalised in place.
 */
async function backgroundOf(
  fake: FakeAnthropicServer,
  c: RefCase,
  results: Map<string, Observed>,
): Promise<{ normalise: (text: string) => string; side?: NonNullable<SideResult['background']> }> {
  const calls = backgroundCalls(c);
  const tasks: Array<{ call: string; id: string; path: string }> = [];
  const texts = fake.messageRequests().flatMap((req) =>
    req.messages.map((m) => ({
      role: m.role,
      texts:
        typeof m.content === 'string'
          ? [m.content]
          : (m.content as RequestContentBlock[]).flatMap((b) => (b.type === 'text' ? [b.text ?? ''] : [])),
    })),
  );
  for (const call of calls) {
    const result = results.get(call.id)?.content ?? '';
    const m = /with ID: (\S+)\. Output is being written to: (\S+\.output)\./.exec(result);
    if (m) tasks.push({ call: call.id, id: m[1]!, path: m[2]! });
    // An Agent's result names its agent id (and, in the reference, its transcript file: not compared).
    const agent = call.name === 'Agent' ? /^agentId: (\S+)/m.exec(result) : null;
    if (agent) tasks.push({ call: call.id, id: agent[1]!, path: /^output_file: (\S+)/m.exec(result)?.[1] ?? '' });
    // A Monitor's result names its task only; its output file is in its end notification.
    const mon = /^Monitor started \(task (\S+),/.exec(result);
    if (!mon) continue;
    const end = texts
      .flatMap((t) => t.texts)
      .map((t) =>
        new RegExp(
          `<task-id>${mon[1]}</task-id>\\n<tool-use-id>[^<]*</tool-use-id>\\n<output-file>([^<]+)</output-file>`,
        ).exec(t),
      )
      .find((x) => x);
    tasks.push({ call: call.id, id: mon[1]!, path: end?.[1] ?? '' });
  }
  const normalise = (text: string): string =>
    tasks.reduce(
      (t, k) => (k.path ? t.split(k.path).join(`$OUTPUT(${k.call})`) : t).split(k.id).join(`$TASK(${k.call})`),
      text,
    );
  if (calls.length === 0 && !c.turns.flat().some((t) => t.name === 'TaskStop')) return { normalise };
  for (const o of results.values()) o.content = normalise(o.content);
  const outputs: Record<string, string> = {};
  const agentCalls = new Set(calls.filter((x) => x.name === 'Agent').map((x) => x.id));
  for (const k of tasks.filter((x) => !agentCalls.has(x.call)))
    outputs[k.call] = await readFile(k.path || '/nonexistent', 'utf8').catch(() => '(no output file)');
  const notifications: string[] = [];
  for (const m of texts)
    for (const t of m.texts) {
      if (!t.includes('<task-notification>')) continue;
      // An agent's usage (tokens, duration) differs by nature: its numbers as N.
      const n = `${m.role}: ${normalise(t)
        .replace(/^(<system-reminder>\n)[\s\S]*?(\n+<task-notification>)/, '$1$PREAMBLE$2')
        .replace(/(<(subagent_tokens|tool_uses|duration_ms)>)\d+(<\/\2>)/g, '$1N$3')}`;
      if (!notifications.includes(n)) notifications.push(n);
    }
  return { normalise, side: { outputs, notifications: notifications.sort() } };
}

async function collect(fake: FakeAnthropicServer, c: RefCase, dir: string, capture: string): Promise<SideResult> {
  const results = new Map<string, Observed>();
  const ids = new Set(c.turns.flat().map((t) => t.id));
  for (const req of fake.messageRequests()) {
    for (const m of req.messages) {
      if (m.role !== 'user' || typeof m.content === 'string') continue;
      for (const b of m.content as RequestContentBlock[]) {
        if (b.type !== 'tool_result' || !b.tool_use_id || !ids.has(b.tool_use_id)) continue;
        const content = unsub(textOf(b.content), [dir]);
        results.set(b.tool_use_id, {
          content,
          isError: b.is_error === true,
          persisted: /<persisted-output>/.test(content),
        });
      }
    }
  }
  const background = await backgroundOf(fake, c, results);
  const inputs: Record<string, Array<{ at: number; input: Record<string, unknown> }>> = {};
  const hookLog: string[] = [];
  for (const f of (await readdir(capture)).sort()) {
    let input: Record<string, unknown>;
    let at: number;
    let raw = '';
    try {
      raw = await readFile(join(capture, f), 'utf8');
      input = JSON.parse(background.normalise(unsub(raw, [dir]))) as Record<string, unknown>;
      at = (await stat(join(capture, f))).mtimeMs;
    } catch (e) {
      hookLog.push(`${f}: unreadable (${raw.length} B): ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    hookLog.push(`${f}: ${String(input['hook_event_name'])} ${String(input['tool_use_id'] ?? '')} (${raw.length} B)`);
    const event = String(input['hook_event_name'] ?? '');
    if (SESSION_EVENTS.includes(event)) {
      (inputs[event] ??= []).push({ at, input });
      continue;
    }
    const id = String(input['tool_use_id'] ?? '');
    const o = results.get(id) ?? { content: '(no tool_result)', isError: false, persisted: false };
    if (input['hook_event_name'] === 'PreToolUse') o.pre = input;
    else if (input['hook_event_name'] === 'PostToolUse') o.post = input;
    else if (input['hook_event_name'] === 'PostToolUseFailure') o.failure = input;
    results.set(id, o);
  }
  const session: SessionSide = { inputs: {}, transcript: [] };
  for (const [event, list] of Object.entries(inputs))
    session.inputs[event] = list.sort((a, b) => a.at - b.at).map((x) => x.input);
  session.transcript = readTranscript(session.inputs);
  const called = [...new Set(c.turns.flat().map((t) => t.name))].filter((n) => n !== 'ToolSearch');
  const offered = c.toolSearch
    ? fake
        .messageRequests()
        .filter(
          (r) =>
            r.tools &&
            r.tools.length > 0 &&
            !(r.tools as Array<{ type?: string }>).every((t) => t.type?.startsWith('web_search_')),
        )
        .map((r) =>
          called.filter((n) =>
            (r.tools as Array<{ name?: string; input_schema?: unknown }>).some((t) => t.name === n && t.input_schema),
          ),
        )
    : undefined;
  return {
    ...(offered ? { offered } : {}),
    ...(background.side ? { background: background.side } : {}),
    results,
    hookLog,
    files: await snapshot(c, dir),
    seen: (c.modelSees ?? []).filter((t) => modelSaw(fake, t)),
    session,
  };
}

export async function runReference(c: RefCase): Promise<SideResult> {
  const { dir, capture, home } = await setupDir(c, 'da-ref-cc-');
  const fake = await startFakeAnthropic({ validateToolPairing: false, allowSystemMessages: true });
  try {
    scriptFake(fake, c, dir);
    const config = join(home, '.claude');
    await mkdir(config, { recursive: true });
    const settings = {
      ...(sub(c.settings ?? {}, dir) as Record<string, unknown>),
      hooks: await hookSettings(capture, CAPTURED_EVENTS, c, dir),
      ...(c.mcpServers ? { enableAllProjectMcpServers: true } : {}),
      // WebFetch cases: no domain check with claude.ai (offline), as durable-agent has none.
      ...(c.web ? { skipWebFetchPreflight: true } : {}),
    };
    await writeFile(join(config, 'settings.json'), JSON.stringify(settings));
    const addDirs = (c.additionalDirectories ?? []).flatMap((d) => ['--add-dir', subText(d, dir)]);
    const r = await runToExit(
      CLAUDE_BIN,
      [
        '-p',
        PROMPT,
        '--output-format',
        'stream-json',
        '--verbose',
        '--permission-mode',
        c.permissionMode ?? 'bypassPermissions',
        ...addDirs,
      ],
      {
        cwd: dir,
        env: offlineEnv(
          home,
          fake.baseURL,
          {
            // MCP cases: wait for the servers before the first request (else, on a loaded machine, the
            // first call may come before the server is connected: "No such tool available").
            ...(c.mcpServers ? { MCP_CONNECTION_NONBLOCKING: 'false' } : {}),
            // MCP cases: every tool's schema in the first request (2.1.328 defers MCP tools behind its
            // tool search and tells a model that calls one unloaded that the schema was not in its prompt).
            ...(!c.toolSearch &&
            (c.mcpServers || c.git || c.turns.flat().some((t) => DEFERRED_IN_REFERENCE.has(t.name)))
              ? { ENABLE_TOOL_SEARCH: 'false' }
              : {}),
            // ToolSearch cases: the reference defers as it does by default (ENABLE_TOOL_SEARCH unset).
            ...(c.web && site ? { NODE_EXTRA_CA_CERTS: site.caFile } : {}),
          },
          config,
        ),
      },
    );
    const side = await collect(fake, c, dir, capture);
    const failed = exitError(r);
    if (failed) side.error = failed;
    return side;
  } finally {
    await fake.close();
  }
}

export async function runDurableAgent(c: RefCase): Promise<SideResult> {
  const { dir, capture, store, home } = await setupDir(c, 'da-ref-da-');
  const fake = await startFakeAnthropic();
  try {
    scriptFake(fake, c, dir);
    // The case's CLAUDE.md files, loaded as `run` loads them (the reference reads them from its cwd).
    const mem = loadMemory(dir, {
      home,
      configDir: join(home, '.claude'),
      managed: join(home, 'no-managed-CLAUDE.md'),
    });
    const memText = memoryReminder(mem.files);
    const r = await runLocalSession(
      {
        prompt: PROMPT,
        cwd: dir,
        // ToolSearch cases: the deferred tools are sent deferred whatever the tool count (the reference's default with its larger tool set).
        tools: c.toolSearch ? [...BUILTIN_TOOL_NAMES, 'ToolSearch'] : [...BUILTIN_TOOL_NAMES],
        ...(c.toolSearch ? { contextManagement: { toolSearch: 'on' as const } } : {}),
        permissionMode: c.permissionMode ?? 'bypassPermissions',
        // The case's user settings, as `run` reads them: permission rules and the sandbox.
        ...(c.settings?.permissions
          ? { rules: { allow: [], ask: [], deny: [], ...(sub(c.settings.permissions, dir) as object) } }
          : {}),
        ...(c.settings?.sandbox ? { sandbox: sub(c.settings.sandbox, dir) as never } : {}),
        ...(c.additionalDirectories
          ? { additionalDirectories: c.additionalDirectories.map((d) => subText(d, dir)) }
          : {}),
        model: { model: 'claude-test', maxTokens: 1024 },
        hooks: (await hookSettings(capture, CAPTURED_EVENTS, c, dir)) as never,
        ...(mem.files.length > 0
          ? { memory: { files: mem.files.map((f) => f.path), text: memText, sha256: sha256(memText) } }
          : {}),
        // The case's .mcp.json, read and approved as `run` does.
        ...(c.mcpServers
          ? { mcpServers: resolveMcpServers({ cwd: dir, approval: { enableAllProjectMcpServers: true } }).servers }
          : {}),
      },
      { storeDir: store, anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
    );
    const side = await collect(fake, c, dir, capture);
    // The runner's own account of each call: how it ended, why it was allowed or refused, whether
    // it was sandboxed, the hooks it ran and how they ended (--verbose, --json: hookLog).
    for (const rec of r.records)
      side.hookLog?.push(
        [
          `runner ${rec.toolUseId}: ${rec.status}${rec.result.is_error === true ? ' is_error' : ''}`,
          rec.decision &&
            `decision ${rec.decision.behavior} (${rec.decision.source}${rec.decision.reason ? `: ${rec.decision.reason}` : ''})`,
          rec.sandbox &&
            `${rec.sandbox.sandboxed ? 'sandboxed' : 'not sandboxed'}${rec.sandbox.reason ? ` (${rec.sandbox.reason})` : ''}`,
          `hooks ${
            (rec.hooks ?? [])
              .map((h) => `${h.event}=${h.outcome}${h.exitCode != null ? `(${h.exitCode})` : ''} ${h.durationMs}ms`)
              .join(', ') || 'none'
          }`,
          rec.notices?.length && `notices ${rec.notices.join(' | ')}`,
        ]
          .filter(Boolean)
          .join('; '),
      );
    // A sandbox case where this process has no sandbox compares nothing of the sandbox: say so as the
    // case's run error instead of rows that look like a hook that did not fire (a denied call runs
    // no PostToolUseFailure).
    if (c.settings?.sandbox) {
      const a = await sandboxHost.availability();
      if (!a.available) side.error = `the sandbox is unavailable in this process: ${a.reason}`;
    }
    if (r.status !== (c.ends ?? 'completed')) side.error = `session ${r.status}: ${r.endReason}`;
    return side;
  } finally {
    await fake.close();
  }
}

const keys = (o: unknown): string =>
  o && typeof o === 'object' && !Array.isArray(o) ? Object.keys(o).sort().join(',') : typeof o;
/**
 * JSON with object keys sorted (two values that differ only in key order compare equal) and the
 * store path of a persisted output reduced to its presence (each agent has its own store).
 */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (k, x: unknown) => {
    if (k === 'persistedOutputPath' && typeof x === 'string') return '<stored>';
    return x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x;
  });
/** Built-in tools whose tool_result text is compared when it is not an error (besides every MCP tool; error texts are durable-agent's own format). */
const CONTENT_COMPARED = new Set([
  'EnterWorktree',
  'ExitWorktree',
  'NotebookEdit',
  'ToolSearch',
  'WebFetch',
  'WebSearch',
]);
/** Tools whose error texts are compared whole (every tool's: the `<tool_use_error>` tags and a schema error's text). */
const ERROR_TEXT_COMPARED = new Set(['NotebookEdit']);
const tagged = (text: string): boolean => /^<tool_use_error>[\s\S]*<\/tool_use_error>$/.test(text);
/** The hint a schema error of a deferred tool not loaded carries, up to the tool's schema (each side's own); '' without one. */
export const loadHint = (text: string): string =>
  /\n\nThis tool's schema was not sent to the API[\s\S]*?input schema is: /.exec(unwrapError(text))?.[0] ?? '';

/** A schema error's text up to the load hint (after it, each side's own schema); undefined for another error. */
export const schemaErrorText = (text: string): string | undefined => {
  const t = unwrapError(text);
  return t.startsWith('InputValidationError:')
    ? t.split("\n\nThis tool's schema was not sent to the API")[0]
    : undefined;
};

/**
 * Two error results of one call, for every tool: the hint to load a deferred tool, the
 * `<tool_use_error>` tags, a schema error's text; the text of any error for ERROR_TEXT_COMPARED.
 */
function compareErrors(tool: string, a: string, b: string, d: (aspect: string, text: string) => void): void {
  if (loadHint(a) !== loadHint(b))
    d('load hint', `hint ref=${JSON.stringify(loadHint(a))} ours=${JSON.stringify(loadHint(b))}`);
  if (tagged(a) !== tagged(b)) d('error tags', `<tool_use_error> tags ref=${tagged(a)} ours=${tagged(b)}`);
  const [sa, sb] = [schemaErrorText(a), schemaErrorText(b)];
  if (sa !== undefined && sb !== undefined) {
    if (sa !== sb)
      d(
        'schema error',
        `schema error ref=${JSON.stringify(sa.slice(0, 400))} ours=${JSON.stringify(sb.slice(0, 400))}`,
      );
  } else if (ERROR_TEXT_COMPARED.has(tool) && a !== b)
    d('content', `error ref=${JSON.stringify(a.slice(0, 300))} ours=${JSON.stringify(b.slice(0, 300))}`);
}

/** Tools whose PostToolUse tool_response is compared value for value (the others: keys only), and every MCP tool. */
const TOOL_RESPONSE_VALUES = new Set(['Read', 'Write', 'Edit', 'Bash']);
const valuesCompared = (tool: string): boolean => TOOL_RESPONSE_VALUES.has(tool) || tool.startsWith('mcp__');

export interface Diff {
  /** The tool of the call (undefined for the run and file rows). */
  tool?: string;
  /** is_error, persisted, PreToolUse ran, PostToolUse ran, PostToolUseFailure ran, tool_input, tool_name, tool_response keys, tool_response (values: Read, Write, Edit, Bash), error tags, schema error, load hint, file, run. */
  aspect: string;
  /** The file of a `file` row (`dir/` for a directory). */
  path?: string;
  text: string;
}

/** What differs between the two sides of one case (empty: they agree). */
export function compare(c: RefCase, ref: SideResult, ours: SideResult): Diff[] {
  const diffs: Diff[] = [];
  if (ref.error) diffs.push({ aspect: 'run', text: `reference: ${ref.error}` });
  if (ours.error) diffs.push({ aspect: 'run', text: `durable-agent: ${ours.error}` });
  for (const call of c.turns.flat()) {
    const d = (aspect: string, text: string): void =>
      void diffs.push({ tool: call.name, aspect, text: `${call.id}: ${text}` });
    const a = ref.results.get(call.id);
    const b = ours.results.get(call.id);
    if (!a && !b) continue; // neither agent ran it (a blocked prompt): they agree
    if (!a || !b) {
      d('tool_result', `tool_result ${a ? '' : 'missing in reference '}${b ? '' : 'missing in durable-agent'}`.trim());
      continue;
    }
    if (a.isError !== b.isError) d('is_error', `is_error ref=${a.isError} ours=${b.isError}`);
    if (a.persisted !== b.persisted) d('persisted', `persisted ref=${a.persisted} ours=${b.persisted}`);
    // MCP and worktree results: the text the model gets (the reference's words for resources, links,
    // structuredContent, errors; where a worktree is and what it did).
    if (SCHEDULE_TOOLS.has(call.name) && normaliseSchedule(a.content) !== normaliseSchedule(b.content))
      d(
        'content',
        `tool_result ref=${JSON.stringify(normaliseSchedule(a.content).slice(0, 400))} ours=${JSON.stringify(normaliseSchedule(b.content).slice(0, 400))}`,
      );
    // Background tasks: the texts the model gets, task ids and output files normalised.
    if (call.name === 'Monitor' && monitorSentence(a.content) !== monitorSentence(b.content))
      d(
        'content',
        `tool_result ref=${JSON.stringify(monitorSentence(a.content))} ours=${JSON.stringify(monitorSentence(b.content))}`,
      );
    else if (call.name === 'Monitor' && a.content !== b.content)
      d(
        'guidance',
        `Monitor result after its first sentence ref=${JSON.stringify(a.content.slice(0, 400))} ours=${JSON.stringify(b.content.slice(0, 400))}`,
      );
    else if (call.name === 'Agent' && backgroundCalls(c).includes(call)) {
      if (agentLaunchLines(a.content) !== agentLaunchLines(b.content))
        d(
          'content',
          `tool_result ref=${JSON.stringify(agentLaunchLines(a.content))} ours=${JSON.stringify(agentLaunchLines(b.content))}`,
        );
      else if (a.content !== b.content)
        d(
          'guidance',
          `Agent result after its agentId ref=${JSON.stringify(a.content.slice(0, 600))} ours=${JSON.stringify(b.content.slice(0, 600))}`,
        );
    } else if (
      call.name !== 'Monitor' &&
      (call.name === 'TaskStop' || backgroundCalls(c).includes(call)) &&
      a.content !== b.content
    )
      d(
        'content',
        `tool_result ref=${JSON.stringify(a.content.slice(0, 400))} ours=${JSON.stringify(b.content.slice(0, 400))}`,
      );
    if ((call.name.startsWith('mcp__') || (CONTENT_COMPARED.has(call.name) && !a.isError)) && a.content !== b.content)
      d(
        'content',
        `tool_result ref=${JSON.stringify(a.content.slice(0, 300))} ours=${JSON.stringify(b.content.slice(0, 300))}`,
      );
    if (a.isError && b.isError) compareErrors(call.name, a.content, b.content, d);
    if (call.name.startsWith('mcp__') && a.failure && b.failure && a.failure['error'] !== b.failure['error'])
      d(
        'content',
        `PostToolUseFailure error ref=${JSON.stringify(a.failure['error'])} ours=${JSON.stringify(b.failure['error'])}`,
      );
    if (!!a.pre !== !!b.pre) d('PreToolUse ran', `PreToolUse hook ran ref=${!!a.pre} ours=${!!b.pre}`);
    else if (a.pre && b.pre) {
      const input = (o: Record<string, unknown>): string =>
        SCHEDULE_TOOLS.has(call.name)
          ? normaliseSchedule(JSON.stringify(o['tool_input']))
          : JSON.stringify(o['tool_input']);
      if (input(a.pre) !== input(b.pre))
        d(
          'tool_input',
          `PreToolUse tool_input ref=${JSON.stringify(a.pre['tool_input'])} ours=${JSON.stringify(b.pre['tool_input'])}`,
        );
      if (a.pre['tool_name'] !== b.pre['tool_name']) d('tool_name', 'PreToolUse tool_name differs');
    }
    if (!!a.post !== !!b.post) d('PostToolUse ran', `PostToolUse hook ran ref=${!!a.post} ours=${!!b.post}`);
    else if (a.post && b.post && keys(a.post['tool_response']) !== keys(b.post['tool_response']))
      d(
        'tool_response keys',
        `tool_response keys ref={${keys(a.post['tool_response'])}} ours={${keys(b.post['tool_response'])}}`,
      );
    else if (
      a.post &&
      b.post &&
      valuesCompared(call.name) &&
      canonical(a.post['tool_response']) !== canonical(b.post['tool_response'])
    )
      d(
        'tool_response',
        `tool_response ref=${canonical(a.post['tool_response']).slice(0, 400)} ours=${canonical(b.post['tool_response']).slice(0, 400)}`,
      );
    if (!!a.failure !== !!b.failure)
      d('PostToolUseFailure ran', `PostToolUseFailure hook ran ref=${!!a.failure} ours=${!!b.failure}`);
    else if (
      a.failure &&
      b.failure &&
      JSON.stringify(a.failure['tool_input']) !== JSON.stringify(b.failure['tool_input'])
    )
      d(
        'tool_input',
        `PostToolUseFailure tool_input ref=${JSON.stringify(a.failure['tool_input'])} ours=${JSON.stringify(b.failure['tool_input'])}`,
      );
  }
  for (const d of compareSession(ref.session, ours.session)) diffs.push(d);
  // Background tasks: each task's output file, and the notifications the model got.
  for (const [call, text] of Object.entries(ref.background?.outputs ?? {}))
    if (ours.background?.outputs[call] !== text)
      diffs.push({
        tool: 'Bash',
        aspect: 'output file',
        text: `${call}: output file ref=${JSON.stringify(text.slice(0, 300))} ours=${JSON.stringify(ours.background?.outputs[call]?.slice(0, 300))}`,
      });
  if (JSON.stringify(ref.background?.notifications) !== JSON.stringify(ours.background?.notifications))
    diffs.push({
      aspect: 'notification',
      text: `task notifications ref=${JSON.stringify(ref.background?.notifications)} ours=${JSON.stringify(ours.background?.notifications)}`,
    });
  // ToolSearch cases: a deferred tool's schema reaches the model only once loaded, on both sides.
  if (JSON.stringify(ref.offered) !== JSON.stringify(ours.offered))
    diffs.push({
      aspect: 'offered',
      text: `schemas of the called tools per request ref=${JSON.stringify(ref.offered)} ours=${JSON.stringify(ours.offered)}`,
    });
  for (const t of c.modelSees ?? []) {
    if (ref.seen.includes(t) !== ours.seen.includes(t))
      diffs.push({
        aspect: 'model sees',
        text: `the model sees ${JSON.stringify(t)}: ref=${ref.seen.includes(t)} ours=${ours.seen.includes(t)}`,
      });
  }
  const names = new Set([...Object.keys(ref.files), ...Object.keys(ours.files)]);
  for (const n of [...names].sort()) {
    if (ref.files[n] !== ours.files[n])
      diffs.push({
        aspect: 'file',
        path: n,
        text: `file ${n}: ${ref.files[n] === undefined ? 'only ours' : ours.files[n] === undefined ? 'only reference' : 'contents differ'}`,
      });
  }
  return diffs;
}

async function pool<T, R>(items: T[], n: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const verbose = args.includes('--verbose');
  const jsonAt = args.indexOf('--json');
  const jsonFile = jsonAt >= 0 ? args[jsonAt + 1] : undefined;
  const jobsAt = args.indexOf('--jobs');
  const jobs = jobsAt >= 0 ? Number(args[jobsAt + 1]) : 2;
  if (!Number.isInteger(jobs) || jobs < 1)
    throw new Error(`--jobs wants a positive integer, got ${JSON.stringify(args[jobsAt + 1])}`);
  const filters = args.filter(
    (a, i) => !a.startsWith('--') && (jsonAt < 0 || i !== jsonAt + 1) && (jobsAt < 0 || i !== jobsAt + 1),
  );
  ensureReference();
  const version = spawnSync(CLAUDE_BIN, ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.log(`reference: ${version} (${CLAUDE_BIN})`);
  const cases = CASES.filter((c) => filters.length === 0 || filters.some((f) => c.name.includes(f)));
  if (cases.some((c) => c.web)) site = await webSite();
  const formatCases = FORMAT_CASES.filter((c) => filters.length === 0 || filters.some((f) => c.name.includes(f)));
  const side = async (c: RefCase) => {
    const [ref, ours] = await Promise.all([runReference(c), runDurableAgent(c)]);
    return { c, ref, ours, diffs: compare(c, ref, ours) };
  };
  // Cases with a background task run after the others, one at a time: our side runs every case in
  // one process, whose sandbox runtime kept its placeholders for absent protected paths (.bashrc,
  // .claude, …) in every project until its last sandboxed command ended, so a task still running
  // left them in a parallel case's files. Placeholders are per command now (src/sandbox/
  // placeholders.ts, docs/tools.md "Background tasks"); the order stays until a full run in
  // parallel has shown no difference.
  const alone = cases.filter((c) => backgroundCalls(c).length > 0);
  const rows = [
    ...(await pool(
      cases.filter((c) => !alone.includes(c)),
      jobs,
      side,
    )),
    ...(await pool(alone, 1, side)),
  ];
  let agree = 0;
  let deliberate = 0;
  let unexpected = 0;
  const report: unknown[] = [];
  for (const { c, ref, ours, diffs } of rows) {
    const reasons = diffs.map((d) => deliberateReason(c.name, d));
    const verdict = diffs.length === 0 ? 'agree' : reasons.every((r) => r !== undefined) ? 'deliberate' : 'DIFFER';
    if (verdict === 'agree') agree++;
    else if (verdict === 'deliberate') deliberate++;
    else unexpected++;
    console.log(
      `${verdict.padEnd(10)} ${c.name.padEnd(40)} ${diffs.map((d, i) => `${d.text}${reasons[i] ? ' [deliberate]' : ''}`).join('; ')}`,
    );
    const detail = (s: SideResult): unknown => ({
      error: s.error,
      files: s.files,
      seen: s.seen,
      results: Object.fromEntries(s.results),
      offered: s.offered,
      background: s.background,
      hookLog: s.hookLog,
      session: s.session.inputs,
    });
    if (verbose && diffs.length)
      console.log(JSON.stringify({ reference: detail(ref), ours: detail(ours) }, null, 1).slice(0, 6000));
    report.push({ case: c.name, verdict, diffs, reasons, reference: detail(ref), ours: detail(ours) });
  }
  // Output formats (./outputFormats.ts): the CLI's -p output against the reference's, case by case.
  for (const c of formatCases) {
    const [ref, ours] = await Promise.all([referenceSide(c, CLAUDE_BIN), durableSide(c)]);
    const diffs = compareFormat(c, ref, ours);
    const reasons = diffs.map((text) => deliberateReason(c.name, { aspect: 'output', path: text }));
    const verdict = diffs.length === 0 ? 'agree' : reasons.every((r) => r !== undefined) ? 'deliberate' : 'DIFFER';
    if (verdict === 'agree') agree++;
    else if (verdict === 'deliberate') deliberate++;
    else unexpected++;
    console.log(
      `${verdict.padEnd(10)} ${c.name.padEnd(40)} ${diffs.map((d, i) => `${d}${reasons[i] ? ' [deliberate]' : ''}`).join('; ')}`,
    );
    if (verbose && diffs.length) console.log(JSON.stringify({ reference: ref, ours }, null, 1).slice(0, 6000));
    report.push({ case: c.name, verdict, diffs, reasons, reference: ref, ours });
  }
  if (formatCases.length) await closeFormatSides();
  await site?.close();
  console.log('\nDeliberate differences (docs/tools.md):');
  for (const d of DELIBERATE)
    console.log(
      `  ${d.cases}${d.tools ? ` [${d.tools.join(', ')}]` : ''}${d.aspect ? ` (${d.aspect})` : ''}: ${d.reason}`,
    );
  console.log(
    `\n${cases.length + formatCases.length} cases: ${agree} agree, ${deliberate} deliberate differences, ${unexpected} unexpected differences`,
  );
  if (jsonFile) await writeFile(jsonFile, JSON.stringify(report, null, 1));
  // Exit explicitly: the in-process runner's worker deps keep handles open.
  process.exit(unexpected > 0 ? 1 : 0);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`test:reference: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  });
}
