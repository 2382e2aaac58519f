// client.mjs drives wikid with the official MCP TypeScript SDK client on
// behalf of the Go tests in internal/mcpserver (e2e_*_test.go).
//
// It reads requests from standard input, one JSON object per line, and
// answers each with one line on standard output: {"id", "result"} or
// {"id", "error": {"message", "code"}}. Requests run concurrently, so
// several clients can be busy at once; answers carry the request's id.
//
// Requests ("op"):
//
//	connect    {transport: "stdio", command, args, env} or
//	           {transport: "http", url, headers}, and client {name, version}:
//	           start a client; the result is {client, protocolVersion,
//	           serverInfo, instructions}.
//	list_tools {client}: the result of tools/list.
//	call       {client, name, arguments, timeout}: the result of tools/call,
//	           as sent by the server and checked by the SDK (the SDK validates
//	           the structured content against the tool's output schema and
//	           throws, which becomes an error answer, if it does not match).
//	           timeout, in milliseconds, replaces the usual 300 s.
//	time       {client, name, arguments, n}: call the tool n times, one
//	           after another, and return {ms: [...]}, the time of each call
//	           in milliseconds. Every string "{i}" in the arguments becomes
//	           the call's number. A call that fails is an error answer.
//	startup    {command, args, env, n}: n times, spawn the server over
//	           stdio, initialize, list the tools and close; return {ms: [...]},
//	           the time from the spawn to the tools/list reply.
//	close      {client}: close a client (for stdio, the server exits).
//	list_prompts {client}: the result of prompts/list.
//	get_prompt {client, name, arguments}: the result of prompts/get.
//	complete   {client, ref, argument}: the result of completion/complete.
//	time_complete {client, ref, argument, n}: completion/complete n times,
//	           one after another; {ms: [...]} as for time.
//	subscribe  {client, uri} and unsubscribe {client, uri}:
//	           resources/subscribe and resources/unsubscribe.
//	notification {client, method, uri, timeout}: wait for the first
//	           notification of method (about uri, when given) that no
//	           earlier request took, at most timeout ms (default 10 s);
//	           the result is {at}, when it arrived in milliseconds since the
//	           epoch, and {params}.
//
// Standard error carries the servers' standard error, prefixed.

import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ResourceUpdatedNotificationSchema,
  ResourceListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

const clients = new Map();
let nextClient = 1;
// The notifications each client received and no request took yet, and
// the requests waiting for one.
const inbox = new Map(); // client id → [{method, params, at}]
const waiting = new Map(); // client id → [{match, resolve}]

// Long calls (a search while a 10,000-note index builds) must not hit the
// SDK's default 60 s timeout before the Go test's own deadline.
const requestOptions = { timeout: 300_000 };

function send(msg) {
  process.stdout.write(JSON.stringify(msg) + '\n');
}

async function connect(req) {
  const info = req.client ?? { name: 'e2e', version: '0' };
  const client = new Client(info, { capabilities: {} });
  const id = nextClient++;
  inbox.set(id, []);
  waiting.set(id, []);
  const record = (n) => {
    const note = { method: n.method, params: n.params ?? {}, at: performance.timeOrigin + performance.now() };
    const ws = waiting.get(id);
    const i = ws.findIndex((w) => w.match(note));
    if (i >= 0) {
      ws.splice(i, 1)[0].resolve(note);
    } else {
      inbox.get(id).push(note);
    }
  };
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, record);
  client.setNotificationHandler(ResourceListChangedNotificationSchema, record);
  let transport;
  if (req.transport === 'stdio') {
    transport = new StdioClientTransport({
      command: req.command,
      args: req.args ?? [],
      env: req.env,
      stderr: 'pipe',
    });
    pipeStderr(transport, `[wikid ${info.name}] `);
  } else if (req.transport === 'http') {
    transport = new StreamableHTTPClientTransport(new URL(req.url), {
      requestInit: { headers: req.headers ?? {} },
    });
  } else {
    throw new Error(`unknown transport ${JSON.stringify(req.transport)}`);
  }
  await client.connect(transport, requestOptions);
  clients.set(id, client);
  return {
    client: id,
    protocolVersion: transport.protocolVersion ?? null,
    serverInfo: client.getServerVersion(),
    instructions: client.getInstructions() ?? '',
  };
}

function pipeStderr(transport, prefix) {
  const rl = createInterface({ input: transport.stderr });
  rl.on('line', (line) => process.stderr.write(prefix + line + '\n'));
}

function clientOf(req) {
  const c = clients.get(req.client);
  if (!c) throw new Error(`no client ${req.client}`);
  return c;
}

// numbered replaces "{i}" in every string of v with i.
function numbered(v, i) {
  if (typeof v === 'string') return v.replaceAll('{i}', String(i));
  if (Array.isArray(v)) return v.map((e) => numbered(e, i));
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, numbered(e, i)]));
  }
  return v;
}

async function time(req) {
  const c = clientOf(req);
  const ms = [];
  for (let i = 0; i < req.n; i++) {
    const args = numbered(req.arguments ?? {}, i);
    const start = performance.now();
    const res = await c.callTool({ name: req.name, arguments: args }, undefined, requestOptions);
    ms.push(performance.now() - start);
    if (res.isError) {
      throw new Error(`${req.name} call ${i} failed: ${res.content?.[0]?.text}`);
    }
  }
  return { ms };
}

// notification waits for a notification that matches the request.
function notification(req) {
  clientOf(req);
  const match = (n) => n.method === req.method && (!req.uri || n.params.uri === req.uri);
  const box = inbox.get(req.client);
  const i = box.findIndex(match);
  if (i >= 0) return Promise.resolve(box.splice(i, 1)[0]);
  return new Promise((resolve, reject) => {
    const w = { match, resolve: (n) => { clearTimeout(timer); resolve(n); } };
    const timer = setTimeout(() => {
      const ws = waiting.get(req.client);
      ws.splice(ws.indexOf(w), 1);
      reject(new Error(`no ${req.method} ${req.uri ?? ''} within ${req.timeout ?? 10000} ms`));
    }, req.timeout ?? 10000);
    waiting.get(req.client).push(w);
  });
}

async function timeComplete(req) {
  const c = clientOf(req);
  const ms = [];
  for (let i = 0; i < req.n; i++) {
    const start = performance.now();
    const res = await c.complete({ ref: req.ref, argument: req.argument }, requestOptions);
    ms.push(performance.now() - start);
    if (res.completion.values.length === 0) throw new Error(`no completion for ${JSON.stringify(req.argument)}`);
  }
  return { ms };
}

async function startup(req) {
  const ms = [];
  for (let i = 0; i < req.n; i++) {
    const client = new Client({ name: 'startup', version: '1' }, { capabilities: {} });
    const transport = new StdioClientTransport({ command: req.command, args: req.args ?? [], env: req.env, stderr: 'pipe' });
    pipeStderr(transport, '[wikid startup] ');
    const start = performance.now();
    await client.connect(transport, requestOptions);
    const tools = await client.listTools(undefined, requestOptions);
    ms.push(performance.now() - start);
    if (tools.tools.length === 0) throw new Error('tools/list returned no tools');
    await client.close();
  }
  return { ms };
}

async function handle(req) {
  switch (req.op) {
    case 'connect':
      return connect(req);
    case 'list_tools':
      return clientOf(req).listTools(undefined, requestOptions);
    case 'call':
      return clientOf(req).callTool({ name: req.name, arguments: req.arguments ?? {} }, undefined,
        { ...requestOptions, timeout: req.timeout ?? requestOptions.timeout });
    case 'time':
      return time(req);
    case 'startup':
      return startup(req);
    case 'list_prompts':
      return clientOf(req).listPrompts(undefined, requestOptions);
    case 'get_prompt':
      return clientOf(req).getPrompt({ name: req.name, arguments: req.arguments ?? {} }, requestOptions);
    case 'complete':
      return clientOf(req).complete({ ref: req.ref, argument: req.argument }, requestOptions);
    case 'time_complete':
      return timeComplete(req);
    case 'subscribe':
      return clientOf(req).subscribeResource({ uri: req.uri }, requestOptions);
    case 'unsubscribe':
      return clientOf(req).unsubscribeResource({ uri: req.uri }, requestOptions);
    case 'notification':
      return notification(req);
    case 'close': {
      const c = clientOf(req);
      clients.delete(req.client);
      await c.close();
      return {};
    }
    default:
      throw new Error(`unknown op ${JSON.stringify(req.op)}`);
  }
}

const pending = new Set();
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() === '') return;
  let req;
  try {
    req = JSON.parse(line);
  } catch (err) {
    send({ id: null, error: { message: `bad request: ${err.message}` } });
    return;
  }
  const p = handle(req)
    .then((result) => send({ id: req.id, result: result ?? {} }))
    .catch((err) => send({ id: req.id, error: { message: String(err?.message ?? err), code: err?.code ?? null } }))
    .finally(() => pending.delete(p));
  pending.add(p);
});
lines.on('close', async () => {
  // Standard input ended: finish what runs, close every client, exit.
  await Promise.allSettled([...pending]);
  await Promise.allSettled([...clients.values()].map((c) => c.close()));
  process.exit(0);
});
