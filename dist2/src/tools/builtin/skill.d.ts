import { z } from 'zod';
declare const inputSchema: z.ZodObject<{
    skill: z.ZodString;
    args: z.ZodOptional<z.ZodString>;
}, z.core.$strict>;
export type SkillInput = z.infer<typeof inputSchema>;
export interface SkillOutput {
    success: boolean;
    commandName: string;
    /** The rules the skill allows from now on (`allowed-tools`). */
    allowedTools?: string[];
    /** The model the session uses from now on (`model`), as written in the skill. */
    model?: string;
    /** The text the model gets after `Launching skill: <name>`. */
    text: string;
}
/** The name the call means: a leading `/` (as a user types it) is dropped. */
export declare function skillNameOf(input: Pick<SkillInput, 'skill'>): string;
export declare const SkillTool: import("../Tool").Tool<{
    skill: string;
    args?: string | undefined;
}, SkillOutput>;
export {};
