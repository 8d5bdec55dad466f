// The files a session's command hooks run, pinned by content at the session's start (DESIGN
// invariants 13 and 15; the same mechanism as the MCP servers' pins, src/mcp/pins.ts). A command
// hook runs outside the sandbox, as the worker's user: a hook whose command names a file the agent
// could write (`"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh`, `npm run lint` → package.json,
// `node scripts/x.js`) would otherwise run whatever the session wrote there. Those files are
// protected paths of the session (src/toolCall/toolSession.ts sessionPermission: the file tools ask,
// the sandbox denies); here their content is recorded when the session starts (`hookPins` in the
// session input, resolved against the project root the hooks run from) and checked before every
// run of the hook, so that a file changed since then (an approved Write, bypassPermissions, the
// user) stops the hook instead of running it (run.ts runOne: a non-blocking error naming the file;
// a refused PreToolUse hook blocks its call).
import { resolve } from 'node:path';
import type { HookPins } from '../core/context';
import { changedPins, fileFingerprint } from '../mcp/pins';
import { hookControlFiles } from '../permissions/protectedPaths';
import { hookCommandsOf } from './config';
import type { HooksConfig } from './types';

/** The key of a command hook in the pins: its command and exec-form arguments. */
export function hookPinKey(hook: { command: string; args?: readonly string[] }): string {
  return hook.args && hook.args.length > 0 ? JSON.stringify([hook.command, ...hook.args]) : hook.command;
}

/**
 * Pins the files each command hook of `hooks` runs from the working directories (`dirs`),
 * resolved against `projectDir` (the session's start directory, where its hooks run). Every
 * command gets an entry, an empty one when it names no file there (so that "pinned" is never
 * confused with "not known at start").
 */
export function pinHooks(hooks: HooksConfig | undefined, projectDir: string, dirs: readonly string[]): HookPins {
  const root = resolve(projectDir);
  const roots = [...new Set([root, ...dirs.map((d) => resolve(d))])];
  const commands: HookPins['commands'] = {};
  for (const h of hookCommandsOf(hooks)) {
    const key = hookPinKey(h);
    if (commands[key]) continue;
    const files = hookControlFiles([h], root, roots, undefined, { pins: true });
    commands[key] = Object.fromEntries(files.map((f) => [f, fileFingerprint(f)]));
  }
  return { projectDir: root, commands };
}

/**
 * Why a command hook must not run now, or undefined: one of the files pinned for it is not what it
 * was when the session started. A hook without pins (a worker's programmatic hook, a session
 * started before pins) is not checked here; its files are still protected paths.
 */
export function hookPinRefusal(
  pins: HookPins | undefined,
  hook: { command: string; args?: readonly string[] },
): { error: string; paths: string[] } | undefined {
  const pinned = pins?.commands[hookPinKey(hook)];
  if (!pinned) return undefined;
  const changed = changedPins(pinned);
  if (changed.length === 0) return undefined;
  const what = changed.map((c) => `${c.path} (${c.change})`).join(', ');
  return {
    error: `was not run: ${changed.length === 1 ? 'a file it runs' : 'files it runs'} changed since the session started: ${what}; this session runs hooks only as they were at its start (start a new session to use the changed hook)`,
    paths: changed.map((c) => c.path),
  };
}
