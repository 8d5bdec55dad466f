// MCP results in the reference's form (pure: the tool adapter and the PostToolUse tool_response
// both use it). What the model gets and what a hook gets as `tool_response` are the same value.
import type { McpContent } from './manager';
import type { ToolResultImageContent } from '../core/apiMessages';

/** What an MCP call returns to the pipeline (and to PostToolUse hooks as tool_response). */
export interface McpToolOutput {
  /** The configured name of the server that answered (the reference names it in resource texts). */
  server?: string;
  content: McpContent[];
  isError?: boolean;
  structuredContent?: unknown;
}

type Block = { type: 'text'; text: string } | ToolResultImageContent;

/** The largest image passed to the model (base64 characters; the Messages API takes up to 5 MB). */
export const MCP_IMAGE_MAX_CHARS = 5 * 1024 * 1024;
const MAGIC: Record<string, (b: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
  'image/webp': (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

/**
 * An image for the model, as the reference passes it: an image block when it is a PNG, JPEG, GIF
 * or WebP whose bytes say so and that fits the API's limit; otherwise a one-line notice (an image
 * the API cannot decode would fail every later request of the session).
 */
function imageBlock(data: unknown, mimeType: unknown, prefix: string): Block {
  const mime = String(mimeType ?? 'unknown type');
  const b64 = typeof data === 'string' ? data : '';
  const size = Buffer.byteLength(b64, 'base64');
  const check = MAGIC[mime];
  if (!check)
    return {
      type: 'text',
      text: `${prefix}Binary content (${mime}, ${size} bytes) not shown: only PNG, JPEG, GIF and WebP images reach the model`,
    };
  if (b64.length > MCP_IMAGE_MAX_CHARS)
    return {
      type: 'text',
      text: `${prefix}[Image of ${size} bytes not shown: larger than the ${MCP_IMAGE_MAX_CHARS / 1024 / 1024} MB the model takes]`,
    };
  if (!check(Buffer.from(b64.slice(0, 24), 'base64')))
    return { type: 'text', text: `${prefix}[Image could not be processed: its bytes are not ${mime}]` };
  return {
    type: 'image',
    source: { type: 'base64', media_type: mime as ToolResultImageContent['source']['media_type'], data: b64 },
  };
}

/**
 * One content item as the reference gives it to the model (its words): text as is; an image as an
 * image block (see imageBlock); an embedded text resource as `[Resource from <server> at <uri>]
 * <text>`, an image resource as that prefix and the image; a resource link as `[Resource link:
 * <name>] <uri> (<description>)`; unknown types nothing. Audio and other binary data: the
 * reference saves them to a file on its machine; here a one-line notice with type and size.
 */
export function mcpContentBlocks(c: McpContent, server: string): Block[] {
  switch (c.type) {
    case 'text':
      return [{ type: 'text', text: typeof c.text === 'string' ? c.text : '' }];
    case 'image':
      return [imageBlock(c.data, c.mimeType, '')];
    case 'audio': {
      const size = typeof c.data === 'string' ? Buffer.byteLength(c.data, 'base64') : 0;
      return [
        {
          type: 'text',
          text: `[Audio from ${server}] Binary content (${String(c.mimeType ?? 'unknown type')}, ${size} bytes) not shown: durable-agent passes no audio to the model`,
        },
      ];
    }
    case 'resource_link':
      return [
        {
          type: 'text',
          text: `[Resource link: ${String(c.name)}] ${String(c.uri)}${c.description ? ` (${String(c.description)})` : ''}`,
        },
      ];
    case 'resource': {
      const r = (c.resource ?? {}) as { uri?: unknown; text?: unknown; blob?: unknown; mimeType?: unknown };
      const prefix = `[Resource from ${server} at ${String(r.uri)}] `;
      if (typeof r.text === 'string') return [{ type: 'text', text: `${prefix}${r.text}` }];
      if (typeof r.blob !== 'string') return [];
      if (typeof r.mimeType === 'string' && MAGIC[r.mimeType]) {
        const img = imageBlock(r.blob, r.mimeType, prefix);
        return img.type === 'image' ? [{ type: 'text', text: prefix }, img] : [img];
      }
      return [
        {
          type: 'text',
          text: `${prefix}Binary content (${String(r.mimeType ?? 'unknown type')}, ${Buffer.byteLength(r.blob, 'base64')} bytes) not shown: durable-agent passes no binary data to the model`,
        },
      ];
    }
    default:
      return [];
  }
}

/**
 * What the model gets, and what PostToolUse hooks get as `tool_response`, in the reference's form:
 * with `structuredContent`, its JSON (after any non-text items); otherwise the items' blocks.
 */
export function mcpReferenceContent(data: McpToolOutput, server: string): string | Block[] {
  const blocks = (items: McpContent[]) => items.flatMap((c) => mcpContentBlocks(c, server));
  if (data.structuredContent !== undefined) {
    const json = JSON.stringify(data.structuredContent);
    const other = blocks(data.content.filter((c) => c.type !== 'text'));
    return other.length > 0 ? [...other, { type: 'text', text: json }] : json;
  }
  return blocks(data.content);
}
