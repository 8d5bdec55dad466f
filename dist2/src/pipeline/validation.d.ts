import type { z } from 'zod';
export declare function formatPath(p: readonly PropertyKey[]): string;
/** One line per issue: which field, and why. */
export declare function describeIssues(issues: readonly z.core.$ZodIssue[], input: unknown): string[];
export declare function formatInputValidationError(toolName: string, error: z.ZodError, input: unknown, note?: string): string;
