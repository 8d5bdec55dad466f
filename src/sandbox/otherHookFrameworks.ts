// The PHP and Ruby hook frameworks (hookFrameworks.ts has the JavaScript and Python ones): CaptainHook
// (red team t, T20), overcommit and GrumPHP (red team v, V7: neither was known, and the script their
// configuration ran at each commit was the agent's to rewrite). Their configurations are read as data:
// protected (absent: undone when a command makes one), their command keys read as hook lines, and every
// path-like word of them read besides (configText.ts `configWords`; their `include:`/`exclude:` globs are
// data, never read as paths).
import * as path from 'node:path';
import { configWords, jsonKey, jsonStrings, yamlValues } from './configText';
import { absentUndone, configText, protectConfig, readConfigLines, type FrameworkRuns } from './frameworkRuns';

/** Configuration files one framework's chain (includes, imports) reads at most. */
const MAX_FILES = 32;

/**
 * CaptainHook's hook (`vendor/bin/captainhook … --configuration=captainhook.json … hook:pre-commit`,
 * red team t, T20): its configuration is protected (absent: undone when made) and every string in it
 * read as a hook line (its actions' `action` commands; a PHP class name names no file).
 */
export function captainHook(scripts: readonly string[], root: string, out: FrameworkRuns): void {
  const configs = new Set<string>();
  for (const s of scripts) {
    if (!/\bcaptainhook\b/i.test(s)) continue;
    configs.add('captainhook.json');
    for (const m of s.matchAll(/--configuration[= ]["']?([^\s"')]+)/g)) configs.add(m[1]!);
  }
  const queue = [...configs].map((c) => path.resolve(root, c));
  // `config.includes` (U7b): each included configuration's actions run like the main one's; read alike.
  for (let i = 0; i < queue.length && i < MAX_FILES; i++) {
    const file = queue[i]!;
    const body = configText(file);
    protectConfig(out.entries, file, body);
    if (body !== undefined) readConfigLines(file, body, root, out);
    const config = jsonKey(body ?? 'null', 'config');
    const includes = config && typeof config === 'object' ? (config as Record<string, unknown>)['includes'] : undefined;
    for (const inc of jsonStrings(JSON.stringify(includes ?? null))) {
      const f = path.resolve(path.dirname(file), inc);
      if (!queue.includes(f)) queue.push(f);
    }
  }
}

/**
 * overcommit's hook (`# Entrypoint for Overcommit hook integration`, `require 'overcommit'`): it loads
 * `.overcommit.yml` and `.local-overcommit.yml` (merged over it) from the work tree. Each hook's
 * `command:` and `required_executable:` run at each commit (read as hook lines, `flags:` as their
 * words); the Ruby hooks of its `plugin_directory` (`.git-hooks/` by default) run too (overcommit signs
 * them, and an unsigned change stops the person's commit: protected whole); its `gemfile:` is Ruby that
 * Bundler runs at each hook's start (protected).
 */
export function overcommit(scripts: readonly string[], root: string, out: FrameworkRuns): void {
  if (!scripts.some((s) => /\bovercommit\b/i.test(s))) return;
  const dirs = new Set(['.git-hooks']);
  for (const name of ['.overcommit.yml', '.local-overcommit.yml']) {
    const file = path.join(root, name);
    const body = configText(file);
    protectConfig(out.entries, file, body);
    if (body === undefined) continue;
    for (const key of ['command', 'required_executable'])
      for (const command of yamlValues(body, key)) out.readings.push({ command, cwd: root });
    for (const flags of yamlValues(body, 'flags')) out.readings.push({ command: `true ${flags}`, cwd: root });
    out.readings.push({ command: configWords(body, root), cwd: root });
    for (const d of yamlValues(body, 'plugin_directory')) if (d !== '') dirs.add(d);
    for (const g of yamlValues(body, 'gemfile'))
      if (g !== '' && g !== 'false') {
        const f = path.resolve(root, g);
        protectConfig(out.entries, f, configText(f));
      }
  }
  for (const d of dirs) absentUndone(out.entries, path.resolve(root, d), 'dir');
}

/** GrumPHP's default configuration names, in its locator's order (`grumphp.yml` … `grumphp.dist.yaml`). */
const GRUMPHP_CONFIGS = [
  'grumphp.yml',
  'grumphp.yaml',
  'grumphp.yml.dist',
  'grumphp.yaml.dist',
  'grumphp.dist.yml',
  'grumphp.dist.yaml',
];

/**
 * GrumPHP's hook (`vendor/bin/grumphp git:pre-commit`): its configuration (the hook's `--config=`, else the
 * first default name; every default name protected, absent ones undone when made) and the files its
 * `imports:` `resource:` name. Its `shell` task's `scripts:` run with `sh` at each commit (`- script.sh`,
 * `- ["-c", "sh scripts/x.sh"]`): read as `sh <script>` lines, with every path-like word of the file.
 */
export function grumPhp(scripts: readonly string[], root: string, out: FrameworkRuns): void {
  const configs = new Set<string>();
  for (const s of scripts) {
    if (!/\bgrumphp\b/i.test(s)) continue;
    for (const c of GRUMPHP_CONFIGS) configs.add(c);
    for (const m of s.matchAll(/(?:--config|-c)[= ]["']?([^\s"')]+)/g)) configs.add(m[1]!);
  }
  const queue = [...configs].map((c) => path.resolve(root, c));
  for (let i = 0; i < queue.length && i < MAX_FILES; i++) {
    const file = queue[i]!;
    const body = configText(file);
    protectConfig(out.entries, file, body);
    if (body === undefined) continue;
    for (const s of yamlValues(body, 'scripts')) out.readings.push({ command: `sh ${s}`, cwd: root });
    out.readings.push({ command: configWords(body, root), cwd: root });
    for (const r of yamlValues(body, 'resource')) {
      const f = path.resolve(path.dirname(file), r);
      if (r !== '' && !queue.includes(f)) queue.push(f);
    }
  }
}
