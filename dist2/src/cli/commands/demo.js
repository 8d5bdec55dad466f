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
exports.addDemoCommand = addDemoCommand;
const options_1 = require("../options");
function addDemoCommand(program) {
    (0, options_1.addServerOptions)(program
        .command('demo')
        .description('Run the demo on the embedded default: dev server + UI + worker + a session on a scratch copy of the sample project'))
        .option('--no-auto-approve', 'leave the approval to you (durable-agent approve …)')
        .option('--exit', 'stop the server when the demo session ends')
        .action(async (o, cmd) => {
        const { runDemo } = await Promise.resolve().then(() => __importStar(require('../demo')));
        process.exitCode = await runDemo({
            ...o,
            defaultDb: cmd.getOptionValueSource('db') === 'default',
            exit: o.exit ?? false,
            waitForSignal: options_1.waitForSignal,
        });
    });
}
//# sourceMappingURL=demo.js.map