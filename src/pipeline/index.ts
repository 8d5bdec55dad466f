export { runToolPipeline, describeToolUse } from './toolPipeline';
export type { PipelineEnv, ToolUseOutcome, ToolUseStatus, FailureStage, ApprovalResolution, ToolUseDescription } from './toolPipeline';
export {
  INTERRUPT_MESSAGE,
  INTERRUPTED_TOOL_MESSAGE,
  REJECT_MESSAGE,
  errorToolResult,
  interruptedToolResult,
  rejectionToolResult,
  noSuchToolResult,
  persistedOutputMessage,
  persistedOutputPreview,
  formatSize,
  appendToToolResult,
  PREVIEW_CHARS,
} from './messages';
export { formatInputValidationError, describeIssues } from './validation';
