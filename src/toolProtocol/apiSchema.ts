// One zod schema per tool is both the runtime validator and the API `input_schema`.
import { z } from 'zod';
import type { AnyTool } from './Tool';

export interface APIToolSchema {
  name: string;
  description: string;
  input_schema: { type: 'object'; properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };
}

/**
 * JSON Schemas by zod schema: converting is pure and costs ≈ 1 ms a tool, once per model call for
 * every tool offered (≈ 4 % of the worker's main thread in the cost bench, issue 33). Frozen,
 * since every call shares it.
 */
const jsonSchemas = new WeakMap<object, Record<string, unknown>>();

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  let json = jsonSchemas.get(schema);
  if (!json) {
    json = Object.freeze(z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>);
    jsonSchemas.set(schema, json);
  }
  return json;
}

/**
 * Converts a tool to the Messages API `tools[]` entry, using zod's own JSON Schema support in
 * input mode (fields with defaults are optional; `z.strictObject` gives
 * `additionalProperties: false`). The `$schema` key is dropped. Throws, naming the tool, when the
 * schema is not an object or cannot be represented.
 */
export async function toolToAPISchema(tool: AnyTool): Promise<APIToolSchema> {
  let json: Record<string, unknown>;
  if (tool.inputJSONSchema) json = tool.inputJSONSchema;
  else
    try {
      json = jsonSchemaOf(tool.inputSchema as z.ZodType);
    } catch (e) {
      throw new Error(`Tool ${tool.name}: input schema cannot be converted to JSON Schema: ${(e as Error).message}`);
    }
  const { $schema: _ignored, ...rest } = json;
  if (rest.type !== 'object') {
    throw new Error(`Tool ${tool.name}: input schema must be an object schema (got ${JSON.stringify(rest.type)})`);
  }
  return {
    name: tool.name,
    description: await tool.prompt(),
    input_schema: rest as APIToolSchema['input_schema'],
  };
}

export async function toolsToAPISchemas(tools: readonly AnyTool[]): Promise<APIToolSchema[]> {
  return Promise.all(tools.map((t) => toolToAPISchema(t)));
}
