"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sessionModel = sessionModel;
// The session's model from the command line, the environment and the settings, as the reference picks it.
const definitions_1 = require("../agents/definitions");
/**
 * The session's model as the reference picks it: `--model`, else `ANTHROPIC_MODEL`, else the
 * settings' `model` (the managed file's beats all three, applied by the caller); an alias
 * (`sonnet`, `opus`, `haiku`, `best`, `opusplan`) becomes a model id as for subagents
 * (src/agents/definitions.ts, with the reference's ANTHROPIC_DEFAULT_*_MODEL overrides). The
 * reference's `[1m]` suffix (a 1M-token context beta) is dropped with a warning.
 */
function sessionModel(flag, env, settings, warn) {
    const chosen = flag ?? env.ANTHROPIC_MODEL ?? settings;
    if (chosen === undefined)
        return undefined;
    let name = chosen;
    if (/\[1m\]$/i.test(name)) {
        name = name.slice(0, -4);
        warn(`model ${chosen}: the 1M-token context beta is not supported; using ${name}`);
    }
    const alias = name === 'best' ? 'opus' : name === 'opusplan' ? 'sonnet' : name;
    return (0, definitions_1.resolveAgentModel)(alias, alias, env);
}
//# sourceMappingURL=model.js.map