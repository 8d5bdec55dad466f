"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.findToolByName = findToolByName;
/** Finds a tool of the pool by name or alias. Only the pool is searched. */
function findToolByName(pool, name) {
    return pool.find((t) => t.name === name) ?? pool.find((t) => (t.aliases ?? []).includes(name));
}
//# sourceMappingURL=pool.js.map