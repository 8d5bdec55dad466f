/** A JSON schema without its `description` texts (a property named `description` stays: it is a field). */
export declare function stripDescriptions(schema: unknown): unknown;
