"use strict";
// The reference's tool schemas as fixtures: what of a schema the project keeps (./captureTools.ts).
Object.defineProperty(exports, "__esModule", { value: true });
exports.stripDescriptions = stripDescriptions;
/** A JSON schema without its `description` texts (a property named `description` stays: it is a field). */
function stripDescriptions(schema) {
    if (Array.isArray(schema))
        return schema.map(stripDescriptions);
    if (!schema || typeof schema !== 'object')
        return schema;
    const out = {};
    for (const [k, v] of Object.entries(schema)) {
        if (k === 'description' && typeof v === 'string')
            continue;
        if ((k === 'properties' || k === '$defs' || k === 'definitions' || k === 'patternProperties') &&
            v &&
            typeof v === 'object')
            out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, stripDescriptions(s)]));
        else
            out[k] = stripDescriptions(v);
    }
    return out;
}
//# sourceMappingURL=schemas.js.map