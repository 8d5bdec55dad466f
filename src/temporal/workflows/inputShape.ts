// FROZEN: the session workflow's own check of its input, run on every run and continue-as-new
// and on every replay of them. Never edit this function: a rule added here would fail a running
// session at its next continue-as-new, or fail its replay. Validation that may change (hook keys,
// settings, sandbox, agents) runs at the edge, before a session starts (src/sessionInput.ts). A new
// structural rule the workflow must enforce goes into a new function behind a new `patched()` id
// (src/temporal/workflows/versions.ts). Imports nothing: it is workflow code.
import type { ModelSettingsInput, SessionInput } from './definitions';

/**
 * Problems with the shape of a session input, as readable strings (empty when valid): what the
 * workflow needs to run at all, so it fails at once with a non-retryable error instead of retrying
 * a broken workflow task forever.
 */
export function sessionInputShapeProblems(input: unknown): string[] {
  const problems: string[] = [];
  if (!input || typeof input !== 'object') return ['the session input must be an object'];
  const i = input as Partial<Record<keyof SessionInput, unknown>>;
  const modes = ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions'];
  if (typeof i.prompt !== 'string' || i.prompt.trim() === '') problems.push('prompt must be a non-empty string');
  const model = i.model as Partial<ModelSettingsInput> | undefined;
  if (!model || typeof model.model !== 'string' || model.model === '')
    problems.push('model.model must be a model name');
  if (!model || typeof model.maxTokens !== 'number' || !Number.isInteger(model.maxTokens) || model.maxTokens < 1)
    problems.push('model.maxTokens must be a positive integer');
  if (!Array.isArray(i.tools) || i.tools.some((t) => typeof t !== 'string'))
    problems.push('tools must be a list of tool names');
  if (typeof i.permissionMode !== 'string' || !modes.includes(i.permissionMode))
    problems.push(`permissionMode must be one of ${modes.join(', ')}`);
  // Only the shape: what a hook may say is the edge's business (src/sessionInput.ts), since the
  // rules of hooks/config.ts change between releases. Every hooks value accepted since hooks were
  // checked here at all (a6c0c09: unknown events rejected) is an object, so this rejects nothing
  // that ever ran.
  if (i.hooks !== undefined && (!i.hooks || typeof i.hooks !== 'object' || Array.isArray(i.hooks)))
    problems.push('hooks must be an object of hook events');
  const rules = i.rules as Partial<Record<string, unknown>> | undefined;
  for (const k of ['allow', 'ask', 'deny']) {
    if (!rules || !Array.isArray(rules[k]) || (rules[k] as unknown[]).some((r) => typeof r !== 'string'))
      problems.push(`rules.${k} must be a list of rule strings`);
  }
  if (typeof i.cwd !== 'string' || !i.cwd.startsWith('/')) problems.push('cwd must be an absolute path');
  if (i.disableBypassPermissionsMode === true && i.permissionMode === 'bypassPermissions') {
    problems.push('bypassPermissions mode is disabled by permissions.disableBypassPermissionsMode ("disable")');
  }
  if (i.streamingToolExecution !== undefined && typeof i.streamingToolExecution !== 'boolean')
    problems.push('streamingToolExecution must be true or false');
  if (i.sandbox !== undefined && (!i.sandbox || typeof i.sandbox !== 'object' || Array.isArray(i.sandbox)))
    problems.push('sandbox must be an object of sandbox settings');
  for (const k of [
    'maxTurns',
    'maxTotalTokens',
    'approvalTimeoutMs',
    'idleTimeoutMs',
    'maxConcurrency',
    'toolHeartbeatTimeoutMs',
    'maxHistoryBytesPerRun',
    'maxStepsPerTurn',
    'retryCapMs',
    'maxOutageMs',
  ] as const) {
    const v = i[k];
    if (v !== undefined && (typeof v !== 'number' || !(v > 0))) problems.push(`${k} must be a positive number`);
  }
  const cm = i.contextManagement as Record<string, unknown> | undefined;
  if (cm !== undefined) {
    if (!cm || typeof cm !== 'object') problems.push('contextManagement must be an object');
    else {
      for (const k of [
        'autoCompactPct',
        'autoCompactWindow',
        'contextWindow',
        'keepToolResults',
        'clearToolResultsAt',
      ]) {
        const v = cm[k];
        if (v !== undefined && (typeof v !== 'number' || !(v >= 0)))
          problems.push(`contextManagement.${k} must be a non-negative number`);
      }
      for (const k of ['autoCompact', 'disable1mContext', 'promptCaching']) {
        if (cm[k] !== undefined && typeof cm[k] !== 'boolean')
          problems.push(`contextManagement.${k} must be true or false`);
      }
    }
  }
  return problems;
}
