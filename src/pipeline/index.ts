export { runToolUse, describeToolUse } from './runToolUse';
export type { PipelineEnv, ToolUseOutcome, ToolUseStatus, FailureStage, ApprovalResolution, ToolUseDescription } from './runToolUse';
export {
  INTERRUPT_MESSAGE,
  INTERRUPTED_TOOL_MESSAGE,
  REJECT_MESSAGE,
  errorToolResult,
  interruptedToolResult,
  rejectionToolResult,
  noSuchToolResult,
  persistedOutputMessage,
  previewOf,
  formatSize,
  appendToToolResult,
  PREVIEW_CHARS,
} from './messages';
export { formatInputValidationError, describeIssues } from './validation';
