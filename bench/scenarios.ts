// The bench's scripted model: one fake Messages API serves every scenario; the first user message
// ("bench:<scenario>:<run>") says which script answers. Turn n = assistant messages so far + 1.
import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { textResponse, toolUseResponse, type MessagesRequest } from '../src/testing/fakeAnthropic';
import type { MessageSpec, ResponseSpec } from '../src/testing/fakeAnthropic/types';
import { SLEEP_TOOL_NAME } from './sleepTool';

export type Script = (turn: number, req: MessagesRequest) => ResponseSpec;

export function firstUserText(req: MessagesRequest): string {
  const first = req.messages.find((m) => m.role === 'user');
  if (!first) return '';
  if (typeof first.content === 'string') return first.content;
  return first.content.map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('');
}

/** Routes each request to the script its session was started with (prompt `bench:<key>`). */
export class ScriptBook {
  private scripts = new Map<string, Script>();
  add(key: string, script: Script): string {
    this.scripts.set(key, script);
    return `bench:${key}`;
  }
  answer(req: MessagesRequest): ResponseSpec {
    const text = firstUserText(req);
    const key = /bench:(\S+)/.exec(text)?.[1];
    const script = key ? this.scripts.get(key) : undefined;
    if (!script) return textResponse(`no bench script for ${JSON.stringify(text.slice(0, 60))}`);
    const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
    return script(turn, req);
  }
}

/** N turns of three parallel Reads, then a text answer (the overhead-per-turn script). */
export function readsScript(turns: number, files: string[]): Script {
  return (turn) =>
    turn > turns
      ? textResponse('done')
      : toolUseResponse(files.map((f, i) => ({ id: `toolu_r${turn}_${i}`, name: 'Read', input: { file_path: f } })));
}

/** N turns of `k` Writes each (Write is not concurrency-safe: each call is its own batch). */
export function writesScript(turns: number, k: number, dir: string): Script {
  return (turn) =>
    turn > turns
      ? textResponse('done')
      : toolUseResponse(
          Array.from({ length: k }, (_, i) => ({
            id: `toolu_w${turn}_${i}`,
            name: 'Write',
            input: { file_path: join(dir, `w${turn}_${i}.txt`), content: `turn ${turn} call ${i}\n` },
          })),
        );
}

/** One turn of `n` parallel sleeps of `ms` (the batch row). */
export function batchScript(n: number, ms: number): Script {
  return (turn) =>
    turn > 1
      ? textResponse('done')
      : toolUseResponse(
          Array.from({ length: n }, (_, i) => ({ id: `toolu_s${i}`, name: SLEEP_TOOL_NAME, input: { ms } })),
        );
}

/** Deterministic pseudo-random numbers (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Pace {
  /** Time to first token range (ms). */
  ttftMs: [number, number];
  tokensPerSecond: number;
}

export const REALISTIC_PACE: Pace = { ttftMs: [300, 600], tokensPerSecond: 60 };

/** Streams `spec` at `pace`: one ≈4-character token per event. */
export function paced(spec: MessageSpec, pace: Pace, random: () => number): MessageSpec {
  const [lo, hi] = pace.ttftMs;
  return {
    ...spec,
    latencyMs: Math.round(lo + (hi - lo) * random()),
    delayMs: Math.round(1000 / pace.tokensPerSecond),
    textChunkSize: 4,
    jsonChunkSize: 4,
  };
}

const WORDS =
  'the turn reads the files it needs then changes what the task asks and checks the result before it answers'.split(
    ' ',
  );
function prose(tokens: number, random: () => number): string {
  const out: string[] = [];
  while (out.join(' ').length < tokens * 4) out.push(WORDS[Math.floor(random() * WORDS.length)]!);
  return `${out.join(' ')}.`;
}

function listTs(dir: string, root = dir): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...listTs(p, root));
    else if (e.name.endsWith('.ts')) out.push(relative(root, p));
  }
  return out.sort();
}

/** A copy of a real source tree for the realistic session (each run edits its own copy). */
export function copyTree(from: string, to: string): string {
  mkdirSync(to, { recursive: true });
  cpSync(from, join(to, 'src'), { recursive: true });
  writeFileSync(join(to, 'NOTES.md'), '# Notes\n');
  return to;
}

/**
 * 20 turns on a copy of a source tree mixing Glob, Grep, Read, Edit and Bash; the model streams at
 * `pace` (text before the calls, the calls' JSON). The plan is fixed by the tree and the seed, so
 * the in-process and Temporal runs see the same messages.
 */
export function realisticScript(tree: string, pace: Pace, seed = 7, turns = 20): Script {
  const files = listTs(join(tree, 'src'));
  const pick = (k: number): string => join(tree, 'src', files[(k * 37) % files.length]!);
  const random = rng(seed);
  const edited = new Set<string>();
  const plan: Array<() => MessageSpec> = [];
  for (let t = 1; t < turns; t++) {
    const kind = t % 5;
    plan.push(() => {
      const text = prose(20 + Math.floor(random() * 40), random);
      const id = (i: number): string => `toolu_x${t}_${i}`;
      switch (kind) {
        case 1:
          return toolUseResponse(
            [
              { id: id(0), name: 'Glob', input: { pattern: '**/*.ts', path: join(tree, 'src') } },
              { id: id(1), name: 'Read', input: { file_path: pick(t) } },
            ],
            { text },
          );
        case 2:
          return toolUseResponse(
            [
              {
                id: id(0),
                name: 'Grep',
                input: {
                  pattern: 'export (async )?function',
                  path: join(tree, 'src'),
                  output_mode: 'files_with_matches',
                },
              },
              { id: id(1), name: 'Read', input: { file_path: pick(t + 1) } },
              { id: id(2), name: 'Read', input: { file_path: pick(t + 2) } },
            ],
            { text },
          );
        case 3: {
          // Edit the file read in the previous turn: its first line is replaced by itself plus a marker.
          const file = pick(t + 1);
          const first = readFileSync(file, 'utf8').split('\n')[0] ?? '';
          const marker = edited.has(file) ? ` (edited again ${t})` : ` (edited ${t})`;
          edited.add(file);
          return first.trim()
            ? toolUseResponse(
                [
                  {
                    id: id(0),
                    name: 'Edit',
                    input: { file_path: file, old_string: first, new_string: first + marker },
                  },
                ],
                { text },
              )
            : toolUseResponse([{ id: id(0), name: 'Read', input: { file_path: file } }], { text });
        }
        case 4:
          return toolUseResponse(
            [
              {
                id: id(0),
                name: 'Bash',
                input: {
                  command: `wc -l src/core/*.ts | tail -1 && grep -c import src/temporal/worker.ts`,
                  description: 'Count lines',
                },
              },
            ],
            { text },
          );
        default:
          return toolUseResponse(
            [
              {
                id: id(0),
                name: 'Grep',
                input: { pattern: 'TODO|FIXME', path: join(tree, 'src'), output_mode: 'count' },
              },
              { id: id(1), name: 'Glob', input: { pattern: 'engine/*.ts', path: join(tree, 'src') } },
            ],
            { text },
          );
      }
    });
  }
  const cache = new Map<number, MessageSpec>();
  return (turn) => {
    let spec = cache.get(turn);
    if (!spec) {
      spec = paced(turn <= plan.length ? plan[turn - 1]!() : textResponse(prose(60, random)), pace, random);
      cache.set(turn, spec);
    }
    return spec;
  };
}

/**
 * Streaming execution: each turn's message streams `blocks` safe calls over ~2.5 s (some text
 * before each), the first calls the slowest — the case the reference's streaming executor wins.
 */
export function streamingScript(turns: number, blocks = 5, streamMs = 2500): Script {
  return (turn) => {
    if (turn > turns) return textResponse('done');
    const content: MessageSpec['content'] = [];
    for (let i = 0; i < blocks; i++) {
      content.push({ type: 'text', text: `Step ${i + 1}: looking at part ${i + 1} of the code base now.` });
      content.push({
        type: 'tool_use',
        id: `toolu_st${turn}_${i}`,
        name: SLEEP_TOOL_NAME,
        input: { ms: (blocks - i) * Math.round(streamMs / blocks) },
      });
    }
    // Events: per block ~1 start + text pieces + stop, tool start + json pieces + stop; spread evenly.
    const spec: MessageSpec = { content, textChunkSize: 6, jsonChunkSize: 4 };
    const events = content.reduce(
      (n, b) =>
        n +
        2 +
        (b.type === 'text'
          ? Math.ceil(b.text.length / 6)
          : 1 + Math.ceil(JSON.stringify(b.type === 'tool_use' ? b.input : '').length / 4)),
      4,
    );
    return { ...spec, latencyMs: 300, delayMs: Math.max(1, Math.round(streamMs / events)) };
  };
}
