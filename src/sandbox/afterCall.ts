// The checks after a sandboxed command (what the deny list fixed at its start could not stop: a
// repository it made, a branch carrying a hook, a forged object…), one screen after another. Each
// screen runs in its own try (session 26, round t's lead; T13/T14's class): a throw in one no longer
// skips the later ones. A screen that threw fails CLOSED: its note says so, and the session's next
// sandboxed command in those directories first runs it again — and does not run while it still
// throws (uncheckedCalls.ts, asked by sessionPlan.ts sessionSandboxPlan).
import { restoreWorkerLinks } from '../hostProcess/workerCode';
import { detachHardLinks } from './hardLinks';
import { undoLintKeys } from './lintKeys';
import { cutLinkedWays } from './linkedWays';
import { endedChecked } from './liveWriters';
import { undoManifestBins } from './manifestBins';
import { undoForgedObjects } from './movedObjects';
import { todoScreen, undoCarriedRefs } from './movedRefs';
import { refsNow, sincePost, undoRefsUnscreened } from './refsUnscreened';
import type { RefSnapshots } from './movedRefs';
import type { RefState } from './refFiles';
import { undoProtectedWrites, type ProtectedScan } from './protect';
import { undoTodoExecs } from './sequencerState';
import {
  lintFilesOf,
  manifestsOf,
  protectionScan,
  protectionScanSliced,
  relativeTo,
  type Protection,
} from './sessionPlan';
import { undoStagedHooks } from './stagedHooks';
import { recordUnchecked } from './uncheckedCalls';
import { eachSliced, yieldToLoop } from './loopSlices';

/** After a sandboxed command: the protected paths it wrote anyway (a repository it created), undone. */
export async function undoProtected(protection: Protection): Promise<string[]> {
  try {
    return await undoProtectedNow(protection);
  } finally {
    endedChecked(protection);
  }
}

/** One screen after a call: its name (for a note) and what it does; `after` is the scan the first screens share. */
interface Screen {
  name: string;
  run: (state: { after?: ProtectedScan }) => string[] | Promise<string[]>;
  /** When `run` threw: what it covers undone on disk unscreened (red team v, V1: the person's git does not wait for the retry). */
  fallback?: () => string[];
}

/** The screens of a call's protection, in their order (objects before refs: the ref screen reads what a checkout would write). */
function screensOf(p: Protection): Screen[] {
  const rel = relativeTo(p.roots);
  const screens: Screen[] = [];
  // A directory on the way made a link first: every put-back below goes through the ways the scan saw.
  const ways = p.ways;
  if (ways) screens.push({ name: 'directories on the way (linkedWays)', run: () => cutLinkedWays(ways, rel) });
  screens.push({
    name: 'protected paths',
    run: async (s) => {
      s.after = await protectionScanSliced(p);
      await yieldToLoop();
      return undoProtectedWrites(p.scan, s.after, p.denyWrite, p.nameRoots ?? p.roots);
    },
  });
  // A protected file the command gave another name (a hard link: `git init sub && ln sub/.git/config
  // sub/notes.txt`) is a copy of itself again before the next command can write it (M11).
  screens.push({ name: 'hard links', run: (s) => detachHardLinks(s.after ?? protectionScan(p), p.gitRoots, rel) });
  const { manifests, lint, objects, refs, staged, todos } = p;
  if (manifests) screens.push({ name: 'package.json keys', run: () => undoManifestBins(manifestsOf(p), manifests) });
  if (lint) screens.push({ name: 'linter keys', run: () => undoLintKeys(lintFilesOf(p), lint) });
  if (objects) screens.push({ name: 'objects', run: () => undoForgedObjects(objects, rel) });
  if (refs) screens.push(refsScreen(refs));
  if (staged) screens.push({ name: 'the index', run: () => undoStagedHooks(staged, rel, { afterCall: true }) });
  if (todos && objects)
    screens.push({
      name: 'sequencer state',
      // Repository by repository, the event loop's turn between slices (red team u, U10).
      run: async () => {
        const screen = refs && todoScreen(refs);
        return (await eachSliced(objects.gitDirs, (g) => undoTodoExecs(todos, [g], rel, screen))).flat();
      },
    });
  // The worker CLI's `.bin` link, repointed or removed by the command: put back (red team, issue 30, H-1).
  screens.push({ name: 'the worker’s own link', run: () => restoreWorkerLinks() });
  return screens;
}

/**
 * The ref screen. When it throws, its fallback puts the refs back at once (V1) and records them as
 * they are then; a retry (uncheckedCalls.ts) judges with the snapshot moved on by what changed since
 * — the person's, not the failed call's (red team v, V16: their own commit to their hook, made after
 * the refusal, was taken off their branch by the retry).
 */
function refsScreen(refs: RefSnapshots): Screen {
  let post: Map<string, RefState | undefined> | undefined;
  return {
    name: 'refs',
    run: () => {
      throwForTests('refs');
      if (post)
        for (const [gitDir, now] of refsNow(refs)) {
          const was = refs.get(gitDir);
          const p = post.get(gitDir);
          if (was && p && now) refs.set(gitDir, sincePost(was, p, now));
        }
      post = undefined;
      return undoCarriedRefs(refs);
    },
    fallback: () => {
      const notes = undoRefsUnscreened(refs);
      post = refsNow(refs);
      return notes;
    },
  };
}

let failing: string | undefined;
/** Tests: the next run of the screen named `name` throws once (the retry path of V16's row). */
export function failScreenOnceForTests(name: string | undefined): void {
  failing = name;
}
function throwForTests(name: string): void {
  if (failing !== name) return;
  failing = undefined;
  throw new Error(`${name}: made to throw by a test`);
}

/** Runs `screens` each in its own try: their notes, and those that threw with why. */
export async function runScreens(
  screens: readonly Screen[],
): Promise<{ notes: string[]; failed: { screen: Screen; why: string }[] }> {
  const notes: string[] = [];
  const failed: { screen: Screen; why: string }[] = [];
  const state: { after?: ProtectedScan } = {};
  for (const screen of screens) {
    // The event loop's other work (the other sessions' heartbeats) between screens: each screen is
    // synchronous, and a tree with a thousand `.git` directories makes them long (red team u, U10).
    await yieldToLoop();
    try {
      for (const n of await screen.run(state)) if (!notes.includes(n)) notes.push(n);
    } catch (err) {
      // Not the pinned `/proc/<pid>/fd/<n>/`: it gives the worker's pid away (red team q, Q20).
      failed.push({ screen, why: String((err as Error)?.message ?? err).replace(/\/proc\/\d+\/fd\/\d+\//g, '') });
      try {
        notes.push(...(screen.fallback?.() ?? []));
      } catch {
        // the note of the failed screen says what is left
      }
    }
  }
  return { notes, failed };
}

/** The note of a screen that threw: fail closed. */
export const uncheckedNote = (name: string, why: string): string =>
  `${name}: the check after this call could not run (${why}); what it covers may still hold this call's writes, so the next sandboxed command here runs it again first and does not run until it passes`;

async function undoProtectedNow(protection: Protection): Promise<string[]> {
  const { notes, failed } = await runScreens(screensOf(protection));
  if (failed.length > 0) {
    const left = failed.map((f) => f.screen);
    recordUnchecked({
      roots: protection.roots,
      why: failed.map((f) => `${f.screen.name}: ${f.why}`).join('; '),
      retry: async () => {
        const again = await runScreens(left);
        left.splice(0, left.length, ...again.failed.map((f) => f.screen));
        return { notes: again.notes, failed: again.failed.map((f) => `${f.screen.name}: ${f.why}`) };
      },
    });
    for (const f of failed) notes.push(uncheckedNote(f.screen.name, f.why));
  }
  const live = protection.live?.splice(0) ?? [];
  return [...live, ...notes.filter((n) => !live.includes(n))];
}
