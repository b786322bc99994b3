import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for OpenAI's Responses API, enough for the real Codex CLI (0.171, `codex exec`
 * with a custom `model_providers.<id>` whose `base_url` is this server and `wire_api = "responses"`)
 * to run one scripted turn: the model asks for one `exec_command` call, then answers with text.
 *
 * Wire format, as Codex consumed it here: it POSTs `/v1/responses` with `stream: true`, `input` (the
 * conversation so far) and `tools` (its shell tool is `exec_command`, command in `cmd`). Each answer is
 * server-sent events `response.created`, `response.output_item.done` carrying one output item (a
 * `function_call` with `call_id`, `name` and `arguments` as a JSON string, or an assistant `message`
 * with `output_text`), then `response.completed` with `usage`. The call is answered once the input
 * holds its `function_call_output`. test/fixtures/codex/record-fake-responses-api.mjs is the same
 * server as a script, which recorded the session-file fixture.
 */
export interface FakeResponsesApi {
  /** `http://127.0.0.1:<port>/v1`, for the provider's base_url. */
  baseUrl: string;
  /** The scripted call's call_id (what Codex passes on as CODEX_TOOL_CALL_ID). */
  callId: string;
  requests: { url: string | undefined; body: unknown }[];
  close(): Promise<void>;
}

const USAGE = {
  input_tokens: 10,
  input_tokens_details: null,
  output_tokens: 10,
  output_tokens_details: null,
  total_tokens: 20,
};

export async function startFakeResponsesApi({
  command,
  callId = 'call_fake0001',
}: {
  command: string;
  callId?: string;
}): Promise<FakeResponsesApi> {
  const requests: FakeResponsesApi['requests'] = [];
  let n = 0;
  const answer = (req: IncomingMessage, res: ServerResponse, text: string): void => {
    n++;
    let body: { input?: { type?: string }[] } = {};
    try {
      body = JSON.parse(text || '{}') as typeof body;
    } catch {
      body = {};
    }
    requests.push({ url: req.url, body });
    const answered = (body.input ?? []).some((i) => i?.type === 'function_call_output');
    const id = `resp_${n}`;
    const item = answered
      ? {
          type: 'message',
          role: 'assistant',
          id: `msg_${n}`,
          content: [{ type: 'output_text', text: 'done' }],
        }
      : {
          type: 'function_call',
          id: `fc_${n}`,
          call_id: callId,
          name: 'exec_command',
          arguments: JSON.stringify({ cmd: command }),
        };
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const event of [
      { type: 'response.created', response: { id } },
      { type: 'response.output_item.done', output_index: 0, item },
      { type: 'response.completed', response: { id, usage: USAGE } },
    ])
      res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    res.end();
  };
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => answer(req, res, text));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    callId,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
