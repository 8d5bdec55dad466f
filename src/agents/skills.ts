// Skills: `.claude/skills/<name>/SKILL.md` in the project and `~/.claude/skills/<name>/SKILL.md`
// for the user (`$CLAUDE_CONFIG_DIR/skills` as the reference reads it). A skill is a Markdown file
// with optional YAML frontmatter; the model loads its body with the Skill tool. Read once, at the
// session's start, at the edge (client, CLI, in-process runner): the definitions travel in the
// session input as data. A malformed file fails loudly, naming the file and the key (invariant 12).
// The skill files are control files: `.claude/` is out of the agent's write reach (invariant 13,
// src/permissions/protectedPaths.ts and the sandbox's deny list).
import { DurableAgentError } from '../core/errors';
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { readConfigFileSync } from '../permissions/configRead';
import { parseFrontmatter, resolveAgentModel } from './definitions';

/** What a session carries about one skill (plain data: it travels in the session input). */
export interface SkillDefinition {
  /** The directory's name: what the Skill tool's `skill` names. */
  name: string;
  /** What the listing says (frontmatter `description`, else the body's first line). */
  description: string;
  whenToUse?: string;
  argumentHint?: string;
  /** Names of positional arguments (`arguments`): `$<name>` in the body takes the n-th argument. */
  argumentNames?: string[];
  /** Permission rules allowed once the skill is loaded (`allowed-tools`), e.g. `Bash(git status:*)`. */
  allowedTools?: string[];
  /** The model the session uses once the skill is loaded: an alias (`haiku`) or a model id; absent = unchanged. */
  model?: string;
  /** `disable-model-invocation: true`: only a user may run it; the model neither sees it listed nor may call it. */
  disableModelInvocation?: boolean;
  /** The SKILL.md body after the frontmatter, as written. */
  body: string;
  /** The skill's directory (absolute): `Base directory for this skill`, `${CLAUDE_SKILL_DIR}`. */
  dir: string;
  /** `project` or `user`. */
  scope: 'project' | 'user';
  /** The SKILL.md file it came from. */
  source: string;
}

export class SkillDefinitionError extends DurableAgentError {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super('SKILL_DEFINITION', `${file}: ${message}`);
  }
}

/** Keys this runner honours. */
const SUPPORTED_KEYS = new Set([
  'name',
  'description',
  'when_to_use',
  'argument-hint',
  'arguments',
  'allowed-tools',
  'model',
  'disable-model-invocation',
  // No slash-command menu here: a user-invocable skill and a hidden one behave alike (accepted, no effect).
  'user-invocable',
  // Informational (the Agent Skills format): accepted, no effect.
  'version',
  'license',
  'compatibility',
  'metadata',
]);
/** Keys the reference knows that durable-agent does not implement: refused, not ignored. */
const UNSUPPORTED_KEYS = new Set([
  'hooks',
  'context',
  'agent',
  'effort',
  'shell',
  'paths',
  'background',
  'disallowed-tools',
  'fallback',
]);
/** The longest SKILL.md read (the reference refuses one above 1 MB; the body travels in the session input here). */
export const MAX_SKILL_CHARS = 100_000;
/** All skill bodies of a session together: they travel inline in its start event (and each continue-as-new), so they stay as small as the largest prompt (MAX_MESSAGE_CHARS). */
export const MAX_SKILLS_TOTAL_CHARS = 256 * 1024;
/** A listing line's description is cut here (the reference caps its listing too). */
const LISTING_DESCRIPTION_CHARS = 250;
/** Skill names: a directory name the Skill tool can name (no path separators, no spaces). */
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The body's first non-empty line (a heading's text), as the reference describes a skill without `description`. */
function firstLine(body: string): string {
  for (const line of body.split('\n')) {
    const t = line.trim();
    if (!t) continue;
    const text = /^#+\s+(\S.*)$/.exec(t)?.[1] ?? t;
    return text.length > 100 ? `${text.slice(0, 97)}...` : text;
  }
  return 'Skill';
}

function bool(file: string, key: string, v: string): boolean {
  const t = v.trim().toLowerCase();
  if (t === 'true' || t === 'yes' || t === 'on' || t === '1') return true;
  if (t === 'false' || t === 'no' || t === 'off' || t === '0') return false;
  throw new SkillDefinitionError(file, `key "${key}": ${JSON.stringify(v)} is not true or false`);
}

/** `allowed-tools` as rule strings: a list, or one string of comma- or space-separated rules (parentheses kept together). */
function ruleList(file: string, v: string | string[]): string[] {
  const items: string[] = [];
  for (const part of Array.isArray(v) ? v : [v]) {
    let depth = 0;
    let cur = '';
    for (const ch of part) {
      if (ch === '(') depth++;
      if (ch === ')') depth = Math.max(0, depth - 1);
      if (depth === 0 && (ch === ',' || (/\s/.test(ch) && !Array.isArray(v)))) {
        if (cur.trim()) items.push(cur.trim());
        cur = '';
        continue;
      }
      cur += ch;
    }
    if (cur.trim()) items.push(cur.trim());
  }
  for (const r of items) {
    if (!/^[A-Za-z_][A-Za-z0-9_-]*(\(.*\))?$/.test(r))
      throw new SkillDefinitionError(
        file,
        `key "allowed-tools": ${JSON.stringify(r)} is not a permission rule (Tool or Tool(specifier))`,
      );
  }
  return [...new Set(items)];
}

/**
 * Parses one SKILL.md of the skill directory `dir` (its name is the skill's name). Throws
 * SkillDefinitionError naming the file and the key.
 */
export function parseSkill(file: string, text: string, dir: string, scope: SkillDefinition['scope']): SkillDefinition {
  const name = dir.split(/[\\/]/).filter(Boolean).pop() ?? '';
  if (!NAME_RE.test(name))
    throw new SkillDefinitionError(
      file,
      `the skill's directory name ${JSON.stringify(name)} is not a skill name (letters, digits, ".", "_", "-"; at most 64)`,
    );
  if (text.length > MAX_SKILL_CHARS)
    throw new SkillDefinitionError(file, `${text.length} characters; a SKILL.md may have at most ${MAX_SKILL_CHARS}`);
  const fail = (message: string) => new SkillDefinitionError(file, message);
  // No frontmatter at all: a valid skill (the reference describes it by its first line).
  const hasFrontmatter =
    text
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/, 1)[0]
      ?.trim() === '---';
  const { fields, rawBody } = hasFrontmatter
    ? parseFrontmatter(text, fail)
    : { fields: new Map<string, string | string[]>(), rawBody: text.replace(/^\uFEFF/, '') };
  for (const key of fields.keys()) {
    if (UNSUPPORTED_KEYS.has(key))
      throw fail(
        `frontmatter key "${key}" is not supported by durable-agent (supported: ${[...SUPPORTED_KEYS].join(', ')})`,
      );
    if (!SUPPORTED_KEYS.has(key))
      throw fail(`unknown frontmatter key "${key}" (supported: ${[...SUPPORTED_KEYS].join(', ')})`);
  }
  const str = (key: string): string | undefined => {
    const v = fields.get(key);
    if (v === undefined) return undefined;
    if (Array.isArray(v)) throw fail(`key "${key}" must be a string, not a list`);
    return v;
  };
  const declared = str('name')?.trim();
  if (declared !== undefined && declared !== name)
    throw fail(
      `key "name": ${JSON.stringify(declared)} differs from the skill's directory name ${JSON.stringify(name)} (the Skill tool names a skill by its directory)`,
    );
  const description = str('description')?.trim();
  if (description === '') throw fail('key "description" is empty');
  const def: SkillDefinition = {
    name,
    description: description ?? firstLine(rawBody),
    body: rawBody,
    dir,
    scope,
    source: file,
  };
  const whenToUse = str('when_to_use')?.trim();
  if (whenToUse) def.whenToUse = whenToUse;
  const hint = str('argument-hint')?.trim();
  if (hint) def.argumentHint = hint;
  const args = fields.get('arguments');
  if (args !== undefined) {
    const names = (Array.isArray(args) ? args : args.split(/[\s,]+/)).map((a) => a.trim()).filter(Boolean);
    for (const a of names)
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(a))
        throw fail(`key "arguments": ${JSON.stringify(a)} is not an argument name (letters, digits, "_")`);
    if (names.length > 0) def.argumentNames = names;
  }
  const allowed = fields.get('allowed-tools');
  if (allowed !== undefined) {
    const rules = ruleList(file, allowed);
    if (rules.length > 0) def.allowedTools = rules;
  }
  const model = str('model')?.trim();
  if (model !== undefined) {
    if (model === '' || /\s/.test(model))
      throw fail(`key "model": ${JSON.stringify(model)} is not sonnet, opus, haiku, fable, inherit or a model id`);
    const lower = model.toLowerCase();
    const alias = ['sonnet', 'opus', 'haiku', 'fable', 'inherit'].includes(lower) ? lower : model;
    if (alias !== 'inherit') def.model = alias;
  }
  const dmi = str('disable-model-invocation');
  if (dmi !== undefined && bool(file, 'disable-model-invocation', dmi)) def.disableModelInvocation = true;
  const ui = str('user-invocable');
  if (ui !== undefined) bool(file, 'user-invocable', ui);
  return def;
}

/** The `<name>/SKILL.md` files of a skills directory (a symlinked skill directory counts), sorted by name. */
function skillFiles(dir: string): Array<{ dir: string; file: string }> {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw e;
  }
  const out: Array<{ dir: string; file: string }> = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (e.name.startsWith('.')) continue;
    const full = join(dir, e.name);
    const isDir = e.isDirectory() || (e.isSymbolicLink() && statSync(full, { throwIfNoEntry: false })?.isDirectory());
    if (isDir) out.push({ dir: full, file: join(full, 'SKILL.md') });
  }
  return out;
}

function loadScope(dir: string, scope: SkillDefinition['scope'], within?: string): SkillDefinition[] {
  const out: SkillDefinition[] = [];
  for (const { dir: skillDir, file } of skillFiles(dir)) {
    // Its body goes to the model: never from a credential file, never from outside the project.
    const read = readConfigFileSync(file, within ? { within: [within] } : {});
    if ('missing' in read) continue; // a directory without SKILL.md (a helper folder) is not a skill
    if ('refused' in read) throw new SkillDefinitionError(file, `not read: ${read.refused}`);
    out.push(parseSkill(file, read.text, skillDir, scope));
  }
  return out;
}

/**
 * The session's skills: the user's (`~/.claude/skills`, or `$CLAUDE_CONFIG_DIR/skills`), then the
 * project's (`<cwd>/.claude/skills`). A user skill wins over a project skill of the same name, as in
 * the reference (captured from 2.1.328: it lists and loads the user's); the CLI's `skills:` line
 * names the file each skill came from.
 */
export function loadSkills(
  cwd: string,
  userConfigDir: string = process.env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude'),
): SkillDefinition[] {
  const byName = new Map<string, SkillDefinition>();
  const userDir = join(userConfigDir, 'skills');
  const projectDir = join(resolve(cwd), '.claude', 'skills');
  for (const s of loadScope(userDir, 'user')) byName.set(s.name, s);
  if (projectDir !== userDir)
    for (const s of loadScope(projectDir, 'project', resolve(cwd))) if (!byName.has(s.name)) byName.set(s.name, s);
  const skills = [...byName.values()];
  const total = skills.reduce((n, s) => n + s.body.length, 0);
  if (total > MAX_SKILLS_TOTAL_CHARS)
    throw new SkillDefinitionError(
      projectDir,
      `the skills' bodies add up to ${total} characters; a session may carry at most ${MAX_SKILLS_TOTAL_CHARS} (move material into files the skill tells the model to read)`,
    );
  return skills;
}

/** The skills the model may call (those without disable-model-invocation). */
export function modelSkills(skills: readonly SkillDefinition[] | undefined): SkillDefinition[] {
  return (skills ?? []).filter((s) => !s.disableModelInvocation);
}

/** The listing the model gets (a section added to the system prompt): one `- name: description` line per skill. */
export function skillListing(skills: readonly SkillDefinition[] | undefined): string | undefined {
  const listed = modelSkills(skills);
  if (listed.length === 0) return undefined;
  const line = (s: SkillDefinition): string => {
    const text = [s.description, s.whenToUse].filter(Boolean).join(' - ').replace(/\s+/g, ' ');
    return `- ${s.name}: ${text.length > LISTING_DESCRIPTION_CHARS ? `${text.slice(0, LISTING_DESCRIPTION_CHARS - 1)}…` : text}`;
  };
  return [
    'Skills you can load with the Skill tool (call it with the name when a task matches a description; the skill then tells you how to proceed):',
    '',
    ...listed.map(line),
  ].join('\n');
}

/** Splits a Skill call's `args` like a shell would into words (quotes group, backslash escapes). */
export function splitArguments(args: string): string[] {
  const out: string[] = [];
  let cur = '';
  let has = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < args.length; i++) {
    const ch = args[i] as string;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < args.length) cur += args[++i];
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (ch === '\\' && i + 1 < args.length) {
      cur += args[++i];
      has = true;
    } else if (/\s/.test(ch)) {
      if (has || cur) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += ch;
    }
  }
  if (has || cur) out.push(cur);
  return out;
}

const ESCAPED = '\u0000';

/**
 * The skill's body with its arguments filled in, as the reference fills them: `$<name>` (named in
 * `arguments`), `$ARGUMENTS[n]` and `$n` (0-based words of `args`; left as written when there is
 * no such word), `$ARGUMENTS` (the whole string); `\$` keeps a dollar. When the body names none
 * of them and `args` is not empty, `ARGUMENTS: <args>` is appended. `${CLAUDE_SKILL_DIR}` and
 * `${CLAUDE_SESSION_ID}` become the skill's directory and the session's id.
 */
export function substituteArguments(
  skill: Pick<SkillDefinition, 'body' | 'dir' | 'argumentNames'>,
  args: string | undefined,
  vars: { sessionId: string; projectDir?: string },
): string {
  let text = skill.body.split('${CLAUDE_SKILL_DIR}').join(skill.dir).split('${CLAUDE_SESSION_ID}').join(vars.sessionId);
  if (vars.projectDir) text = text.split('${CLAUDE_PROJECT_DIR}').join(vars.projectDir);
  const whole = args ?? '';
  const words = splitArguments(whole);
  // A replacement's own `$` must not be read again: protect it until the end.
  const protect = (s: string): string => s.replace(/\$/g, ESCAPED);
  let used = false;
  text = text.replace(/\\\$/g, ESCAPED);
  const names = [...(skill.argumentNames ?? [])].map((n, i) => ({ n, i })).sort((a, b) => b.n.length - a.n.length);
  for (const { n, i } of names)
    text = text.replace(new RegExp(`\\$${n}(?![\\[\\w])`, 'g'), () => {
      used = true;
      return protect(words[i] ?? '');
    });
  text = text.replace(/\$ARGUMENTS\[(\d+)\]/g, (all, d: string) => {
    const w = words[Number(d)];
    if (w === undefined) return protect(all);
    used = true;
    return protect(w);
  });
  text = text.replace(/\$(\d+)(?!\w)/g, (all, d: string) => {
    const w = words[Number(d)];
    if (w === undefined) return all;
    used = true;
    return protect(w);
  });
  text = text.replace(/\$ARGUMENTS/g, () => {
    used = true;
    return protect(whole);
  });
  if (!used && whole !== '') text += `\n\nARGUMENTS: ${protect(whole)}`;
  return text.split(ESCAPED).join('$');
}

/** The skill's `model` as a model id (an alias as the reference maps it), or undefined to keep the session's. */
export function skillModelId(skill: Pick<SkillDefinition, 'model'>, sessionModel: string): string | undefined {
  return skill.model ? resolveAgentModel(skill.model, sessionModel) : undefined;
}
