// The two Grep engines: ripgrep (when installed) and a JavaScript fallback. Both return the same
// structured hits; grep.ts sorts and formats them, so the model sees one output format.
// This file chooses the engine; grepRipgrep.ts and grepJs.ts are the engines, grepTypes.ts their data.
import { runHostProcessSync } from '../hostProcess/door';
import { runJavaScript } from './grepJs';
import { ripgrepCommand, runRipgrep } from './grepRipgrep';
import type { GrepEngineName, GrepEngineResult, GrepQuery } from './grepTypes';

export * from './grepTypes';
export { compileJsRegex } from './grepJs';
export { ripgrepCommand } from './grepRipgrep';

// ---------------------------------------------------------------------------------------------
// Engine choice

let rgAvailable: boolean | undefined;

export function isRipgrepAvailable(): boolean {
  if (rgAvailable === undefined) {
    const r = runHostProcessSync(
      { purpose: 'ripgrep', command: ripgrepCommand(), args: ['--version'], cwd: '/' },
      { timeoutMs: 5000 },
    );
    rgAvailable = r.code === 0;
  }
  return rgAvailable;
}

/** `DURABLE_AGENT_GREP_ENGINE=js` forces the fallback, `=rg` requires ripgrep; default: rg if installed. */
export function chooseEngine(): GrepEngineName {
  const forced = (process.env.DURABLE_AGENT_GREP_ENGINE ?? '').toLowerCase();
  if (forced === 'js' || forced === 'javascript') return 'javascript';
  if (forced === 'rg' || forced === 'ripgrep') {
    if (!isRipgrepAvailable()) throw new Error('DURABLE_AGENT_GREP_ENGINE=rg but ripgrep (rg) is not installed');
    return 'ripgrep';
  }
  return isRipgrepAvailable() ? 'ripgrep' : 'javascript';
}

export async function runGrep(query: GrepQuery, engine: GrepEngineName = chooseEngine()): Promise<GrepEngineResult> {
  return engine === 'ripgrep' ? runRipgrep(query) : runJavaScript(query);
}
