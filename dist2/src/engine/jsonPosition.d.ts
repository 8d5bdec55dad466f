/** The offset of the first character that makes `text` invalid JSON, or undefined when it is valid. */
export declare function jsonErrorOffset(text: string): number | undefined;
/** 1-based line and column of an offset. */
export declare function lineColumn(text: string, offset: number): {
    line: number;
    column: number;
};
/**
 * "<file> is not valid JSON at line L column C: <what JSON.parse said>" for a user's config file
 * (settings, .mcp.json, .claude.json). `body` is the text that was parsed.
 */
export declare function invalidJsonMessage(path: string, body: string, err: unknown): string;
/** A config file's JSON: a UTF-8 byte-order mark is skipped; throws `invalid(message)` on malformed JSON. */
export declare function parseConfigJson(path: string, text: string, invalid: (message: string) => Error): unknown;
