import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for OpenAI's Chat Completions API, enough for an agent CLI that speaks it (Qwen
 * Code with `--auth-type openai`) to run one scripted turn: the model asks for one shell call, then,
 * once the call's result is in the conversation, answers with text.
 *
 * Wire format (OpenAI's API reference, "Create chat completion" and "The chat completion chunk
 * object"): `POST /chat/completions` under the base URL, with `messages` and `tools`
 * (`{type: "function", function: {name, parameters}}`). With `stream: true` the answer is server-sent
 * `data:` lines, each a `chat.completion.chunk` whose `choices[0].delta` carries `content` or
 * `tool_calls` (`{index, id, type: "function", function: {name, arguments}}`, arguments a JSON
 * string), a last chunk with `finish_reason` (`tool_calls` or `stop`) and `usage`, then
 * `data: [DONE]`. Without `stream` the same message is one `chat.completion` object. A call's result
 * comes back as a `{role: "tool", tool_call_id, content}` message.
 *
 * "The conversation" is every request offering the scripted tool; the agents' side requests (titles,
 * next-speaker checks) get a short text answer and are recorded like the rest.
 */
export interface FakeChatCompletionsScript {
  /** The function the model calls (the agent's shell tool, e.g. Qwen Code's `run_shell_command`). */
  toolName: string;
  /** Its arguments, e.g. `{command, description}`. */
  args: Record<string, unknown>;
  finalText?: string;
}

export interface ChatRequest {
  url: string;
  body: ChatBody | string;
}

export interface FakeChatCompletionsApi {
  /** `http://127.0.0.1:<port>/v1`, for OPENAI_BASE_URL. */
  baseUrl: string;
  /** The scripted call's id. */
  callId: string;
  requests: ChatRequest[];
  /** The requests that offered the scripted tool, in order. */
  conversationRequests(): ChatBody[];
  /** The first request that carries the call's result, and that result's text. */
  afterCall(): { request: ChatBody; result: string } | undefined;
  close(): Promise<void>;
}

export interface ChatBody {
  model?: string;
  stream?: boolean;
  tools?: { function?: { name?: string } }[];
  messages?: { role: string; content?: unknown; tool_call_id?: string }[];
}

const USAGE = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };

function offers(body: ChatBody, tool: string): boolean {
  return Array.isArray(body.tools) && body.tools.some((t) => t?.function?.name === tool);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('\n');
  return '';
}

function resultOf(body: ChatBody, callId: string): string | undefined {
  const m = (body.messages ?? []).find((m) => m.role === 'tool' && m.tool_call_id === callId);
  return m ? textOf(m.content) : undefined;
}

type Message = { content: string } | { toolCall: { id: string; name: string; arguments: string } };

function reply(res: ServerResponse, body: ChatBody, message: Message, n: number): void {
  const base = {
    id: `chatcmpl-fake${n}`,
    created: Math.floor(Date.now() / 1000),
    model: body.model ?? 'fake',
  };
  const finish = 'toolCall' in message ? 'tool_calls' : 'stop';
  const toolCalls =
    'toolCall' in message
      ? [
          {
            index: 0,
            id: message.toolCall.id,
            type: 'function',
            function: { name: message.toolCall.name, arguments: message.toolCall.arguments },
          },
        ]
      : undefined;
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    const msg =
      'toolCall' in message
        ? { role: 'assistant', content: null, tool_calls: toolCalls!.map(({ index: _i, ...c }) => c) }
        : { role: 'assistant', content: message.content };
    res.end(
      JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message: msg, finish_reason: finish }],
        usage: USAGE,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: unknown, finishReason: string | null, usage?: unknown): void => {
    const data = {
      ...base,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    };
    res.write(`data: ${JSON.stringify(usage ? { ...data, usage } : data)}\n\n`);
  };
  chunk({ role: 'assistant', content: '' }, null);
  if (toolCalls) chunk({ tool_calls: toolCalls }, null);
  else chunk({ content: (message as { content: string }).content }, null);
  chunk({}, finish, USAGE);
  res.write('data: [DONE]\n\n');
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

export async function startFakeChatCompletionsApi(
  script: FakeChatCompletionsScript,
): Promise<FakeChatCompletionsApi> {
  const requests: ChatRequest[] = [];
  const callId = `call_fake${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  let n = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const text = await readBody(req);
    let body: ChatBody | string = text;
    try {
      body = JSON.parse(text) as ChatBody;
    } catch {
      // Recorded as text.
    }
    requests.push({ url: req.url ?? '', body });
    const path = (req.url ?? '').split('?')[0]!;
    if (req.method !== 'POST' || !path.endsWith('/chat/completions') || typeof body !== 'object') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not faked', type: 'invalid_request_error' } }));
      return;
    }
    n++;
    if (offers(body, script.toolName) && resultOf(body, callId) === undefined) {
      const args = JSON.stringify(script.args);
      reply(res, body, { toolCall: { id: callId, name: script.toolName, arguments: args } }, n);
    } else {
      reply(res, body, { content: offers(body, script.toolName) ? (script.finalText ?? 'Done.') : 'ok' }, n);
    }
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(500);
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const conversationRequests = (): ChatBody[] =>
    requests
      .map((r) => r.body)
      .filter((b): b is ChatBody => typeof b === 'object' && offers(b, script.toolName));
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    callId,
    requests,
    conversationRequests,
    afterCall: () => {
      for (const request of conversationRequests()) {
        const result = resultOf(request, callId);
        if (result !== undefined) return { request, result };
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
