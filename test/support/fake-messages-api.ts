import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Anthropic Messages API, enough for a real agent CLI to run one scripted
 * turn: the model asks for one Bash call, then (after the tool result) answers with text.
 *
 * Wire format, from Anthropic's "Streaming messages" documentation
 * (docs.anthropic.com/en/docs/build-with-claude/streaming): with `"stream": true` the answer is
 * server-sent events `message_start` (a Message with empty content), then per content block
 * `content_block_start`, `content_block_delta` (`text_delta` or `input_json_delta` with
 * `partial_json`), `content_block_stop`, then `message_delta` (stop_reason, cumulative usage) and
 * `message_stop`; each `data:` carries a `type` equal to its `event:` name. Without `stream` the
 * same message is returned as one JSON object.
 *
 * Which request is "the conversation": the one whose `tools` offer `Bash`. Claude Code also sends
 * side requests (titles, topic checks, quota probes) without tools; those get a short text answer
 * and are recorded like the rest.
 */
export interface FakeMessagesApiScript {
  /** The shell command the model asks the agent to run. */
  command: string;
  /** The tool call's `description` input (Claude Code's Bash tool takes one). */
  description: string;
  /** The final answer after the tool result. */
  finalText?: string;
  /** More of the Bash tool's input, e.g. `{run_in_background: true}`. */
  extraInput?: Record<string, unknown>;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
}

export interface FakeMessagesApi {
  /** `http://127.0.0.1:<port>`, for ANTHROPIC_BASE_URL. */
  baseUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** The id of the scripted Bash tool_use block. */
  toolUseId: string;
  /** The conversation requests (the ones offering the Bash tool), in order. */
  conversationRequests(): RecordedRequest[];
  /** The tool_result the agent sent back for the scripted call, as the model saw it (text). */
  toolResultText(): string | undefined;
  close(): Promise<void>;
}

interface MessagesBody {
  model?: string;
  stream?: boolean;
  tools?: { name?: string }[];
  messages?: { role: string; content: unknown }[];
}

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };

function offersBash(body: MessagesBody): boolean {
  return Array.isArray(body.tools) && body.tools.some((t) => t?.name === 'Bash');
}

function contentBlocks(content: unknown): Record<string, unknown>[] {
  return Array.isArray(content) ? (content as Record<string, unknown>[]) : [];
}

/** The text of a tool_result block whose tool_use_id is `id`, anywhere in the messages. */
function findToolResult(body: MessagesBody, id: string): string | undefined {
  for (const message of body.messages ?? []) {
    for (const block of contentBlocks(message.content)) {
      if (block.type !== 'tool_result' || block.tool_use_id !== id) continue;
      const c = block.content;
      if (typeof c === 'string') return c;
      return contentBlocks(c)
        .map((part) => (typeof part.text === 'string' ? part.text : ''))
        .join('\n');
    }
  }
  return undefined;
}

function sse(res: ServerResponse, event: string, data: Record<string, unknown>): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
}

function reply(
  res: ServerResponse,
  body: MessagesBody,
  blocks: Block[],
  stopReason: 'tool_use' | 'end_turn',
  messageId: string,
): void {
  const model = body.model ?? 'claude-fake';
  const usage = { input_tokens: 10, output_tokens: 10 };
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: messageId,
        type: 'message',
        role: 'assistant',
        model,
        content: blocks,
        stop_reason: stopReason,
        stop_sequence: null,
        usage,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  sse(res, 'message_start', {
    message: {
      id: messageId,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      sse(res, 'content_block_start', { index, content_block: { type: 'text', text: '' } });
      sse(res, 'content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      sse(res, 'content_block_start', {
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      sse(res, 'content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    sse(res, 'content_block_stop', { index });
  });
  sse(res, 'message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage });
  sse(res, 'message_stop', {});
  res.end();
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startFakeMessagesApi(script: FakeMessagesApiScript): Promise<FakeMessagesApi> {
  const requests: RecordedRequest[] = [];
  const toolUseId = `toolu_fake${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  let counter = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const text = await readBody(req);
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // Recorded as text.
    }
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: 10 }));
      return;
    }
    if (req.method !== 'POST' || path !== '/v1/messages' || typeof body !== 'object' || body === null) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not faked' } }));
      return;
    }
    const messages = body as MessagesBody;
    const messageId = `msg_fake${++counter}`;
    if (!offersBash(messages)) {
      reply(res, messages, [{ type: 'text', text: 'ok' }], 'end_turn', messageId);
    } else if (findToolResult(messages, toolUseId) === undefined) {
      const input = { command: script.command, description: script.description, ...script.extraInput };
      reply(res, messages, [{ type: 'tool_use', id: toolUseId, name: 'Bash', input }], 'tool_use', messageId);
    } else {
      reply(res, messages, [{ type: 'text', text: script.finalText ?? 'Done.' }], 'end_turn', messageId);
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(500);
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const conversationRequests = (): RecordedRequest[] =>
    requests.filter(
      (r) => typeof r.body === 'object' && r.body !== null && offersBash(r.body as MessagesBody),
    );

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    toolUseId,
    conversationRequests,
    toolResultText: () => {
      for (const r of conversationRequests()) {
        const found = findToolResult(r.body as MessagesBody, toolUseId);
        if (found !== undefined) return found;
      }
      return undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
