import { type GrepEngineResult, type GrepQuery } from './grepTypes';
/**
 * Compiles a ripgrep (Rust regex) pattern as a JavaScript RegExp. Translates the differences
 * that commonly matter: `(?P<name>` groups, leading inline flags like `(?i)`, `\A` and `\z`.
 */
export declare function compileJsRegex(pattern: string, opts: {
    caseInsensitive: boolean;
    multiline: boolean;
}): RegExp;
export declare function runJavaScript(q: GrepQuery): Promise<GrepEngineResult>;
