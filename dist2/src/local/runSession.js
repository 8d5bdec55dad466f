"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.startLocalSession = startLocalSession;
exports.runLocalSession = runLocalSession;
const sessionRun_1 = require("./sessionRun");
/**
 * Starts a session in-process. `worker` builds its dependencies as a worker's (tools, hooks, the
 * Anthropic client…); its store is `worker.storeDir` when given, else a temporary directory that
 * is removed when the session ends (src/local/store.ts): never the machine's store.
 */
function startLocalSession(opts, worker = {}) {
    const run = new sessionRun_1.LocalSessionRun(opts, worker, runLocalSession);
    return {
        sessionId: run.sessionId,
        storeDir: run.store.storeDir,
        result: run.run(),
        send: (text) => run.send(text),
        interrupt: () => run.interrupt(),
        stop: () => run.stop(),
        status: () => run.statusView(),
    };
}
/**
 * Runs a session to its end. `signal` interrupts the running turn; since nothing can send a
 * follow-up here, an interrupted session ends unless `onInterrupt: 'wait'` is given (use
 * startLocalSession to send follow-ups).
 */
async function runLocalSession(opts, worker = {}) {
    const s = startLocalSession({ ...opts, onInterrupt: opts.onInterrupt ?? 'end' }, worker);
    if (opts.signal) {
        if (opts.signal.aborted)
            s.interrupt();
        else
            opts.signal.addEventListener('abort', () => s.interrupt(), { once: true });
    }
    return s.result;
}
//# sourceMappingURL=runSession.js.map