"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.addStopCommand = addStopCommand;
const options_1 = require("../options");
function addStopCommand(program) {
    (0, options_1.addConnectionOptions)(program
        .command('stop')
        .description("End a session's loop: drop its wake-up and cron jobs; it ends at its next idle point")
        .argument('<id>')
        .option('--json', 'JSON')).action(async (id, o) => (0, options_1.withClient)(o, async (client) => {
        const { stopSession } = await Promise.resolve().then(() => __importStar(require('../../client')));
        await stopSession(client, id, (0, options_1.identity)());
        (0, options_1.print)(o, { session: id, stopRequested: true }, `stop sent to ${id}: it ends at its next idle point`);
    }));
}
//# sourceMappingURL=stop.js.map