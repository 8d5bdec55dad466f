import type { AnyTool } from './Tool';
export interface APIToolSchema {
    name: string;
    description: string;
    input_schema: {
        type: 'object';
        properties?: Record<string, unknown>;
        required?: string[];
        [key: string]: unknown;
    };
}
/**
 * Converts a tool to the Messages API `tools[]` entry, using zod's own JSON Schema support in
 * input mode (fields with defaults are optional; `z.strictObject` gives
 * `additionalProperties: false`). The `$schema` key is dropped. Throws, naming the tool, when the
 * schema is not an object or cannot be represented.
 */
export declare function toolToAPISchema(tool: AnyTool): Promise<APIToolSchema>;
export declare function toolsToAPISchemas(tools: readonly AnyTool[]): Promise<APIToolSchema[]>;
