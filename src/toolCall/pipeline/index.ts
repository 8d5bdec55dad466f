export { runToolPipeline } from './toolPipeline';
export { describeToolUse, type ToolUseDescription } from './describe';
export type {
  PipelineEnv,
  PipelinePhase,
  ToolUseOutcome,
  ToolUseStatus,
  FailureStage,
  ApprovalResolution,
} from './types';
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
} from './resultBlocks';
export { formatInputValidationError, describeIssues } from './validation';
