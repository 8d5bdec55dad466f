import { DurableAgentError } from '../engine/errors';
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
export declare class SkillDefinitionError extends DurableAgentError {
    readonly file: string;
    constructor(file: string, message: string);
}
/** The longest SKILL.md read (the reference refuses one above 1 MB; the body travels in the session input here). */
export declare const MAX_SKILL_CHARS = 100000;
/** All skill bodies of a session together: they travel inline in its start event (and each continue-as-new), so they stay as small as the largest prompt (MAX_MESSAGE_CHARS). */
export declare const MAX_SKILLS_TOTAL_CHARS: number;
/**
 * Parses one SKILL.md of the skill directory `dir` (its name is the skill's name). Throws
 * SkillDefinitionError naming the file and the key.
 */
export declare function parseSkill(file: string, text: string, dir: string, scope: SkillDefinition['scope']): SkillDefinition;
/**
 * The session's skills: the user's (`~/.claude/skills`, or `$CLAUDE_CONFIG_DIR/skills`), then the
 * project's (`<cwd>/.claude/skills`). A user skill wins over a project skill of the same name, as in
 * the reference (captured from 2.1.328: it lists and loads the user's); the CLI's `skills:` line
 * names the file each skill came from.
 */
export declare function loadSkills(cwd: string, userConfigDir?: string): SkillDefinition[];
/** The skills the model may call (those without disable-model-invocation). */
export declare function modelSkills(skills: readonly SkillDefinition[] | undefined): SkillDefinition[];
/** The listing the model gets (a section added to the system prompt): one `- name: description` line per skill. */
export declare function skillListing(skills: readonly SkillDefinition[] | undefined): string | undefined;
/** Splits a Skill call's `args` like a shell would into words (quotes group, backslash escapes). */
export declare function splitArguments(args: string): string[];
/**
 * The skill's body with its arguments filled in, as the reference fills them: `$<name>` (named in
 * `arguments`), `$ARGUMENTS[n]` and `$n` (0-based words of `args`; left as written when there is
 * no such word), `$ARGUMENTS` (the whole string); `\$` keeps a dollar. When the body names none
 * of them and `args` is not empty, `ARGUMENTS: <args>` is appended. `${CLAUDE_SKILL_DIR}` and
 * `${CLAUDE_SESSION_ID}` become the skill's directory and the session's id.
 */
export declare function substituteArguments(skill: Pick<SkillDefinition, 'body' | 'dir' | 'argumentNames'>, args: string | undefined, vars: {
    sessionId: string;
    projectDir?: string;
}): string;
/** The skill's `model` as a model id (an alias as the reference maps it), or undefined to keep the session's. */
export declare function skillModelId(skill: Pick<SkillDefinition, 'model'>, sessionModel: string): string | undefined;
