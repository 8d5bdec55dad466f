import { type GrepEngineResult, type GrepQuery } from './grepTypes';
export declare function ripgrepCommand(): string;
export declare function runRipgrep(q: GrepQuery): Promise<GrepEngineResult>;
