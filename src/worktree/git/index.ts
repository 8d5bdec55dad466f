// What git a linked worktree's commands may write (issue 19, docs/security.md round 3): a command
// run in a worktree (`run --worktree`, EnterWorktree, an isolated agent) must not reach what the
// main checkout and the other worktrees use — the shared branches and the shared object store.
//
// The sandbox can only allow or deny paths, and git keeps every branch and every object in the
// common git directory (`<repo>/.git`), where a deny list cannot tell the worktree's own branch from
// `main`. So, while a command runs, the worktree's git points at a directory of its own (a
// "shadow" common directory, `<repo>/.git/durable-agent/worktrees/<its git dir's name>`): the
// worktree's `commondir` names the shadow, whose
// - `objects/` is the command's to write, reading the repository's objects as an alternate;
// - `refs/` and `logs/` are the command's to write: a copy of the repository's refs taken when
//   the command starts (a loose ref for each ref the worktree owns, `packed-refs` for the rest);
// - `config` (the repository's, included), `HEAD`, `packed-refs` and the rest are the worker's:
//   the sandbox lets the command write none of them, nor the repository's own git directory.
// When the command ends, the worker (outside the sandbox) brings the command's work into the
// repository: its objects re-hashed and checked as a fetch would (`git index-pack --fsck-objects`,
// so a forged or hostile object never lands under a name it does not hash to), the refs the
// worktree owns (its branch, and branches it created) moved there when every object of their new
// commits came in and none of those commits changes a protected path — and nothing else: a moved
// `main` is reported, never applied. When no command of the worktree runs any more, `commondir` points
// back at the repository: between commands the worktree is a plain git worktree, for the person
// and for every git outside the sandbox.
//
// One concept per file: the layout (layout.ts), git (git.ts), the files (files.ts), the lock and
// leases (lock.ts), the shadow's life (shadow.ts), bringing refs (refs.ts) and objects (objects.ts) in.
//
// Node only; every git run here is on the repository's own git directory, with its hooks and
// fsmonitor off, or on a copy the worker made; what a command could have written is read without
export { shadowDirOf, worktreeGitAccess, type WorktreeGit, type WorktreeSync } from './layout';
export {
  activateWorktreeGit,
  deactivateWorktreeGit,
  prepareWorktreeGit,
  removeWorktreeFiles,
  removeWorktreeGit,
  settleWorktreeGit,
  type WorktreeGitLease,
} from './shadow';
export { worktreeSyncNote } from './refs';
