import type { GrepEngineName, GrepEngineResult, GrepQuery } from './grepTypes';
export * from './grepTypes';
export { compileJsRegex } from './grepJs';
export { ripgrepCommand } from './grepRipgrep';
export declare function isRipgrepAvailable(): boolean;
/** `DURABLE_AGENT_GREP_ENGINE=js` forces the fallback, `=rg` requires ripgrep; default: rg if installed. */
export declare function chooseEngine(): GrepEngineName;
export declare function runGrep(query: GrepQuery, engine?: GrepEngineName): Promise<GrepEngineResult>;
