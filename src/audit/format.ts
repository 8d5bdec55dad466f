// Output formats of the audit report: readable text and JSON lines.
import { costText, modelUsageTotals, totalCostUsd, type ModelUsage } from '../core/modelUsage';
import type {
  AuditCompaction,
  AuditDecision,
  AuditEntry,
  AuditGap,
  AuditModelCall,
  AuditReport,
  AuditSessionHook,
  AuditTask,
  AuditToolCall,
} from './types';

type TimedEntry = AuditModelCall | AuditToolCall | AuditCompaction | AuditSessionHook | AuditTask;

/**
 * Session hooks, compactions, model and tool calls and background tasks in time order (an entry
 * without a time keeps its place after the one before it; a task's place is after its turn's calls).
 */
export function auditEntries(report: AuditReport): TimedEntry[] {
  const natural: TimedEntry[] = [...(report.sessionHooks ?? [])];
  const turns = [...new Set([...report.modelCalls.map((m) => m.turn), ...report.toolCalls.map((t) => t.turn)])].sort(
    (a, b) => a - b,
  );
  for (const turn of turns) {
    natural.push(...(report.compactions ?? []).filter((c) => c.turn === turn));
    natural.push(...report.modelCalls.filter((m) => m.turn === turn));
    natural.push(...report.toolCalls.filter((t) => t.turn === turn));
    natural.push(...(report.tasks ?? []).filter((t) => t.turn === turn));
  }
  natural.push(...(report.tasks ?? []).filter((t) => t.turn === undefined || !turns.includes(t.turn)));
  let last = -Infinity;
  const keyed = natural.map((entry, index) => {
    const t = entry.startedAt ? Date.parse(entry.startedAt) : NaN;
    if (Number.isFinite(t)) last = Math.max(last, t);
    return { entry, index, t: Number.isFinite(t) ? t : last };
  });
  keyed.sort((a, b) => a.t - b.t || a.index - b.index);
  return keyed.map((k) => k.entry);
}

/** One JSON object per line: the session first, then every model and tool call in time order. */
export function auditJsonLines(report: AuditReport): string {
  // Gaps right after the session line: a reader sees first that the report is incomplete, and where.
  const entries: AuditEntry[] = [report.session, ...(report.gaps ?? []), ...auditEntries(report)];
  // A subagent's lines follow, each session line first (its sessionId names the child: `<session>/agent-<id>`).
  return `${entries.map((e) => JSON.stringify(e)).join('\n')}\n${(report.subagents ?? []).map(auditJsonLines).join('')}`;
}

function clock(isoTime: string | undefined): string {
  return isoTime ? isoTime.slice(11, 23) : '?'.padEnd(12);
}

function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function formatDecision(d: AuditDecision | undefined): string {
  if (!d) return '-';
  const what = [d.detail, d.by].filter((x): x is string => x !== undefined && x !== '').join(' ');
  return `${d.behavior} [${d.source}${what ? `: ${what}` : ''}]`;
}

function toolLine(c: AuditToolCall): string {
  let decision = formatDecision(c.decision);
  if (c.approval && c.approval.resolution !== undefined)
    decision = `ask [${c.approval.asked.source}${c.approval.asked.detail ? `: ${c.approval.asked.detail}` : ''}] → ${decision}`;
  if (c.decision?.reason && (c.decision.source === 'human' || c.decision.behavior === 'deny'))
    decision += ` "${cut(c.decision.reason, 60)}"`;
  let attempts = `${c.attempts} att`;
  if (c.approval?.resolution) attempts += ` (ask→${c.approval.resolution})`;
  else if (c.approval) attempts += ' (ask, waiting)';
  const failures = c.activities.flatMap((a) => a.failures);
  const extras = [
    c.modelUsage ? `model calls ${spentText(c.modelUsage)}` : '',
    c.batch !== undefined ? `batch ${c.batch}${c.concurrent ? ' ∥' : ''}` : '',
    c.reused ? 'reused' : '',
    c.discarded
      ? `DISCARDED: started while the model streamed, ${c.discarded.state === 'cancelled' ? 'cancelled' : 'completed'}; ${cut(c.discarded.reason, 100)}`
      : c.early
        ? 'started while the model streamed'
        : '',
    c.sandbox ? (c.sandbox.sandboxed ? 'sandboxed' : `UNSANDBOXED (${cut(c.sandbox.reason, 60)})`) : '',
    c.sandbox?.violations?.length ? `sandbox blocked: ${c.sandbox.violations.map((v) => cut(v, 80)).join(' | ')}` : '',
    c.network
      ? `fetched ${c.network.bytes} bytes: ${c.network.requests.map((r) => `${cut(r.url, 80)} (${r.address}) ${r.status}`).join(' → ')}${c.network.redirectedTo ? `; redirect to ${cut(c.network.redirectedTo, 80)} not followed` : ''}`
      : '',
    failures.length ? `failures: ${failures.map((f) => cut(f, 60)).join(' | ')}` : '',
    c.notices?.length ? `notices: ${c.notices.map((n) => cut(n, 80)).join(' | ')}` : '',
    c.controlWrites?.length ? `CONTROL FILES: ${c.controlWrites.map((w) => `${w.path} ${w.change}`).join(' | ')}` : '',
  ].filter(Boolean);
  return [
    clock(c.startedAt ?? c.endedAt),
    `t${c.turn}`.padEnd(4),
    'tool '.padEnd(6),
    c.toolUseId.padEnd(22),
    cut(c.summary, 48).padEnd(48),
    decision.padEnd(34),
    c.status.padEnd(17),
    attempts.padEnd(10),
    ...(extras.length ? [extras.join(', ')] : []),
    `→ ${JSON.stringify(c.resultPreview)}`,
  ].join('  ');
}

/** A task's row: what it ran, how it ended, when, its exit, output size and where its whole output is. */
function taskLine(t: AuditTask): string {
  const ran = t.taskKind === 'local_agent' ? t.command : `$ ${t.command}`;
  const what = `${t.taskKind}: ${t.description && t.description !== t.command ? `${t.description} (${ran})` : ran}`;
  const extras = [
    t.endedAt ? `ended ${clock(t.endedAt)}` : '',
    t.exitCode !== undefined && t.exitCode !== null ? `exit ${t.exitCode}` : '',
    t.signal ? `signal ${t.signal}` : '',
    t.outputBytes !== undefined ? `${t.outputBytes} B output` : '',
    t.events !== undefined ? `${t.events} event${t.events === 1 ? '' : 's'}` : '',
    t.stoppedBy ? `stopped by ${t.stoppedBy}` : '',
    t.childSession ? `session ${t.childSession}` : '',
    t.sandboxed === false ? 'UNSANDBOXED' : t.sandboxed ? 'sandboxed' : '',
    t.violations ? `${t.violations} sandbox violation${t.violations === 1 ? '' : 's'}` : '',
    t.error ? `error: ${cut(t.error, 100)}` : '',
    t.outputFile ? `file ${t.outputFile}` : '',
    t.outputRef ? `stored ${t.outputRef}` : '',
  ].filter(Boolean);
  return [
    clock(t.startedAt),
    (t.turn !== undefined ? `t${t.turn}` : '-').padEnd(4),
    'task'.padEnd(6),
    t.activityId.padEnd(22),
    cut(what, 48).padEnd(48),
    (t.toolUseId ? `by ${t.tool ?? 'call'} ${t.toolUseId}` : '-').padEnd(34),
    t.state.padEnd(17),
    `${t.attempts} att`.padEnd(10),
    ...(extras.length ? [extras.join(', ')] : []),
  ].join('  ');
}

/** A call's cost: "$0.001234", or "cost unknown" (a model without a price). */
function costOnly(m: ModelUsage): string {
  const c = totalCostUsd(m);
  return c === null ? `cost unknown (no price for ${Object.keys(m).join(', ')})` : `$${c.toFixed(6)}`;
}

/** A tool call's model calls: count, tokens and cost. */
function spentText(m: ModelUsage): string {
  const t = modelUsageTotals(m);
  const calls = Object.values(m).reduce((n, e) => n + e.calls, 0);
  return `${calls}: ${usageText(t)}${t.web_search_requests ? `, ${t.web_search_requests} web search(es)` : ''}, ${costOnly(m)}`;
}

function usageText(u: AuditModelCall['usage']): string {
  if (!u) return '';
  const cache =
    u.cache_read_input_tokens || u.cache_creation_input_tokens
      ? ` (cache read ${u.cache_read_input_tokens ?? 0} / written ${u.cache_creation_input_tokens ?? 0})`
      : '';
  return `in ${u.input_tokens} / out ${u.output_tokens}${cache}`;
}

function compactionLine(c: AuditCompaction): string {
  const tokens =
    c.tokensAfter !== undefined
      ? `${c.tokensBefore ?? '?'} → ${c.tokensAfter} tokens`
      : `${c.tokensBefore ?? '?'} tokens`;
  const extras = [
    usageText(c.usage),
    c.modelUsage ? costOnly(c.modelUsage) : '',
    c.blockedBy ? `blocked by PreCompact hook: ${cut(c.blockedBy, 60)}` : '',
    c.hooks.length ? `hooks: ${c.hooks.map((h) => `${cut(h.hook, 30)} ${h.outcome}`).join(', ')}` : '',
    c.failures.length ? `failures: ${c.failures.map((f) => cut(f, 60)).join(' | ')}` : '',
  ].filter(Boolean);
  return [
    clock(c.startedAt),
    `t${c.turn}`.padEnd(4),
    'compact'.padEnd(6),
    c.activityId.padEnd(22),
    cut(`${c.trigger} compaction: ${tokens}`, 48).padEnd(48),
    '-'.padEnd(34),
    c.status.padEnd(17),
    `${c.attempts} att`.padEnd(10),
    ...(extras.length ? [extras.join(', ')] : []),
    ...(c.summaryPreview ? [`→ ${JSON.stringify(cut(c.summaryPreview, 80))}`] : []),
  ].join('  ');
}

function modelLine(m: AuditModelCall): string {
  const usage = usageText(m.usage);
  const what = `${m.model}${m.stopReason ? ` → ${m.stopReason}` : ''}${m.toolUseIds.length ? ` (${m.toolUseIds.length} tool use${m.toolUseIds.length === 1 ? '' : 's'})` : ''}`;
  const extras = [
    usage,
    m.modelUsage ? costOnly(m.modelUsage) : '',
    m.thinkingBlocks
      ? `${m.thinkingBlocks} thinking${m.redactedThinkingBlocks ? ` (${m.redactedThinkingBlocks} redacted)` : ''}`
      : '',
    m.fallback ? 'FALLBACK (non-streamed)' : '',
    ...m.tombstones.map((t) => `tombstone: ${cut(t.error, 60)}; partial ${JSON.stringify(cut(t.partialPreview, 60))}`),
    m.failures.length ? `failures: ${m.failures.map((f) => cut(f, 80)).join(' | ')}` : '',
  ].filter(Boolean);
  return [
    clock(m.startedAt),
    `t${m.turn}`.padEnd(4),
    'model'.padEnd(6),
    m.activityId.padEnd(22),
    cut(what, 48).padEnd(48),
    '-'.padEnd(34),
    m.status.padEnd(17),
    `${m.attempts} att`.padEnd(10),
    ...(extras.length ? [extras.join(', ')] : []),
    ...(m.textPreview ? [`→ ${JSON.stringify(cut(m.textPreview, 80))}`] : []),
  ].join('  ');
}

/** One gap: what could not be read, where, why, and what the report lacks because of it. */
export function gapLine(g: AuditGap): string {
  const where = `${g.workflowId}${g.runId ? ` (run ${g.runId})` : ''}${g.eventId !== undefined ? ` event ${g.eventId} ${g.eventType ?? ''}`.trimEnd() : ''}`;
  const what =
    g.what === 'history'
      ? 'history unavailable'
      : g.what === 'payload'
        ? `undecodable ${g.field ?? 'payload'}`
        : 'running activities not described';
  return `${what}: ${where}: ${cut(g.error, 160)} — missing ${g.missing}`;
}

function sessionHookLine(h: AuditSessionHook): string {
  const fields = Object.entries(h.fields)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? JSON.stringify(cut(v, 40)) : String(v)}`)
    .join(' ');
  const hooks = h.hooks
    .map(
      (r) =>
        `${r.outcome}${r.exitCode !== undefined && r.exitCode !== null && r.exitCode !== 0 ? ` (exit ${r.exitCode})` : ''}`,
    )
    .join(', ');
  const extras = [
    h.reason ? `${h.decision}: ${cut(h.reason, 80)}` : '',
    h.additionalContext?.length ? `context: ${JSON.stringify(cut(h.additionalContext.join(' / '), 80))}` : '',
    ...(h.notices ?? []).map((n) => `notice: ${cut(n, 80)}`),
    h.failures.length ? `failures: ${h.failures.map((f) => cut(f, 80)).join(' | ')}` : '',
  ].filter(Boolean);
  return [
    clock(h.startedAt),
    '-'.padEnd(4),
    'hook'.padEnd(6),
    h.activityId.padEnd(22),
    cut(
      `${h.event}${fields ? ` ${fields}` : ''}: ${h.hooks.length} hook${h.hooks.length === 1 ? '' : 's'}${hooks ? ` (${hooks})` : ''}`,
      48,
    ).padEnd(48),
    h.decision.padEnd(34),
    h.status.padEnd(17),
    `${h.attempts} att`.padEnd(10),
    ...(extras.length ? [extras.join(', ')] : []),
  ].join('  ');
}

/** The readable report: a header with the session's facts, then one line per call in time order. */
export function formatAuditText(report: AuditReport): string {
  const s = report.session;
  const lines: string[] = [];
  lines.push(`Session ${s.sessionId}: ${s.status}${s.endReason ? ` (${s.endReason})` : ''}`);
  lines.push(`  prompt: ${JSON.stringify(cut(s.prompt, 200))}`);
  lines.push(
    `  ${[
      s.model,
      s.permissionMode ? `mode ${s.permissionMode}` : '',
      `${s.runs} run${s.runs === 1 ? '' : 's'}`,
      `${s.turns} turn${s.turns === 1 ? '' : 's'}`,
      `${s.modelCalls} model calls`,
      `${s.toolCalls} tool calls`,
      s.tasks ? `${s.tasks} background task${s.tasks === 1 ? '' : 's'}` : '',
      `tokens ${usageText(s.usage)}`,
      s.modelUsage ? `cost ${costText(s.modelUsage)}` : '',
      s.compactions ? `${s.compactions} compaction${s.compactions === 1 ? '' : 's'}` : '',
    ]
      .filter(Boolean)
      .join(' · ')}`,
  );
  if (s.sandbox) lines.push(`  sandbox: ${s.sandbox}`);
  if (s.settingsSources) lines.push(`  settings: ${s.settingsSources.length ? s.settingsSources.join(', ') : 'none'}`);
  if (s.memory) lines.push(`  memory: ${s.memory.files.join(', ')} (sha256 ${s.memory.sha256.slice(0, 12)})`);
  if (s.startedAt)
    lines.push(`  started ${s.startedAt}${s.endedAt ? ` · ended ${s.endedAt}` : ''} (times below are UTC)`);
  // Every write to a control file, up front: what the next session here would load or run.
  const writes = report.toolCalls.flatMap((c) => (c.controlWrites ?? []).map((w) => ({ ...w, call: c })));
  if (writes.length) {
    lines.push(`  control files written (${writes.length}):`);
    for (const w of writes)
      lines.push(
        `    ⚠ ${s.cwd && w.path.startsWith(`${s.cwd}/`) ? w.path.slice(s.cwd.length + 1) : w.path} ${w.change} by ${w.call.tool} ${w.call.toolUseId} (turn ${w.call.turn}): ${cut(w.call.summary, 80)}`,
      );
  }
  if (report.gaps?.length) {
    lines.push(
      `  INCOMPLETE: ${report.gaps.length} part${report.gaps.length === 1 ? '' : 's'} of the history could not be read:`,
    );
    for (const g of report.gaps) lines.push(`    ${gapLine(g)}`);
  }
  lines.push('');
  lines.push(
    [
      'TIME'.padEnd(12),
      'TURN',
      'KIND  ',
      'CALL'.padEnd(22),
      'WHAT'.padEnd(48),
      'DECISION'.padEnd(34),
      'STATUS'.padEnd(17),
      'ATTEMPTS'.padEnd(10),
      'RESULT',
    ].join('  '),
  );
  // Session events (follow-up messages, interrupts) interleave with the calls by time.
  const notes = [
    ...s.messages.map((m) => ({
      at: m.at,
      text: `${clock(m.at)}  »  user message: ${JSON.stringify(cut(m.text, 120))}`,
    })),
    ...s.interrupts.map((i) => ({
      at: i.at,
      text: `${clock(i.at)}  »  interrupt${i.by ? ` by ${i.by}` : ''}${i.reason ? `: ${i.reason}` : ''}`,
    })),
  ].sort((a, b) => (a.at ?? '').localeCompare(b.at ?? ''));
  for (const entry of auditEntries(report)) {
    const at = entry.startedAt ?? entry.endedAt;
    while (notes.length && notes[0]?.at && at && notes[0].at < at) lines.push((notes.shift() as { text: string }).text);
    lines.push(
      entry.kind === 'model_call'
        ? modelLine(entry)
        : entry.kind === 'compaction'
          ? compactionLine(entry)
          : entry.kind === 'session_hook'
            ? sessionHookLine(entry)
            : entry.kind === 'task'
              ? taskLine(entry)
              : toolLine(entry),
    );
  }
  for (const n of notes) lines.push(n.text);
  // Subagents: each child session's own report, indented under the parent's.
  for (const child of report.subagents ?? []) {
    lines.push('');
    for (const l of formatAuditText(child).trimEnd().split('\n')) lines.push(l === '' ? '' : `    ${l}`);
  }
  return `${lines.join('\n')}\n`;
}
