/**
 * Problems with the shape of a session input, as readable strings (empty when valid): what the
 * workflow needs to run at all, so it fails at once with a non-retryable error instead of retrying
 * a broken workflow task forever.
 */
export declare function sessionInputShapeProblems(input: unknown): string[];
