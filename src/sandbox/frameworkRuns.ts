// What a hook framework's configuration makes each commit run, and how a configuration file is read for it
// in whatever format it is written (hookFrameworks.ts, otherHookFrameworks.ts): the shapes they fill, the
// one reader of a configuration's text, and the reading of a whole file as hook lines by its format.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { regularText } from '../files/regularText';
import { configWords, jsonStrings, tomlStrings, yamlLines } from './configText';
import { jsModuleFiles, jsStrings } from './jsConfigs';
import type { ProtectedEntry } from './protect';

/** One way a line of the person's hook may run: the command and the directory it runs from. */
export interface Reading {
  command: string;
  cwd: string;
}

export type Entry = Omit<ProtectedEntry, 'existed'> & { existed?: boolean };

export interface FrameworkRuns {
  /** The framework's configuration files (and directories) to protect. */
  entries: Entry[];
  /** Those in the repository's git directory (lefthook's remotes), which the caller keeps apart. */
  gitEntries: Entry[];
  /** The command lines the configuration makes each commit run, read as a hook's lines. */
  readings: Reading[];
}

const CONFIG_BYTES = 256 * 1024;

/** A configuration file's text (no link followed, never a FIFO: files/regularText.ts). */
export const configText = (file: string): string | undefined => regularText(file, CONFIG_BYTES);

/** A configuration file the framework reads: protected; absent, left creatable and undone when a command makes it. */
export function protectConfig(out: Entry[], file: string, body: string | undefined): void {
  out.push({ path: file, kind: 'file', ...(body === undefined ? { absentUndone: true } : {}) });
}

/** A directory the framework reads: protected; absent, left writable and undone when a call makes it. */
export function absentUndone(out: Entry[], p: string, kind: 'dir'): void {
  out.push({ path: p, kind, ...(fs.existsSync(p) ? {} : { absentUndone: true }) });
}

const JS = /\.[mc]?[jt]sx?$/;
/** JavaScript modules a configuration loads, followed at most (through each other's requires). */
const MAX_MODULES = 32;

/** Every string of a configuration text, by its format (a name with no known extension: JSON, then YAML). */
export function configLines(name: string, body: string): string[] {
  if (JS.test(name)) return jsStrings(body);
  if (/\.toml$/.test(name)) return tomlStrings(body);
  if (/\.jsonc?$/.test(name)) return jsonStrings(body);
  return [...jsonStrings(body), ...yamlLines(body)];
}

/**
 * A configuration file whose every string is a command (lint-staged's, husky 4's, CaptainHook's,
 * overcommit's): each read as a hook line from `cwd`, with the backstop of its path-like words
 * (configText.ts `configWords`); a JavaScript one's local modules protected (absent: undone when made)
 * and read the same way, since loading the configuration runs them (red team v, V5).
 */
export function readConfigLines(file: string, body: string, cwd: string, out: FrameworkRuns): void {
  const queue = [file];
  const bodies = new Map([[file, body]]);
  for (let i = 0; i < queue.length && i < MAX_MODULES; i++) {
    const f = queue[i]!;
    const text = bodies.get(f) ?? configText(f);
    if (text === undefined) continue;
    for (const command of configLines(f, text)) out.readings.push({ command, cwd });
    out.readings.push({ command: configWords(text, cwd), cwd });
    if (f !== file) out.readings.push({ command: configWords(text, path.dirname(f)), cwd: path.dirname(f) });
    if (!JS.test(f)) continue;
    const modules = jsModuleFiles(text, path.dirname(f));
    for (const m of modules.existing) {
      out.entries.push({ path: m, kind: 'file' });
      if (!queue.includes(m)) queue.push(m);
    }
    for (const m of modules.absent) out.entries.push({ path: m, kind: 'file', absentUndone: true });
  }
}
