"use strict";
// Types for the fake Anthropic Messages API: the wire shapes it sends and the scripting specs it takes.
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=types.js.map