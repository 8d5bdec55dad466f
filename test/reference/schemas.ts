// The reference's tool schemas as fixtures: what of a schema the project keeps (./captureTools.ts).

/** A JSON schema without its `description` texts (a property named `description` stays: it is a field). */
export function stripDescriptions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(stripDescriptions);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'description' && typeof v === 'string') continue;
    if (
      (k === 'properties' || k === '$defs' || k === 'definitions' || k === 'patternProperties') &&
      v &&
      typeof v === 'object'
    )
      out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, stripDescriptions(s)]));
    else out[k] = stripDescriptions(v);
  }
  return out;
}
