// The audit trail of a session, rebuilt from its Temporal histories: the session's runs
// (session.ts), each turn (turn.ts, toolCalls.ts), read and decoded by history.ts.
export { buildAudit, type BuildAuditOptions } from './session';
export { failureText } from './history';
export { auditEntries, auditJsonLines, formatAuditText, formatDecision, gapLine } from './format';
export type * from './types';
