// Subagent definitions: the built-in general-purpose agent and the reference's agent files
// (`.claude/agents/*.md` in the project, `~/.claude/agents/*.md` for the user): YAML frontmatter
// (`name`, `description`, `tools`, `model`, …) and a body that is the agent's system prompt.
// Parsing is pure; loading reads the two directories. A malformed file fails loudly, naming the
// file and the key (nothing is silently ignored).
import { DurableAgentError } from '../core/errors';
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { readConfigFileSync } from '../permissions/configRead';

/** What a session carries about one agent type (plain data: it travels in the session input). */
export interface AgentDefinition {
  name: string;
  description: string;
  /** Tool names the agent may use; absent = every tool of the parent session (but Agent). */
  tools?: string[];
  /** Tools taken away from the inherited or listed set. */
  disallowedTools?: string[];
  /** `sonnet` | `opus` | `haiku` | `inherit` | a full model id; absent = inherit. */
  model?: string;
  /** The child session's turn limit (default: the parent's). */
  maxTurns?: number;
  systemPrompt: string;
  /** `built-in`, or the file it came from. */
  source: string;
}

export class AgentDefinitionError extends DurableAgentError {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super('AGENT_DEFINITION', `${file}: ${message}`);
  }
}

export const GENERAL_PURPOSE_AGENT: AgentDefinition = {
  name: 'general-purpose',
  description:
    'General-purpose agent for researching complex questions, searching for code, and executing multi-step tasks. When you are searching for a keyword or file and are not confident that you will find the right match in the first few tries, use this agent to perform the search for you.',
  systemPrompt: [
    'You are an agent run by durable-agent on behalf of another agent. Given the task in the user message, use the tools available to complete it fully — do not gold-plate, but do not leave it half-done.',
    'When you are done, answer with a concise report: what you found or did, with the relevant file paths. Your final message is returned to the agent that started you; it does not see your tool calls.',
  ].join('\n'),
  source: 'built-in',
};

/** What the read-only built-in agents may not use: the tools that change files, and Agent itself. */
const READ_ONLY_AGENT_DISALLOWED = ['Agent', 'Edit', 'Write', 'NotebookEdit'];

/**
 * The reference's read-only search agent (2.1.328: every tool of the parent but the ones that
 * change files; the parent's model). Bash stays, as in the reference: its prompt keeps it to
 * read-only commands, and the session's permission mode and sandbox still decide each command.
 */
export const EXPLORE_AGENT: AgentDefinition = {
  name: 'Explore',
  description:
    'Read-only agent for searching a codebase widely: finding files by pattern, searching their contents, reading the relevant parts and answering a question about them. It cannot change files. Say how thorough it should be ("quick", "medium" or "very thorough").',
  disallowedTools: READ_ONLY_AGENT_DISALLOWED,
  systemPrompt: [
    'You are a read-only search agent run by durable-agent on behalf of another agent. Find what the task in the user message asks for: locate files by pattern, search their contents, read the parts that matter.',
    'You must not change anything: no new, edited, moved or deleted files (temporary files included), no redirections into files, no commands that change the state of the system. You have no file-editing tools; use Bash only for read-only commands (ls, find, grep, git log, git diff, cat).',
    'Search broadly first, then narrow down; run independent searches in parallel. Finish with a concise report: what you found, with absolute file paths and the relevant lines. Your final message is returned to the agent that started you.',
  ].join('\n'),
  source: 'built-in',
};

/** The reference's planning agent: read-only like Explore; it returns an implementation plan. */
export const PLAN_AGENT: AgentDefinition = {
  name: 'Plan',
  description:
    'Read-only software architect agent: explores the code and returns a step-by-step implementation plan for a task, with the files that matter and the trade-offs. It cannot change files.',
  disallowedTools: READ_ONLY_AGENT_DISALLOWED,
  systemPrompt: [
    'You are a read-only planning agent run by durable-agent on behalf of another agent. Study the code the task in the user message concerns and design how to implement it.',
    'You must not change anything: no new, edited, moved or deleted files, no redirections into files, no commands that change the state of the system. You have no file-editing tools; use Bash only for read-only commands.',
    'Answer with a plan: the steps in order, the files to change and why, what to watch out for (trade-offs, risks, tests to run). End with the few files most critical to the plan, as absolute paths.',
  ].join('\n'),
  source: 'built-in',
};

/** The built-in agent types, in the order the Agent tool lists them; an agent file of the same name replaces one. */
export const BUILT_IN_AGENTS: readonly AgentDefinition[] = [GENERAL_PURPOSE_AGENT, EXPLORE_AGENT, PLAN_AGENT];

/** The agent types a session offers (general-purpose when the session carries none). */
export function sessionAgents(agents: readonly AgentDefinition[] | undefined): readonly AgentDefinition[] {
  return agents && agents.length > 0 ? agents : [GENERAL_PURPOSE_AGENT];
}

/** The agent type an Agent call names (general-purpose when it names none). */
export function agentTypeOf(input: { subagent_type?: string | undefined }): string {
  return input.subagent_type ?? GENERAL_PURPOSE_AGENT.name;
}

/** Keys of the reference's frontmatter this runner honours. `color` is display-only (accepted, no effect). */
const SUPPORTED_KEYS = new Set(['name', 'description', 'tools', 'disallowedTools', 'model', 'maxTurns', 'color']);
/** Keys the reference knows that durable-agent does not implement: refused, not ignored. */
const UNSUPPORTED_KEYS = new Set([
  'permissionMode',
  'hooks',
  'skills',
  'mcpServers',
  'memory',
  'background',
  'isolation',
  'effort',
  'initialPrompt',
]);
const MODEL_ALIASES = new Set(['sonnet', 'opus', 'haiku', 'fable', 'inherit']);

function unquote(v: string): string {
  const t = v.trim();
  if (t.length >= 2 && ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'")))) {
    if (t.startsWith('"')) {
      try {
        return JSON.parse(t) as string;
      } catch {
        return t.slice(1, -1);
      }
    }
    return t.slice(1, -1).replace(/''/g, "'");
  }
  return t;
}

/** The frontmatter as key → raw value (string, or a list from a `- item` block or `[a, b]`). */
function frontmatter(file: string, text: string): { fields: Map<string, string | string[]>; body: string } {
  return parseFrontmatter(text, (message) => new AgentDefinitionError(file, message));
}

/**
 * The frontmatter of a Markdown control file (an agent or a skill) as key → raw value; `fail`
 * makes the error naming the file. The file must start with a `---` block.
 */
export function parseFrontmatter(
  text: string,
  fail: (message: string) => Error,
): { fields: Map<string, string | string[]>; body: string; rawBody: string } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') throw fail('the file must start with a "---" frontmatter block (name, description)');
  const end = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
  if (end < 0) throw fail('the frontmatter block is not closed by a "---" line');
  const fields = new Map<string, string | string[]>();
  let i = 1;
  while (i < end) {
    const line = lines[i] as string;
    i++;
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const m = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:(.*)$/.exec(line);
    if (!m) throw fail(`line ${i}: expected "key: value", got ${JSON.stringify(line.slice(0, 80))}`);
    const key = m[1] as string;
    const raw = (m[2] as string).trim();
    if (fields.has(key)) throw fail(`key "${key}" appears twice`);
    // Block scalars (| and >) and lists continue on indented lines.
    const more: string[] = [];
    while (i < end && (/^\s+\S/.test(lines[i] as string) || (lines[i] as string).trim() === '')) {
      more.push(lines[i] as string);
      i++;
    }
    const cont = more.map((l) => l.trim());
    if (raw === '|' || raw === '>' || raw === '|-' || raw === '>-') {
      fields.set(key, raw.startsWith('|') ? cont.join('\n').trim() : cont.filter((l) => l !== '').join(' '));
    } else if (raw === '' && cont.some((l) => l.startsWith('- '))) {
      const items = cont.filter((l) => l !== '');
      const bad = items.find((l) => !l.startsWith('- '));
      if (bad) throw fail(`key "${key}": expected a list of "- item" lines, got ${JSON.stringify(bad)}`);
      fields.set(
        key,
        items.map((l) => unquote(l.slice(2))),
      );
    } else if (raw.startsWith('[')) {
      const all = [raw, ...cont].join(' ').trim();
      if (!all.endsWith(']')) throw fail(`key "${key}": the list is not closed by "]"`);
      fields.set(
        key,
        all
          .slice(1, -1)
          .split(',')
          .map(unquote)
          .filter((s) => s !== ''),
      );
    } else {
      fields.set(key, unquote([raw, ...cont].join(' ').trim()));
    }
  }
  const rawBody = lines.slice(end + 1).join('\n');
  return { fields, body: rawBody.trim(), rawBody };
}

function toolList(file: string, key: string, v: string | string[]): string[] {
  const items = (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  for (const t of items) {
    if (!/^[A-Za-z_*][A-Za-z0-9_*-]*(\(.*\))?$/.test(t))
      throw new AgentDefinitionError(file, `key "${key}": ${JSON.stringify(t)} is not a tool name`);
    if (t.includes('('))
      throw new AgentDefinitionError(
        file,
        `key "${key}": ${JSON.stringify(t)}: tool patterns with arguments are not supported in agent files (use permission rules)`,
      );
  }
  return items;
}

/** Parses one agent file. Throws AgentDefinitionError naming the file and the key. */
export function parseAgentDefinition(file: string, text: string): AgentDefinition {
  const { fields, body } = frontmatter(file, text);
  for (const key of fields.keys()) {
    if (UNSUPPORTED_KEYS.has(key))
      throw new AgentDefinitionError(
        file,
        `frontmatter key "${key}" is not supported by durable-agent (supported: ${[...SUPPORTED_KEYS].join(', ')})`,
      );
    if (!SUPPORTED_KEYS.has(key))
      throw new AgentDefinitionError(
        file,
        `unknown frontmatter key "${key}" (supported: ${[...SUPPORTED_KEYS].join(', ')})`,
      );
  }
  const str = (key: string): string | undefined => {
    const v = fields.get(key);
    if (v === undefined) return undefined;
    if (Array.isArray(v)) throw new AgentDefinitionError(file, `key "${key}" must be a string, not a list`);
    return v;
  };
  const name = str('name')?.trim();
  if (!name) throw new AgentDefinitionError(file, 'frontmatter key "name" is required');
  // The reference takes any name (spaces included: `subagent_type: "Code Reviewer"`); the name is
  // only matched against subagent_type, never used in an id, so only line breaks are refused.
  if (/[\r\n\u0000-\u001f]/.test(name))
    throw new AgentDefinitionError(file, `key "name": ${JSON.stringify(name)} must be one line of text`);
  const description = str('description');
  if (!description) throw new AgentDefinitionError(file, 'frontmatter key "description" is required');
  // An empty body is valid (the reference runs such an agent with its default notes only).
  const def: AgentDefinition = {
    name,
    description: description.replace(/\\n/g, '\n'),
    systemPrompt: body,
    source: file,
  };
  const tools = fields.get('tools');
  if (tools !== undefined) {
    const list = toolList(file, 'tools', tools);
    // `*` (or no key) means every tool of the parent.
    if (!(list.length === 1 && list[0] === '*')) def.tools = list;
  }
  const disallowed = fields.get('disallowedTools');
  if (disallowed !== undefined) def.disallowedTools = toolList(file, 'disallowedTools', disallowed);
  const rawModel = str('model')?.trim();
  if (rawModel !== undefined) {
    // Aliases in any case (`Sonnet`), as the reference reads them; any other id goes to the API as
    // written (a Bedrock/Vertex id or a proxy's model name), as the reference sends it.
    const model = MODEL_ALIASES.has(rawModel.toLowerCase()) ? rawModel.toLowerCase() : rawModel;
    if (model === '' || /\s/.test(model)) {
      throw new AgentDefinitionError(
        file,
        `key "model": ${JSON.stringify(rawModel)} is not sonnet, opus, haiku, inherit or a model id`,
      );
    }
    if (model !== 'inherit') def.model = model;
  }
  const maxTurns = str('maxTurns');
  if (maxTurns !== undefined) {
    const n = Number(maxTurns);
    if (!Number.isInteger(n) || n < 1)
      throw new AgentDefinitionError(file, `key "maxTurns": ${JSON.stringify(maxTurns)} is not a positive integer`);
    def.maxTurns = n;
  }
  return def;
}

/** The `.md` files under dir, subfolders included (the reference reads `agents/team/x.md` too), sorted. */
async function agentFiles(dir: string, depth = 0): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw e;
  }
  const out: string[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = join(dir, e.name);
    let isDir = e.isDirectory();
    let isFile = e.isFile();
    if (e.isSymbolicLink()) {
      const st = await stat(full).catch(() => undefined);
      isDir = st?.isDirectory() ?? false;
      isFile = st?.isFile() ?? false;
    }
    // A depth cap rather than a visited set: a symlinked folder loop ends here.
    if (isDir && !e.name.startsWith('.') && depth < 8) out.push(...(await agentFiles(full, depth + 1)));
    else if (isFile && e.name.endsWith('.md')) out.push(full);
  }
  return out;
}

/** `within`: a project's directory, which its agent files must really lie in (src/permissions/configRead.ts). */
async function loadDir(dir: string, within?: string): Promise<AgentDefinition[]> {
  const out: AgentDefinition[] = [];
  const seen = new Map<string, string>();
  for (const file of await agentFiles(dir)) {
    // Its body becomes a system prompt: never from a credential file, never from outside the project.
    const read = readConfigFileSync(file, within ? { within: [within] } : {});
    if ('missing' in read) continue;
    if ('refused' in read) throw new AgentDefinitionError(file, `not read: ${read.refused}`);
    const def = parseAgentDefinition(file, read.text);
    const prev = seen.get(def.name);
    if (prev) throw new AgentDefinitionError(file, `agent name "${def.name}" is already defined by ${prev}`);
    seen.set(def.name, file);
    out.push(def);
  }
  return out;
}

/**
 * The agents a session may start: the built-in ones (general-purpose, Explore, Plan), then the user's (`~/.claude/agents`, or
 * `$CLAUDE_CONFIG_DIR/agents` as the reference reads it), then the
 * project's (`<cwd>/.claude/agents`); a project agent replaces a user or built-in one of the same name.
 */
export async function loadAgentDefinitions(
  cwd: string,
  userConfigDir: string = process.env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude'),
): Promise<AgentDefinition[]> {
  const byName = new Map<string, AgentDefinition>(BUILT_IN_AGENTS.map((a) => [a.name, a]));
  const userDir = join(userConfigDir, 'agents');
  const projectDir = join(cwd, '.claude', 'agents');
  for (const def of await loadDir(userDir)) byName.set(def.name, def);
  if (projectDir !== userDir) for (const def of await loadDir(projectDir, resolve(cwd))) byName.set(def.name, def);
  return [...byName.values()];
}

/**
 * The agents a session offers the model: those no deny rule `Agent(<name>)` (or `Task(<name>)`)
 * turns off, as the reference hides them; a call naming one anyway is denied by that rule.
 */
export function agentsNotDenied(agents: readonly AgentDefinition[], denyRules: readonly string[]): AgentDefinition[] {
  const denied = new Set<string>();
  for (const text of denyRules) {
    const m = /^\s*(Agent|Task)\((.*)\)\s*$/.exec(text);
    if (m) denied.add((m[2] as string).trim());
  }
  return agents.filter((a) => !denied.has(a.name));
}

/**
 * The model ids Claude Code 2.1.197 sends for its aliases (captured from its requests to the fake
 * Messages API); each may be overridden by the reference's environment variable.
 */
export const MODEL_ALIAS_IDS: Readonly<Record<string, readonly [envVar: string, id: string]>> = {
  sonnet: ['ANTHROPIC_DEFAULT_SONNET_MODEL', 'claude-sonnet-5'],
  opus: ['ANTHROPIC_DEFAULT_OPUS_MODEL', 'claude-opus-4-8'],
  haiku: ['ANTHROPIC_DEFAULT_HAIKU_MODEL', 'claude-haiku-4-5-20251001'],
  // The reference's 2.1.328 default for its `fable` alias (its model table in the binary).
  fable: ['ANTHROPIC_DEFAULT_FABLE_MODEL', 'claude-fable-5-2'],
};

/** The full model id for an agent's `model` (an alias as the reference maps it; env overrides as the reference's). */
export function resolveAgentModel(
  model: string | undefined,
  parentModel: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (!model || model === 'inherit') return parentModel;
  const table = MODEL_ALIAS_IDS;
  const entry = table[model];
  if (!entry) return model;
  return env[entry[0]] || entry[1];
}

/**
 * The tools of a child session: the agent's list (or all of the parent's) within the parent's,
 * never Agent itself. MCP names the agent lists (`mcp__server__tool`, `mcp__server`) stay in the
 * list: they restrict the child to those MCP tools (restrictMcpTools); an agent without `tools`
 * gets every MCP tool of the parent's servers.
 */
export function subagentTools(
  def: AgentDefinition,
  parentTools: readonly string[],
  agentToolNames: readonly string[],
): { tools: string[]; dropped: string[] } {
  // Skill stays with the parent: a child session carries no skills (docs/tools.md).
  const own = new Set([...agentToolNames, 'Skill']);
  const allowed = parentTools.filter((t) => !own.has(t));
  const wanted = def.tools ?? allowed;
  const disallowed = def.disallowedTools ?? [];
  const tools = wanted.filter((t) => (allowed.includes(t) || t.startsWith('mcp__')) && !disallowed.includes(t));
  // MCP tools come with the parent's servers (not in its tool names).
  const dropped = wanted.filter((t) => !allowed.includes(t) && !t.startsWith('mcp__'));
  return { tools: [...new Set(tools)], dropped };
}

/** An agent's `disallowedTools` MCP names, as deny rules of the child (they cover MCP tools it would otherwise inherit). */
export function disallowedMcpRules(def: AgentDefinition): string[] {
  return (def.disallowedTools ?? []).filter((t) => t.startsWith('mcp__'));
}
