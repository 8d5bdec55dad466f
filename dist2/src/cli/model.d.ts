/**
 * The session's model as the reference picks it: `--model`, else `ANTHROPIC_MODEL`, else the
 * settings' `model` (the managed file's beats all three, applied by the caller); an alias
 * (`sonnet`, `opus`, `haiku`, `best`, `opusplan`) becomes a model id as for subagents
 * (src/agents/definitions.ts, with the reference's ANTHROPIC_DEFAULT_*_MODEL overrides). The
 * reference's `[1m]` suffix (a 1M-token context beta) is dropped with a warning.
 */
export declare function sessionModel(flag: string | undefined, env: NodeJS.ProcessEnv, settings: string | undefined, warn: (w: string) => void): string | undefined;
