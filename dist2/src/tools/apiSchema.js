"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.toolToAPISchema = toolToAPISchema;
exports.toolsToAPISchemas = toolsToAPISchemas;
// One zod schema per tool is both the runtime validator and the API `input_schema`.
const zod_1 = require("zod");
/**
 * Converts a tool to the Messages API `tools[]` entry, using zod's own JSON Schema support in
 * input mode (fields with defaults are optional; `z.strictObject` gives
 * `additionalProperties: false`). The `$schema` key is dropped. Throws, naming the tool, when the
 * schema is not an object or cannot be represented.
 */
async function toolToAPISchema(tool) {
    let json;
    if (tool.inputJSONSchema)
        json = tool.inputJSONSchema;
    else
        try {
            json = zod_1.z.toJSONSchema(tool.inputSchema, { io: 'input' });
        }
        catch (e) {
            throw new Error(`Tool ${tool.name}: input schema cannot be converted to JSON Schema: ${e.message}`);
        }
    const { $schema: _ignored, ...rest } = json;
    if (rest.type !== 'object') {
        throw new Error(`Tool ${tool.name}: input schema must be an object schema (got ${JSON.stringify(rest.type)})`);
    }
    return {
        name: tool.name,
        description: await tool.prompt(),
        input_schema: rest,
    };
}
async function toolsToAPISchemas(tools) {
    return Promise.all(tools.map((t) => toolToAPISchema(t)));
}
//# sourceMappingURL=apiSchema.js.map