// Thinking as the real API checks it (issue 31, invariant 16: "thinking blocks go back exactly"):
// the `thinking` parameter's rules (budget ≥ 1024 and below max_tokens, no temperature but 1), and
// every thinking or redacted_thinking block a request carries back must be one this server sent —
// text and signature (or data) unchanged, the blocks of one answer complete and in the order it
// sent them — and the assistant turn a tool loop continues must keep its thinking. The real API
// checks signatures cryptographically; the fake remembers what it sent. Error wording as the API's
// where we know it.
import type { MessagesRequest, RequestContentBlock, WireMessage } from './types';

const DOCS = 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

interface SentAnswer {
  /** `t:<signature>`, `r:<data>` and `u:<tool_use id>` in the order the answer had them. */
  keys: string[];
}

export class ThinkingLedger {
  private readonly thinking = new Map<string, { text: string; answer: number }>();
  private readonly redacted = new Map<string, number>();
  private readonly toolUses = new Map<string, number>();
  private readonly answers: SentAnswer[] = [];

  /** Remembers an answer's thinking blocks (and its tool_use ids, to find the answer again). */
  record(message: WireMessage): void {
    const answer = this.answers.length;
    const keys: string[] = [];
    for (const b of message.content) {
      if (b.type === 'thinking') {
        this.thinking.set(b.signature, { text: b.thinking, answer });
        keys.push(`t:${b.signature}`);
      } else if (b.type === 'redacted_thinking') {
        this.redacted.set(b.data, answer);
        keys.push(`r:${b.data}`);
      } else if (b.type === 'tool_use') {
        this.toolUses.set(b.id, answer);
        keys.push(`u:${b.id}`);
      }
    }
    this.answers.push({ keys });
  }

  /** The API's 400 message for this request, or undefined when its thinking is in order. */
  check(request: MessagesRequest): string | undefined {
    const body = request as MessagesRequest & {
      thinking?: { type?: string; budget_tokens?: unknown };
      temperature?: unknown;
      top_k?: unknown;
    };
    const on = body.thinking?.type === 'enabled' || body.thinking?.type === 'adaptive';
    if (body.thinking?.type === 'enabled') {
      const budget = body.thinking.budget_tokens;
      if (typeof budget !== 'number' || !Number.isInteger(budget))
        return 'thinking.enabled.budget_tokens: Input should be a valid integer';
      if (budget < 1024) return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
      if (request.max_tokens <= budget)
        return `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${DOCS}#max-tokens-and-context-window-size`;
    }
    if (on && body.temperature !== undefined && body.temperature !== 1)
      return `\`temperature\` may only be set to 1 when thinking is enabled. Please consult our documentation at ${DOCS}#feature-compatibility`;
    if (on && body.top_k !== undefined)
      return `\`top_k\` is not supported when thinking is enabled. Please consult our documentation at ${DOCS}#feature-compatibility`;
    const messages = request.messages;
    for (const [i, m] of messages.entries()) {
      if (m.role !== 'assistant' || typeof m.content === 'string') continue;
      const problem = this.checkAssistant(i, m.content);
      if (problem) return problem;
    }
    // A tool loop continues: the assistant turn whose tool_use the last message answers keeps its thinking.
    const last = messages[messages.length - 1];
    const prev = messages[messages.length - 2];
    if (
      on &&
      last?.role === 'user' &&
      typeof last.content !== 'string' &&
      last.content.some((b) => b.type === 'tool_result') &&
      prev?.role === 'assistant' &&
      typeof prev.content !== 'string'
    ) {
      const answer = this.answerOf(prev.content);
      const sentThinking = answer !== undefined && this.answers[answer]?.keys.some((k) => !k.startsWith('u:'));
      const first = prev.content[0];
      if (sentThinking && first?.type !== 'thinking' && first?.type !== 'redacted_thinking')
        return (
          `messages.${messages.length - 2}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first?.type)}\`. ` +
          'When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). ' +
          `We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${DOCS}`
        );
    }
    return undefined;
  }

  private answerOf(content: readonly RequestContentBlock[]): number | undefined {
    for (const b of content) {
      if (b.type === 'thinking') return this.thinking.get(String(b.signature))?.answer;
      if (b.type === 'redacted_thinking') return this.redacted.get(String(b.data));
      if (b.type === 'tool_use') return this.toolUses.get(String(b.id));
    }
    return undefined;
  }

  private checkAssistant(i: number, content: readonly RequestContentBlock[]): string | undefined {
    let answer: number | undefined;
    const keys: string[] = [];
    for (const [j, b] of content.entries()) {
      if (b.type === 'thinking') {
        const sent = this.thinking.get(String(b.signature));
        if (!sent || sent.text !== b.thinking)
          return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`;
        answer ??= sent.answer;
        keys.push(`t:${String(b.signature)}`);
      } else if (b.type === 'redacted_thinking') {
        const sent = this.redacted.get(String(b.data));
        if (sent === undefined) return `messages.${i}.content.${j}: Invalid \`data\` in \`redacted_thinking\` block`;
        answer ??= sent;
        keys.push(`r:${String(b.data)}`);
      } else if (b.type === 'tool_use') {
        keys.push(`u:${String(b.id)}`);
      }
    }
    if (answer === undefined) return undefined;
    // Thinking kept: then all of that answer's, in its order, where it had them among its tool_use blocks.
    const sent = this.answers[answer]?.keys ?? [];
    if (keys.join('\n') !== sent.filter((k) => !k.startsWith('u:') || keys.includes(k)).join('\n'))
      return `messages.${i}.content: the thinking blocks of an assistant turn must be passed back complete, unmodified and in the order the model produced them (Invalid \`signature\` in \`thinking\` block)`;
    return undefined;
  }
}
