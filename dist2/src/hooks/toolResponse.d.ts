/** Is every command of the line (split at `&&`, `||`, `;`, `|`, newlines) one that prints nothing? */
export declare function noOutputExpected(command: string): boolean;
/** What the reference keeps of a persisted output in `stdout`. */
export declare const HOOK_STDOUT_MAX_CHARS = 30000;
/**
 * The tool_response of a successful call. `input` is the input the tool ran with; `persisted`
 * says where a result too large to keep inline was stored.
 */
export declare function hookToolResponse(toolName: string, data: unknown, input: unknown, persisted?: {
    path: string;
    size: number;
}): unknown;
