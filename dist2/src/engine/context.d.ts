import { type Autonomy, type AutonomyModifier } from './autonomy';
export interface FileReadState {
    /** mtime (ms) of the file when it was read; an Edit/Write checks the file did not change since. */
    mtimeMs: number;
    /** true when only part of the file was read (offset/limit): a partial read does not allow an Edit. */
    partial: boolean;
}
export interface AgentContext {
    /** Absolute working directory of the session. */
    cwd: string;
    /** Extra absolute directories the session may work in. */
    additionalDirectories: string[];
    /**
     * The directory the session started in, kept when a `cd` moves `cwd` (set by the first
     * setCwd). Permission rules like `Read(./.env)` stay anchored here, and it stays a working
     * directory.
     */
    projectDir?: string;
    /** Read state: absolute path -> what the session last read of it. */
    readFiles: Record<string, FileReadState>;
    /** The session's IANA time zone (cron jobs and wake-ups read it), fixed at the session's start. */
    timeZone?: string;
    /** Background tasks, a wake-up, cron jobs (engine/autonomy.ts); absent until a tool records one. */
    autonomy?: Autonomy;
    /** The git worktree EnterWorktree moved the session into; absent outside one. */
    worktree?: WorktreeState;
    /** What the skills the Skill tool loaded grant for the rest of the session; absent until one grants something. */
    skillGrants?: SkillGrants;
}
/** The allow rules (`allowed-tools`) and the model (`model`) of the skills loaded so far. */
export interface SkillGrants {
    /** Permission rules added to the session's allow rules. */
    allowedTools: string[];
    /** The model (alias or id) of the last skill that named one. */
    model?: string;
    /** The skills that granted something, in the order they were loaded. */
    skills: string[];
}
/** A worktree the session works in (EnterWorktree): where it is and what to restore on ExitWorktree. */
export interface WorktreeState {
    path: string;
    branch?: string;
    /** The commit it started from (ExitWorktree counts the commits since). */
    base?: string;
    /** EnterWorktree made it (only then may ExitWorktree remove it). */
    created: boolean;
    /** The main repository's root. */
    repoRoot: string;
    /** Its git directories (git's answer when entering): what sandboxed Bash may write so that git works. */
    gitDir?: string;
    commonDir?: string;
    /** cwd and projectDir before entering, restored on exit. */
    originalCwd: string;
    originalProjectDir?: string;
}
export type ContextModifier = {
    type: 'fileRead';
    path: string;
    mtimeMs: number;
    partial: boolean;
} | {
    type: 'fileWritten';
    path: string;
    mtimeMs: number;
} | {
    type: 'setCwd';
    cwd: string;
} | {
    type: 'addDirectory';
    path: string;
}
/** The session works in a worktree from now on: cwd and the project directory (rules' anchor) move there. */
 | {
    type: 'worktreeEntered';
    worktree: Omit<WorktreeState, 'originalCwd' | 'originalProjectDir'>;
}
/** Back where the session was before EnterWorktree. */
 | {
    type: 'worktreeExited';
}
/** A skill was loaded (the Skill tool): its `allowed-tools` are allowed and its `model` used from now on. */
 | {
    type: 'skillLoaded';
    skill: string;
    allowedTools?: string[];
    model?: string;
} | AutonomyModifier;
/** The session's model settings with the model of the skills loaded so far (a Skill call's `model`, resolved by the tool). */
export declare function modelWithSkillGrants<M extends {
    model: string;
}>(model: M, ctx: Pick<AgentContext, 'skillGrants'>): M;
export declare function initialContext(cwd: string, additionalDirectories?: string[]): AgentContext;
/** Applies one modifier. Pure: returns a new context, never mutates its argument. */
export declare function applyContextModifier(ctx: AgentContext, mod: ContextModifier): AgentContext;
export declare function applyContextModifiers(ctx: AgentContext, mods: readonly ContextModifier[]): AgentContext;
