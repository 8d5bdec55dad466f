export { buildAudit, type BuildAuditOptions } from './session';
export { failureText } from './history';
export { auditEntries, auditJsonLines, formatAuditText, formatDecision, gapLine } from './format';
export type * from './types';
