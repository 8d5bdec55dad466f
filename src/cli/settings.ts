// Settings files in the reference's format: `~/.durable-agent/settings.json` (user) and
// `<cwd>/.durable-agent/settings.json` (project). Lists are concatenated, scalars overridden
// (project over user); command-line flags override both.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { PERMISSION_MODES, type PermissionMode } from '../tools/permissionTypes';
import type { HooksJson } from '../workflows/definitions';

export interface SettingsFile {
  model?: string;
  maxTokens?: number;
  permissions?: {
    allow?: string[];
    ask?: string[];
    deny?: string[];
    defaultMode?: PermissionMode;
    additionalDirectories?: string[];
  };
  hooks?: HooksJson;
  env?: Record<string, string>;
}

export interface EffectiveSettings {
  model?: string;
  maxTokens?: number;
  allow: string[];
  ask: string[];
  deny: string[];
  mode?: PermissionMode;
  additionalDirectories: string[];
  hooks?: HooksJson;
  sources: string[];
}

export class SettingsError extends Error {}

export function userSettingsPath(): string {
  return join(process.env.DURABLE_AGENT_HOME ?? join(homedir(), '.durable-agent'), 'settings.json');
}

export function projectSettingsPath(cwd: string): string {
  return join(resolve(cwd), '.durable-agent', 'settings.json');
}

function readSettings(path: string): SettingsFile | undefined {
  if (!existsSync(path)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new SettingsError(`${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new SettingsError(`${path} must hold a JSON object`);
  const s = parsed as SettingsFile;
  const mode = s.permissions?.defaultMode;
  if (mode !== undefined && !PERMISSION_MODES.includes(mode)) {
    throw new SettingsError(`${path}: permissions.defaultMode "${mode}" is not one of ${PERMISSION_MODES.join(', ')}`);
  }
  for (const key of ['allow', 'ask', 'deny', 'additionalDirectories'] as const) {
    const v = s.permissions?.[key];
    if (v !== undefined && (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))) throw new SettingsError(`${path}: permissions.${key} must be a list of strings`);
  }
  return s;
}

function mergeHooks(a: HooksJson | undefined, b: HooksJson | undefined): HooksJson | undefined {
  if (!a) return b;
  if (!b) return a;
  const out: HooksJson = { ...a };
  for (const [event, list] of Object.entries(b)) out[event] = [...(out[event] ?? []), ...list];
  return out;
}

export function loadSettings(cwd: string, paths: string[] = [userSettingsPath(), projectSettingsPath(cwd)]): EffectiveSettings {
  const eff: EffectiveSettings = { allow: [], ask: [], deny: [], additionalDirectories: [], sources: [] };
  for (const path of paths) {
    const s = readSettings(path);
    if (!s) continue;
    eff.sources.push(path);
    if (s.model !== undefined) eff.model = s.model;
    if (s.maxTokens !== undefined) eff.maxTokens = s.maxTokens;
    eff.allow.push(...(s.permissions?.allow ?? []));
    eff.ask.push(...(s.permissions?.ask ?? []));
    eff.deny.push(...(s.permissions?.deny ?? []));
    eff.additionalDirectories.push(...(s.permissions?.additionalDirectories ?? []).map((d) => resolve(cwd, d)));
    if (s.permissions?.defaultMode) eff.mode = s.permissions.defaultMode;
    const hooks = mergeHooks(eff.hooks, s.hooks);
    if (hooks) eff.hooks = hooks;
  }
  return eff;
}
