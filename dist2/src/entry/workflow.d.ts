export * from './tools';
export { TASK_QUEUE_DEFAULT, STATUS_SEARCH_ATTRIBUTE, statusQuery, interruptSignal, sendMessageSignal, approveUpdate, denyUpdate, oneLinePreview, } from '../workflows/definitions';
export type { SessionInput, SessionStatus, SessionResult, PendingApproval, TurnSummary, TurnWorkflowInput, TurnWorkflowResult, } from '../workflows/definitions';
export { END_REASONS } from '../engine/session';
