// The keys of Claude Code's settings.json that durable-agent does not honour, and what it says
// about each (invariant 12: nothing silently ignored). The list is the settings schema of the
// reference binary (Claude Code 2.1.197: its zod schema, read from the binary) minus the keys
// src/cli/settings.ts honours. Two kinds:
//   - a key that changes what a session does (model, prompt, tools, credentials, environment):
//     a warning of its own, with the reason and what to do instead;
//   - a key that only shapes Claude Code's interactive terminal, its login, updates, plugins
//     marketplace or local housekeeping: one note per file listing them (a user copying their
//     settings is told, not flooded, and never blocked).
// docs/settings.md has a row for each key.

/** Behaviour keys that durable-agent does not implement: the reason shown with the warning. */
export const UNSUPPORTED_KEYS: Readonly<Record<string, string>> = {
  env: "the reference exports these to its own process, Bash, hooks and MCP servers; durable-agent's tools run on the worker and the workflow history would carry the values: set them in the worker's environment",
  apiKeyHelper: 'the worker reads ANTHROPIC_API_KEY',
  proxyAuthHelper: 'the worker uses its own environment for proxies',
  awsAuthRefresh: 'Bedrock credentials are not supported',
  awsCredentialExport: 'Bedrock credentials are not supported',
  gcpAuthRefresh: 'Vertex credentials are not supported',
  otelHeadersHelper: 'telemetry is not supported',
  availableModels: 'a model allowlist is not implemented',
  enforceAvailableModels: 'a model allowlist is not implemented',
  modelOverrides: 'model id overrides are not implemented: set model',
  fallbackModel: 'no fallback model: a transient overload waits and retries (invariant 10)',
  advisorModel: 'no advisor model',
  effortLevel: 'effort is not configurable yet',
  fastMode: 'fast mode is not implemented',
  fastModePerSessionOptIn: 'fast mode is not implemented',
  autoCompactWindow: 'compaction follows the model window (context management, issue 9)',
  includeCoAuthoredBy: 'the default system prompt has no git instructions',
  includeGitInstructions: 'the default system prompt has no git instructions',
  attribution: 'the default system prompt has no git instructions',
  outputStyle: 'output styles are not implemented: use --append-system-prompt',
  language: 'no response-language setting: use --append-system-prompt',
  agent: 'the main session always runs the default agent; subagents come from .claude/agents',
  respectGitignore: "Glob and Grep follow ripgrep's defaults",
  plansDirectory: 'no plan files',
  defaultShell: 'Bash runs /bin/sh on the worker',
  respondToBashCommands: 'no interactive ! commands',
  disableSkillShellExecution: "a skill's !`command` lines are never run here (its body is sent as written)",
  skillOverrides: 'per-skill overrides are not implemented: edit, move or remove the skill',
  disableBundledSkills: 'durable-agent has no bundled skills',
  skipWebFetchPreflight: 'no WebFetch tool',
  worktree: 'no worktree tools',
  allowedHttpHookUrls: 'hooks of type http are not supported (command hooks only)',
  httpHookAllowedEnvVars: 'hooks of type http are not supported (command hooks only)',
  autoMemoryEnabled: "Claude Code's auto memory (~/.claude/projects/<project>/memory) is not read or written",
  autoMemoryDirectory: "Claude Code's auto memory (~/.claude/projects/<project>/memory) is not read or written",
  autoDreamEnabled: "Claude Code's auto memory is not implemented",
  enabledPlugins: 'plugins are not supported',
  extraKnownMarketplaces: 'plugins are not supported',
  strictKnownMarketplaces: 'plugins are not supported',
  blockedMarketplaces: 'plugins are not supported',
  pluginConfigs: 'plugins are not supported',
  disableClaudeAiConnectors: 'claude.ai connectors are not used',
  allowAllClaudeAiMcps: 'claude.ai connectors are not used',
  disableWorkflows: 'no Workflow tool',
  enableWorkflows: 'no Workflow tool',
  workflowKeywordTriggerEnabled: 'no Workflow tool',
  disableArtifact: 'no Artifact tool',
  enableArtifact: 'no Artifact tool',
  disableAutoMode: 'no auto mode: permissions.defaultMode chooses the mode',
  autoMode: 'no auto mode: permissions.defaultMode chooses the mode',
  useAutoModeDuringPlan: 'no auto mode: permissions.defaultMode chooses the mode',
  totalTokensReminder:
    'no token reminders: --max-total-tokens is a budget (the session waits in budget_exceeded, or ends with --on-budget end)',
  totalTokensReminderBudget:
    'no token reminders: --max-total-tokens is a budget (the session waits in budget_exceeded, or ends with --on-budget end)',
  doneMeansMerged: 'not implemented',
  sshConfigs: 'remote hosts: run a worker there (--tool-task-queue)',
  remote: 'remote sessions: run a worker there (--tool-task-queue)',
  isolatePeerMachines: 'remote sessions: run a worker there (--tool-task-queue)',
};

/**
 * Keys that only shape Claude Code's interactive terminal, notifications, login, updates, local
 * housekeeping or plugin marketplace UI: nothing a durable-agent session does depends on them.
 */
export const NOT_APPLICABLE_KEYS: ReadonlySet<string> = new Set([
  'statusLine',
  'subagentStatusLine',
  'spinnerTipsEnabled',
  'spinnerVerbs',
  'spinnerTipsOverride',
  'theme',
  'verbose',
  'editorMode',
  'viewMode',
  'defaultView',
  'tui',
  'voice',
  'voiceEnabled',
  'axScreenReader',
  'prefersReducedMotion',
  'syntaxHighlightingDisabled',
  'terminalTitleFromRename',
  'terminalProgressBarEnabled',
  'showTurnDuration',
  'showMessageTimestamps',
  'showThinkingSummaries',
  'showClearContextOnPlanAccept',
  'autoScrollEnabled',
  'wheelScrollAccelerationEnabled',
  'fileSuggestion',
  'footerLinksRegexes',
  'prUrlTemplate',
  'breakReminder',
  'feedbackSurveyRate',
  'companyAnnouncements',
  'promptSuggestionEnabled',
  'awaySummaryEnabled',
  'preferredNotifChannel',
  'inputNeededNotifEnabled',
  'agentPushNotifEnabled',
  'todoFeatureEnabled',
  'disableAgentView',
  'disableRemoteControl',
  'remoteControlAtStartup',
  'skipDangerousModePermissionPrompt',
  'skipAutoPermissionPrompt',
  'skipWorkflowUsageWarning',
  'pluginTrustMessage',
  'pluginSuggestionMarketplaces',
  'disableSideloadFlags',
  'forceLoginMethod',
  'forceLoginOrgUUID',
  'forceLoginGatewayUrl',
  'xaaIdp',
  'forceRemoteSettingsRefresh',
  'parentSettingsBehavior',
  'autoUpdatesChannel',
  'minimumVersion',
  'requiredMinimumVersion',
  'requiredMaximumVersion',
  'disableDeepLinkRegistration',
  'wslInheritsWindowsSettings',
  'cleanupPeriodDays',
  'cleanupPeriod',
  'autoUploadSessions',
  'channelsEnabled',
  'allowedChannelPlugins',
  'skillListingMaxDescChars',
  'skillListingBudgetFraction',
  'fileCheckpointingEnabled',
  'teammateMode',
  'daemonColdStart',
]);

/** What the loader says of a key it does not honour: a warning of its own, a note (grouped per file), or unknown. */
export function unhonouredKey(
  key: string,
): { kind: 'unsupported'; reason: string } | { kind: 'not-applicable' } | { kind: 'unknown' } {
  const reason = Object.hasOwn(UNSUPPORTED_KEYS, key) ? UNSUPPORTED_KEYS[key] : undefined;
  if (reason !== undefined) return { kind: 'unsupported', reason };
  return NOT_APPLICABLE_KEYS.has(key) ? { kind: 'not-applicable' } : { kind: 'unknown' };
}
