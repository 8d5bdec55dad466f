// The agent context every tool call sees, and the one pure reducer that changes it.
// Tools return context modifiers as data (never closures) so that a workflow can apply them
// deterministically, in original block order, after a batch (invariant 4).
import { applyAutonomyModifier, type Autonomy, type AutonomyModifier } from './autonomy';

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
  /** Background tasks, a wake-up, cron jobs (core/autonomy.ts); absent until a tool records one. */
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

export type ContextModifier =
  | { type: 'fileRead'; path: string; mtimeMs: number; partial: boolean }
  | { type: 'fileWritten'; path: string; mtimeMs: number }
  | { type: 'setCwd'; cwd: string }
  | { type: 'addDirectory'; path: string }
  /** The session works in a worktree from now on: cwd and the project directory (rules' anchor) move there. */
  | { type: 'worktreeEntered'; worktree: Omit<WorktreeState, 'originalCwd' | 'originalProjectDir'> }
  /** Back where the session was before EnterWorktree. */
  | { type: 'worktreeExited' }
  /** A skill was loaded (the Skill tool): its `allowed-tools` are allowed and its `model` used from now on. */
  | { type: 'skillLoaded'; skill: string; allowedTools?: string[]; model?: string }
  | AutonomyModifier;

/** The session's model settings with the model of the skills loaded so far (a Skill call's `model`, resolved by the tool). */
export function modelWithSkillGrants<M extends { model: string }>(model: M, ctx: Pick<AgentContext, 'skillGrants'>): M {
  const granted = ctx.skillGrants?.model;
  return granted && granted !== model.model ? { ...model, model: granted } : model;
}

/** A session's project repository as it was at the session's start (issue 30, docs/security.md). */
export interface ProjectRepository {
  /** The main checkout's root, the directory holding `.git` (a real path). */
  root: string;
  /** `<root>/.git`, the common git directory (a real path). */
  commonDir: string;
  /** The common directory's identity (device and inode, decimal): a directory put in its place is not it. */
  dev: string;
  ino: string;
  /** The linked worktrees registered at the start that live under the root: git directory name and worktree path. */
  worktrees: Array<{ name: string; path: string }>;
}

/**
 * The session's project root: the directory it started in (its input's `cwd`), whatever `cd`,
 * EnterWorktree or ExitWorktree did since. What the worker runs outside the sandbox for the session
 * (its command hooks) runs from here, never from the agent's current cwd (DESIGN invariant 15).
 * Pure: `projectDir` is absent until the first `cd` or EnterWorktree (so `cwd` is still the start
 * directory), the first `cd` keeps the start directory there, and EnterWorktree saves both in
 * `worktree` (originalProjectDir, or originalCwd when no `cd` came before) until ExitWorktree
 * restores them.
 */
export function sessionRootOf(ctx: Pick<AgentContext, 'cwd' | 'projectDir' | 'worktree'>): string {
  if (ctx.worktree) return ctx.worktree.originalProjectDir ?? ctx.worktree.originalCwd;
  return ctx.projectDir ?? ctx.cwd;
}

/**
 * The files a session's command hooks run, pinned by content when the session started
 * (src/hooks/pins.ts): `projectDir` is the root they were resolved against and the hooks run from
 * (a subagent keeps its parent's, whatever its own cwd); `commands` maps a hook's key (hookPinKey:
 * its command and exec-form arguments) to path → fingerprint (src/mcp/pins.ts fileFingerprint,
 * `absent` included, so that a file created later is seen too).
 */
export interface HookPins {
  projectDir: string;
  commands: Record<string, Record<string, string>>;
}

export function initialContext(cwd: string, additionalDirectories: string[] = []): AgentContext {
  return { cwd, additionalDirectories: [...additionalDirectories], readFiles: {} };
}

/** Applies one modifier. Pure: returns a new context, never mutates its argument. */
export function applyContextModifier(ctx: AgentContext, mod: ContextModifier): AgentContext {
  switch (mod.type) {
    case 'fileRead': {
      const prev = ctx.readFiles[mod.path];
      // A partial read never downgrades a full read of the same content.
      const partial = mod.partial && !(prev && !prev.partial && prev.mtimeMs === mod.mtimeMs);
      return { ...ctx, readFiles: { ...ctx.readFiles, [mod.path]: { mtimeMs: mod.mtimeMs, partial } } };
    }
    case 'fileWritten':
      // Writing a file means the session knows its whole content.
      return { ...ctx, readFiles: { ...ctx.readFiles, [mod.path]: { mtimeMs: mod.mtimeMs, partial: false } } };
    case 'setCwd':
      return { ...ctx, projectDir: ctx.projectDir ?? ctx.cwd, cwd: mod.cwd };
    case 'addDirectory':
      return ctx.additionalDirectories.includes(mod.path)
        ? ctx
        : { ...ctx, additionalDirectories: [...ctx.additionalDirectories, mod.path] };
    case 'worktreeEntered': {
      // Switching from one worktree to another keeps what the first entry saved.
      const originalCwd = ctx.worktree ? ctx.worktree.originalCwd : ctx.cwd;
      const originalProjectDir = ctx.worktree ? ctx.worktree.originalProjectDir : ctx.projectDir;
      return {
        ...ctx,
        cwd: mod.worktree.path,
        projectDir: mod.worktree.path,
        worktree: {
          ...mod.worktree,
          originalCwd,
          ...(originalProjectDir !== undefined ? { originalProjectDir } : {}),
        },
      };
    }
    case 'worktreeExited': {
      if (!ctx.worktree) return ctx;
      const { worktree, projectDir: _moved, ...rest } = ctx;
      return {
        ...rest,
        cwd: worktree.originalCwd,
        ...(worktree.originalProjectDir !== undefined ? { projectDir: worktree.originalProjectDir } : {}),
      };
    }
    case 'skillLoaded': {
      const prev = ctx.skillGrants ?? { allowedTools: [], skills: [] };
      const model = mod.model ?? prev.model;
      return {
        ...ctx,
        skillGrants: {
          allowedTools: [...new Set([...prev.allowedTools, ...(mod.allowedTools ?? [])])],
          ...(model !== undefined ? { model } : {}),
          skills: [...prev.skills, mod.skill],
        },
      };
    }
    case 'taskStarted':
    case 'taskStopRequested':
    case 'wakeupScheduled':
    case 'wakeupCancelled':
    case 'cronCreated':
    case 'cronDeleted':
      return { ...ctx, autonomy: applyAutonomyModifier(ctx.autonomy, mod) };
    default: {
      const never: never = mod;
      throw new Error(`unknown context modifier ${JSON.stringify(never)}`);
    }
  }
}

export function applyContextModifiers(ctx: AgentContext, mods: readonly ContextModifier[]): AgentContext {
  return mods.reduce(applyContextModifier, ctx);
}
