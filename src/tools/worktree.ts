// EnterWorktree / ExitWorktree: the session works in a git worktree of its repository (the
// reference's names, schemas, location and branch naming: src/worktree/worktrees.ts,
// docs/reference-tools.md). Entering returns a context modifier (data, invariant 4) that moves the
// session's cwd and project directory into the worktree: every later tool call, the sandbox's
// working directories and the permission rules' anchor follow it. Exiting restores them; `remove`
// deletes the worktree and its branch, only one this session made, and only with
// `discard_changes` when work would be lost.
import { lstatSync } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { buildTool, type ToolUseContext } from '../toolProtocol/Tool';
import {
  createOrReuseWorktree,
  enterableWorktree,
  randomWorktreeName,
  registeredWorktree,
  removeWorktree,
  sessionRepository,
  worktreeChanges,
  worktreeHead,
  worktreeNameProblem,
} from '../worktree/worktrees';
import { prepareWorktreeGit, removeWorktreeFiles, removeWorktreeGit, settleWorktreeGit } from '../worktree/git';
import { recordCheckout } from '../worktree/git/checkoutControl';
import { resolvePath } from './paths';

const AGENT = { agentInvoked: true } as const;

const ALREADY_IN_WORKTREE =
  'Already in a worktree session. Pass `path` to switch into another existing worktree, or use ExitWorktree to leave this one before creating a new worktree.';
const NOTHING_TO_EXIT =
  'No-op: there is no active EnterWorktree session to exit. This tool only operates on worktrees entered with EnterWorktree in this session. No filesystem changes were made.';

const enterSchema = z
  .strictObject({
    name: z
      .string()
      .optional()
      .describe(
        'Name of a new worktree: "/"-separated segments of letters, digits, ".", "_" and "-", at most 64 characters. A name is made up when omitted. Not together with path.',
      ),
    path: z
      .string()
      .optional()
      .describe(
        'An existing worktree of this repository (as `git worktree list` shows it) to switch into. Not together with name.',
      ),
  })
  .superRefine((input, ctx) => {
    if (input.name !== undefined && input.path !== undefined)
      // Keys in the reference's order: the model sees the issue as JSON (src/toolCall/pipeline/validation.ts).
      ctx.addIssue({ code: 'custom', path: [], message: 'Provide at most one of `name` or `path`, not both.' });
    if (input.name !== undefined) {
      const problem = worktreeNameProblem(input.name);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['name'] });
    }
  });

export type EnterWorktreeInput = z.infer<typeof enterSchema>;

export interface EnterWorktreeOutput {
  worktreePath: string;
  worktreeBranch?: string;
  message: string;
}

const ENTER_PROMPT = `Moves this session into an isolated git worktree of the current repository, so that its edits and commands do not touch the main checkout or other sessions' files.

- With name (or none: one is made up), creates <repository>/.claude/worktrees/<name> on a new branch worktree-<name> from the current HEAD ("/" in the name becomes "+"); an existing worktree of that name is reused.
- With path, switches into an existing worktree of this repository.
- From then on the working directory of every tool is the worktree. Use ExitWorktree to come back.
- Only when the user asks for a worktree or the task needs isolation from the main checkout.`;

const quoted = (s: string): string => `“${s}”`;

export const EnterWorktreeTool = buildTool<EnterWorktreeInput, EnterWorktreeOutput>({
  name: 'EnterWorktree',
  // Deferred behind ToolSearch when tool search is on (the reference defers it too).
  shouldDefer: true,
  inputSchema: enterSchema,
  prompt: () => ENTER_PROMPT,
  summary: (input) => `EnterWorktree ${input.path ?? input.name ?? '(new)'}`,
  // A re-run after a lost worker reuses the worktree the first run made.
  isIdempotent: () => true,
  // Refusals that need no git come before the hooks, as in the reference.
  // Also refused before anything asks: a path that is not a worktree the session may enter
  // (enterableWorktree; call() checks again, the disk may change).
  async validateInput(input, ctx) {
    if (ctx.agent.worktree && input.path === undefined) return { result: false, message: ALREADY_IN_WORKTREE };
    if (input.path !== undefined) {
      const problem = enterProblem(ctx, input.path);
      if (problem) return { result: false, message: problem };
    }
    return { result: true };
  },
  // Switching into a worktree outside the session's working directories would make it one (the
  // sandbox and the file tools follow the cwd): a person decides, as for any widening.
  async checkPermissions(input, ctx) {
    if (input.path === undefined) return { behavior: 'passthrough' };
    const target = resolvePath(ctx.agent.cwd, input.path);
    const roots = [
      ...(ctx.agent.projectDir ? [ctx.agent.projectDir] : [ctx.agent.cwd]),
      ...(ctx.agent.worktree ? [ctx.agent.worktree.originalCwd] : []),
      ...ctx.agent.additionalDirectories,
      ...ctx.permission.workingDirectories,
    ];
    if (roots.some((r) => isInside(target, r))) return { behavior: 'passthrough' };
    return {
      behavior: 'ask',
      message: `EnterWorktree needs approval: ${target} is outside the session's working directories, and the session would work there.`,
    };
  },
  async call(input, ctx) {
    if (ctx.agent.worktree && input.path === undefined) throw new Error(ALREADY_IN_WORKTREE);
    // Only the session's repository, fixed at its start: never one found from the current cwd (issue 30).
    const repo = sessionRepository(ctx);
    if (input.path !== undefined) {
      const found = enterableWorktree(repo, resolvePath(ctx.agent.cwd, input.path));
      if ('problem' in found) throw new Error(cannotEnter(found.problem, repo.root));
      const entry = found.worktree;
      const { head: base, branch } = await worktreeHead(entry, AGENT);
      return {
        data: {
          worktreePath: entry.path,
          ...(branch ? { worktreeBranch: branch } : {}),
          message: `Entered worktree at ${quoted(entry.path)}${branch ? ` on branch ${quoted(branch)}` : ''}. The session is now working in the worktree. Use ExitWorktree to leave mid-session.`,
        },
        contextModifiers: [
          {
            type: 'worktreeEntered',
            worktree: {
              path: entry.path,
              ...(branch ? { branch } : {}),
              ...(base ? { base } : {}),
              created: false,
              repoRoot: repo.root,
              gitDir: entry.gitDir,
              commonDir: repo.commonDir,
            },
          },
        ],
      };
    }
    const wt = await createOrReuseWorktree(repo, input.name ?? randomWorktreeName(), AGENT);
    // Its branch is the one the session's commands there may move in the repository (sandbox/worktreeGit.ts).
    await prepareWorktreeGit(wt, wt.created ? wt.branch : undefined, wt.created);
    // A later session there compares what it checked out with the main checkout (worktree/git/checkoutControl.ts).
    if (wt.created) await recordCheckout(wt, 'EnterWorktree', ctx.sessionId);
    return {
      data: {
        worktreePath: wt.path,
        worktreeBranch: wt.branch,
        message: `${wt.created ? 'Created' : 'Entered'} worktree at ${quoted(wt.path)} on branch ${quoted(wt.branch)}. The session is now working in the worktree. Use ExitWorktree to leave mid-session.${wt.removedGitFiles?.length ? ` Not checked out (git directories the branch carries): ${wt.removedGitFiles.map(quoted).join(', ')}.` : ''}`,
      },
      contextModifiers: [
        {
          type: 'worktreeEntered',
          worktree: {
            path: wt.path,
            branch: wt.branch,
            base: wt.base,
            created: wt.created,
            repoRoot: wt.repoRoot,
            gitDir: wt.gitDir,
            commonDir: wt.commonDir,
          },
        },
      ],
    };
  },
  mapToolResultToToolResultBlockParam(data, toolUseId) {
    return { type: 'tool_result', tool_use_id: toolUseId, content: data.message };
  },
});

const exitSchema = z.strictObject({
  action: z
    .enum(['keep', 'remove'])
    .describe('"keep" leaves the worktree and its branch on disk; "remove" deletes both.'),
  discard_changes: z
    .boolean()
    .optional()
    .describe(
      'Needed with "remove" when the worktree has uncommitted files or commits of its own: they are lost. Set it only when the user agreed.',
    ),
});

export type ExitWorktreeInput = z.infer<typeof exitSchema>;

export interface ExitWorktreeOutput {
  action: 'keep' | 'remove';
  originalCwd: string;
  worktreePath: string;
  worktreeBranch?: string;
  discardedFiles?: number;
  discardedCommits?: number;
  /** Where the session is now (the reference's keys). */
  restoredCwd: string;
  originalCwdMissing: boolean;
  message: string;
}

const EXIT_PROMPT = `Leaves the worktree EnterWorktree moved this session into and returns to the directory the session was in before.

- action "keep": the worktree and its branch stay on disk.
- action "remove": deletes the worktree and its branch. Refused when it has uncommitted files or commits since it was made, unless discard_changes is true (only after the user agreed). A worktree this session did not create is never removed.`;

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export const ExitWorktreeTool = buildTool<ExitWorktreeInput, ExitWorktreeOutput>({
  name: 'ExitWorktree',
  // Deferred behind ToolSearch when tool search is on (the reference defers it too).
  shouldDefer: true,
  inputSchema: exitSchema,
  prompt: () => EXIT_PROMPT,
  summary: (input) => `ExitWorktree ${input.action}`,
  // keep changes nothing on disk; a re-run of remove finds the worktree gone and only exits.
  isIdempotent: () => true,
  // Refusals come before the hooks, as in the reference (call() checks again: the disk may change).
  async validateInput(input, ctx) {
    const wt = ctx.agent.worktree;
    if (!wt) return { result: false, message: NOTHING_TO_EXIT };
    if (input.action !== 'remove') return { result: true };
    if (!wt.created) return { result: false, message: notOwner(wt.path, wt.originalCwd) };
    if (input.discard_changes === true || !lstatOrUndefined(wt.path)?.isDirectory()) return { result: true };
    try {
      const reg = registeredWorktree(sessionRepository(ctx), wt.path);
      if (!reg) return { result: true }; // call() says what is wrong
      const lost = await worktreeChanges(wt.path, reg.gitDir, wt.base, AGENT);
      return lost.files > 0 || lost.commits > 0 ? { result: false, message: wouldDiscard(lost) } : { result: true };
    } catch {
      return { result: true }; // call() says what is wrong
    }
  },
  async call(input, ctx) {
    const wt = ctx.agent.worktree;
    if (!wt) throw new Error(NOTHING_TO_EXIT);
    const back = wt.originalCwd;
    const branch = wt.branch ? ` on branch ${quoted(wt.branch)}` : '';
    const base = {
      originalCwd: back,
      worktreePath: wt.path,
      ...(wt.branch ? { worktreeBranch: wt.branch } : {}),
      restoredCwd: back,
      originalCwdMissing: !lstatOrUndefined(back)?.isDirectory(),
    };
    if (input.action === 'keep') {
      // What a command left in the worktree's shadow (a worker lost mid-command) comes in now (worktreeGit.ts).
      if (wt.gitDir && wt.commonDir)
        await settleWorktreeGit({ commonDir: wt.commonDir, gitDir: wt.gitDir }).catch(() => undefined);
      return {
        data: {
          action: 'keep',
          ...base,
          message: `Exited worktree. Your work is preserved at ${quoted(wt.path)}${branch}. Session is now back in ${quoted(back)}.`,
        },
        contextModifiers: [{ type: 'worktreeExited' }],
      };
    }
    if (!wt.created) throw new Error(notOwner(wt.path, back));
    let discarded = { files: 0, commits: 0 };
    const st = lstatOrUndefined(wt.path);
    if (st) {
      // Only the registered worktree of the session's repository at exactly this place, never what
      // a symlink planted there points to (registeredWorktree: real paths, both ways agree).
      const repo = sessionRepository(ctx);
      const reg = repo.root === wt.repoRoot ? registeredWorktree(repo, wt.path) : undefined;
      if (st.isSymbolicLink() || !st.isDirectory() || !reg)
        throw new Error(
          `${wt.path} is no longer a worktree of ${wt.repoRoot}: nothing was removed. Use action: "keep".`,
        );
      discarded = await worktreeChanges(wt.path, reg.gitDir, wt.base, AGENT);
      if ((discarded.files > 0 || discarded.commits > 0) && input.discard_changes !== true)
        throw new Error(wouldDiscard(discarded));
      await removeWorktreeFiles(wt.path);
      await removeWorktree(repo, wt.path, wt.branch, AGENT);
      await removeWorktreeGit({ commonDir: repo.commonDir, gitDir: reg.gitDir });
    }
    const lost = [
      ...(discarded.files > 0 ? [`Discarded ${plural(discarded.files, 'uncommitted file')}.`] : []),
      ...(discarded.commits > 0 ? [`Discarded ${plural(discarded.commits, 'commit')}.`] : []),
    ];
    return {
      data: {
        action: 'remove',
        ...base,
        discardedFiles: discarded.files,
        discardedCommits: discarded.commits,
        message: [
          `Exited and removed worktree at ${quoted(wt.path)}.`,
          ...lost,
          `Session is now back in ${quoted(back)}.`,
        ].join(' '),
      },
      contextModifiers: [{ type: 'worktreeExited' }],
    };
  },
  mapToolResultToToolResultBlockParam(data, toolUseId) {
    return { type: 'tool_result', tool_use_id: toolUseId, content: data.message };
  },
});

function lstatOrUndefined(p: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

function isInside(child: string, dir: string): boolean {
  const rel = path.relative(path.resolve(dir), path.resolve(child));
  return rel === '' || (!path.isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${path.sep}`));
}

function notOwner(dir: string, back: string): string {
  return `This session did not create the worktree at ${quoted(dir)}, so it will not remove it. Use action: "keep" to return to ${quoted(back)}.`;
}

function wouldDiscard(lost: { files: number; commits: number }): string {
  const what = [
    ...(lost.files > 0 ? [plural(lost.files, 'uncommitted file')] : []),
    ...(lost.commits > 0 ? [plural(lost.commits, 'commit')] : []),
  ].join(' and ');
  return `Worktree has ${what}. Removing will discard this work permanently. Confirm with the user, then re-invoke with discard_changes: true — or use action: "keep" to preserve the worktree.`;
}

function cannotEnter(problem: string, root: string): string {
  return `Cannot enter worktree: ${problem}. Run 'git -C ${root} worktree list' to see registered worktrees.`;
}

/** Why EnterWorktree `path` is refused (the session's repository, enterableWorktree), or undefined. */
function enterProblem(ctx: ToolUseContext, p: string): string | undefined {
  try {
    const repo = sessionRepository(ctx);
    const found = enterableWorktree(repo, resolvePath(ctx.agent.cwd, p));
    return 'problem' in found ? cannotEnter(found.problem, repo.root) : undefined;
  } catch (err) {
    return `Cannot enter worktree: ${err instanceof Error ? err.message : String(err)}`;
  }
}
