// watch.mjs is a client of the official MCP TypeScript SDK 2.x
// (@modelcontextprotocol/client) for wikid's end-to-end tests:
//
//	node watch.mjs stdio WIKID REPO [URI...]
//	node watch.mjs http URL TOKEN [URI...]
//
// It connects in the SDK's auto mode, which chooses protocol 2026-07-28,
// prints {"event": "ready", "protocol": ...} and, with URIs, opens a
// subscriptions/listen stream for them first. Each notification of a
// changed resource is a line {"event": "updated", "uri": ...} when it came
// on the stream, {"event": "unrequested", ...} when it came outside one (a
// session that did not ask must be told nothing). A line "stop" on
// standard input closes the stream (the URIs are unsubscribed) and prints
// {"event": "stopped"}; the end of standard input ends the client.
//
// Standard error carries the server's standard error over stdio.

import { createInterface } from 'node:readline';
import { Client, StreamableHTTPClientTransport, SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const say = (fields) => process.stdout.write(JSON.stringify(fields) + '\n');

const [kind, a, b, ...uris] = process.argv.slice(2);
let transport;
if (kind === 'stdio') {
  transport = new StdioClientTransport({ command: a, args: ['serve', '--repo', b], env: process.env, stderr: 'inherit' });
} else if (kind === 'http') {
  transport = new StreamableHTTPClientTransport(new URL(a), { requestInit: { headers: { Authorization: `Bearer ${b}` } } });
} else {
  process.stderr.write(`watch.mjs: unknown transport ${JSON.stringify(kind)}: want stdio or http\n`);
  process.exit(2);
}

const client = new Client({ name: 'wikid-e2e-ts2', version: '1' }, { versionNegotiation: { mode: 'auto' } });
// Every notification of a changed resource, on a listen stream or not: the
// stream's carry its subscription id in _meta.
const report = (n) => {
  const onStream = typeof n.params?._meta?.[SUBSCRIPTION_ID_META_KEY] === 'string';
  say({ event: onStream ? 'updated' : 'unrequested', method: n.method, uri: n.params?.uri });
};
client.setNotificationHandler('notifications/resources/updated', report);
client.setNotificationHandler('notifications/resources/list_changed', report);

await client.connect(transport);
const protocol = client.getNegotiatedProtocolVersion();
let sub;
if (uris.length > 0) {
  sub = await client.listen({ resourceSubscriptions: uris });
  say({ event: 'ready', protocol, honored: sub.honoredFilter?.resourceSubscriptions ?? [] });
} else {
  say({ event: 'ready', protocol });
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() === 'stop' && sub) {
    await sub.close();
    sub = undefined;
    say({ event: 'stopped' });
  }
}
await client.close();
process.exit(0);
