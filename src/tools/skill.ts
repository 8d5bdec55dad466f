// Skill: loads one of the session's skills (src/agents/skills.ts) into the conversation, as the
// reference does: the tool_result says `Launching skill: <name>` and the skill's text follows,
// `Base directory for this skill: <dir>` and the SKILL.md body with its arguments filled in. The
// reference sends that text as a block after the tool_result in the same user message; here it
// is the tool_result's second text block (the result travels by reference like every result;
// docs/tools.md). A skill's `allowed-tools` become allow rules for the rest of the session and
// its `model` the session's model, both as a context modifier (data, invariant 4), so the audit
// shows the Skill call that granted them.
import { z } from 'zod';
import { buildTool } from '../toolProtocol/Tool';
import { modelSkills, skillModelId, substituteArguments, type SkillDefinition } from '../agents/skills';

const inputSchema = z.strictObject({
  skill: z.string().describe('The skill\'s name, exactly as listed (a leading "/" is allowed).'),
  args: z.string().optional().describe('Arguments for the skill, as one string.'),
});

export type SkillInput = z.infer<typeof inputSchema>;

export interface SkillOutput {
  success: boolean;
  commandName: string;
  /** The rules the skill allows from now on (`allowed-tools`). */
  allowedTools?: string[];
  /** The model the session uses from now on (`model`), as written in the skill. */
  model?: string;
  /** The text the model gets after `Launching skill: <name>`. */
  text: string;
}

const SKILL_PROMPT = `Loads a skill: a set of instructions (and often scripts or reference files in its directory) for a particular kind of task. The skills this session has are listed in the system prompt with what each is for.

- When a task matches a skill's description, call this tool with the skill's name before doing the work yourself, then follow the instructions it returns.
- skill: the name exactly as listed (no leading slash needed). args: optional arguments, passed on as one string.
- Only listed skills exist. Do not call a skill again when its instructions are already in the conversation for this task.
- Some skills allow further tools without asking once loaded; a skill may also switch the model.`;

/** The name the call means: a leading `/` (as a user types it) is dropped. */
export function skillNameOf(input: Pick<SkillInput, 'skill'>): string {
  return input.skill.trim().replace(/^\//, '');
}

/** Levenshtein distance, for "did you mean". */
function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] as number;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] as number;
      prev[j] = Math.min(up + 1, (prev[j - 1] as number) + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length] as number;
}

function findSkill(skills: readonly SkillDefinition[] | undefined, name: string): SkillDefinition | undefined {
  return (skills ?? []).find((s) => s.name === name);
}

export const SkillTool = buildTool<SkillInput, SkillOutput>({
  name: 'Skill',
  inputSchema,
  prompt: () => SKILL_PROMPT,
  summary: (input) => `Skill ${skillNameOf(input)}${input.args ? ` ${input.args}` : ''}`,
  // Loading the same text again is harmless.
  isIdempotent: () => true,
  // Large enough for any SKILL.md the loader accepts (MAX_SKILL_CHARS) and its arguments: never stored with a preview.
  maxResultSizeChars: 400_000,
  getRuleContent: (input) => skillNameOf(input),
  async validateInput(input, ctx) {
    const name = skillNameOf(input);
    if (!name) return { result: false, message: 'Invalid skill format: the skill name is empty.', errorCode: 1 };
    const skill = findSkill(ctx.skills, name);
    if (!skill) {
      const near = modelSkills(ctx.skills)
        .map((s) => ({ s: s.name, d: distance(s.name.toLowerCase(), name.toLowerCase()) }))
        .filter((x) => x.d <= 2)
        .sort((a, b) => a.d - b.d)[0];
      return {
        result: false,
        message: `Unknown skill: ${name}.${near ? ` Did you mean ${near.s}?` : ''}`,
        errorCode: 2,
      };
    }
    if (skill.disableModelInvocation)
      return {
        result: false,
        message: `Skill ${name} cannot be used with the Skill tool: its disable-model-invocation is set, so only a user may run it. Do not carry out its workflow by other means.`,
        errorCode: 4,
      };
    return { result: true };
  },
  // A skill that only adds text runs without asking (as the reference); one that allows tools is
  // decided by the rules and the mode (`Skill(<name>)` allows it).
  async checkPermissions(input, ctx) {
    const skill = findSkill(ctx.skills, skillNameOf(input));
    if (skill?.allowedTools?.length) return { behavior: 'passthrough' };
    return {
      behavior: 'allow',
      decisionReason: { type: 'tool', reason: 'a skill that allows no tools only adds instructions' },
    };
  },
  async call(input, ctx) {
    const name = skillNameOf(input);
    const skill = findSkill(ctx.skills, name);
    if (!skill) throw new Error(`Unknown skill: ${name}`);
    const body = substituteArguments(skill, input.args, {
      sessionId: ctx.sessionId,
      projectDir: ctx.agent.projectDir ?? ctx.agent.cwd,
    });
    const data: SkillOutput = {
      success: true,
      commandName: name,
      ...(skill.allowedTools ? { allowedTools: skill.allowedTools } : {}),
      ...(skill.model ? { model: skill.model } : {}),
      text: `Base directory for this skill: ${skill.dir}\n\n${body}`,
    };
    return {
      data,
      ...(skill.allowedTools || skill.model
        ? {
            contextModifiers: [
              {
                type: 'skillLoaded' as const,
                skill: name,
                ...(skill.allowedTools ? { allowedTools: skill.allowedTools } : {}),
                // The model id, resolved here on the worker (aliases and their env overrides, as for agents).
                ...(skill.model ? { model: skillModelId(skill, skill.model) as string } : {}),
              },
            ],
          }
        : {}),
    };
  },
  mapToolResultToToolResultBlockParam(data, toolUseId) {
    return {
      type: 'tool_result',
      tool_use_id: toolUseId,
      content: [
        { type: 'text', text: `Launching skill: ${data.commandName}` },
        { type: 'text', text: data.text },
      ],
    };
  },
});
