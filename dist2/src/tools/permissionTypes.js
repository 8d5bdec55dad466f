"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PERMISSION_MODES = void 0;
exports.PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions'];
//# sourceMappingURL=permissionTypes.js.map