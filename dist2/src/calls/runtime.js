"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
//# sourceMappingURL=runtime.js.map