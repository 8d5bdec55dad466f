// Entry point of the fake Anthropic Messages API (tests, benchmarks and the offline demo's scripted model).

export { startFakeAnthropic } from './server';
export type { FakeAnthropicOptions, FakeAnthropicServer } from './server';
export {
  apiError,
  buildMessage,
  buildStreamEvents,
  disconnect,
  errorResponse,
  fakeMessageId,
  fakeRedactedData,
  fakeRequestId,
  fakeSignature,
  fakeToolUseId,
  overloadedError,
  pausedTurn,
  rateLimitError,
  rawSse,
  refusalResponse,
  spendLimitError,
  textResponse,
  toolUseResponse,
} from './responses';
export type { ToolCallSpec } from './responses';
export { accumulateMessage, encodeSseEvent, parseSse, SseStreamError } from './sse';
export type { SseEvent } from './sse';
export { checkToolPairing, validateMessagesRequest } from './validate';
export { ThinkingLedger } from './thinking';
export { RequestWindow } from './rateLimit';
export type { Admission, RequestLimitOptions } from './rateLimit';
export { PromptCacheSim, promptSegments, promptTokens, promptTooLongMessage } from './promptCache';
export type { CacheUsage, PromptCacheOptions, PromptSegment } from './promptCache';
export { lastMessage, lastToolResults, lastUserText, pausedContent } from './requests';
export type {
  ApiErrorType,
  ContentSpec,
  DisconnectSpec,
  ErrorSpec,
  MessageSpec,
  MessagesRequest,
  RawSseSpec,
  RecordedRequest,
  RecordedResponse,
  RequestContentBlock,
  RequestMessage,
  ResponseSpec,
  ScriptContext,
  ScriptFn,
  StopReason,
  StreamBehaviour,
  TextSpec,
  RedactedThinkingSpec,
  ThinkingSpec,
  ToolUseSpec,
  UnexpectedEvent,
  UnexpectedKind,
  WireContentBlock,
  WireErrorBody,
  WireMessage,
  WireUsage,
} from './types';
