import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Gemini API's `generateContent`, enough for the real Gemini CLI (0.61,
 * `GOOGLE_GEMINI_BASE_URL` pointing here, which selects its "gateway" auth) to run one scripted turn:
 * the model asks for one `run_shell_command` call, then, once the call's result is in the
 * conversation, answers with text.
 *
 * Wire format (Gemini API reference, "models.generateContent" and "models.streamGenerateContent"):
 * `POST /v1beta/models/<model>:generateContent` or `:streamGenerateContent?alt=sse` with `contents`
 * (`{role, parts}`) and `tools` (`[{functionDeclarations: [{name, …}]}]`). The answer is a
 * `GenerateContentResponse`, `{candidates: [{content: {role: "model", parts}, finishReason: "STOP"}],
 * usageMetadata}`, streamed as server-sent `data:` lines; a call is a part `{functionCall: {id, name,
 * args}}`, its result comes back as a part `{functionResponse: {id, name, response}}`.
 * `:countTokens` answers `{totalTokens}`.
 *
 * "The conversation" is every request offering the scripted tool. Side requests (the CLI's next-speaker
 * check and model router ask for JSON) get one JSON object that answers the shapes seen here.
 */
export interface FakeGeminiScript {
  toolName: string;
  args: Record<string, unknown>;
  finalText?: string;
}

export interface GeminiBody {
  contents?: { role?: string; parts?: Part[] }[];
  tools?: { functionDeclarations?: { name?: string }[] }[];
  generationConfig?: { responseMimeType?: string };
}

interface Part {
  text?: string;
  functionCall?: unknown;
  functionResponse?: { id?: string; name?: string; response?: unknown };
}

export interface FakeGeminiApi {
  /** `http://127.0.0.1:<port>`, for GOOGLE_GEMINI_BASE_URL. */
  baseUrl: string;
  callId: string;
  requests: { url: string; body: GeminiBody | string }[];
  conversationRequests(): GeminiBody[];
  /** The first request carrying the call's result, and that result as JSON text. */
  afterCall(): { request: GeminiBody; result: string } | undefined;
  close(): Promise<void>;
}

const USAGE = { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 };
const SIDE_ANSWER = JSON.stringify({ next_speaker: 'user', reasoning: 'fake', model_choice: 'flash' });

function offers(body: GeminiBody, tool: string): boolean {
  return (body.tools ?? []).some((t) => (t.functionDeclarations ?? []).some((f) => f?.name === tool));
}

function resultOf(body: GeminiBody, callId: string, tool: string): string | undefined {
  for (const c of body.contents ?? [])
    for (const p of c.parts ?? []) {
      const r = p.functionResponse;
      if (r && (r.id === callId || (r.id === undefined && r.name === tool)))
        return JSON.stringify(r.response);
    }
  return undefined;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startFakeGeminiApi(script: FakeGeminiScript): Promise<FakeGeminiApi> {
  const requests: FakeGeminiApi['requests'] = [];
  const callId = `call_fake${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const text = await readBody(req);
    let body: GeminiBody | string = text;
    try {
      body = JSON.parse(text) as GeminiBody;
    } catch {
      // Recorded as text.
    }
    const url = req.url ?? '';
    requests.push({ url, body });
    const path = url.split('?')[0]!;
    const json = (status: number, value: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.method !== 'POST' || typeof body !== 'object')
      return json(404, { error: { code: 404, message: 'not faked' } });
    if (path.endsWith(':countTokens')) return json(200, { totalTokens: 10 });
    const streaming = path.endsWith(':streamGenerateContent');
    if (!streaming && !path.endsWith(':generateContent'))
      return json(404, { error: { code: 404, message: 'not faked' } });
    let parts: Part[];
    if (offers(body, script.toolName) && resultOf(body, callId, script.toolName) === undefined)
      parts = [{ functionCall: { id: callId, name: script.toolName, args: script.args } }];
    else if (offers(body, script.toolName)) parts = [{ text: script.finalText ?? 'Done.' }];
    else
      parts = [{ text: body.generationConfig?.responseMimeType === 'application/json' ? SIDE_ANSWER : 'ok' }];
    const answer = {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: USAGE,
      modelVersion: 'fake',
    };
    if (!streaming) return json(200, answer);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(`data: ${JSON.stringify(answer)}\r\n\r\n`);
    res.end();
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(500);
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const conversationRequests = (): GeminiBody[] =>
    requests
      .map((r) => r.body)
      .filter((b): b is GeminiBody => typeof b === 'object' && offers(b, script.toolName));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    callId,
    requests,
    conversationRequests,
    afterCall: () => {
      for (const request of conversationRequests()) {
        const result = resultOf(request, callId, script.toolName);
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
