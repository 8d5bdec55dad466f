/** `$DURABLE_AGENT_HOME`, else `~/.durable-agent`. */
export declare function durableAgentHome(env?: Readonly<Record<string, string | undefined>>): string;
/** The dev server's SQLite file: `$DURABLE_AGENT_DEV_DB`, else `<data home>/temporal.db`. */
export declare function defaultDevDb(env?: Readonly<Record<string, string | undefined>>): string;
