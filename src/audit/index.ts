// The audit trail of a session, rebuilt from its Temporal histories (see build.ts).
export { buildAudit, failureText, type BuildAuditOptions } from './build';
export { auditEntries, auditJsonLines, formatAuditText, formatDecision } from './format';
export type * from './types';
