// A loopback proxy for the conformance suite, which cannot send an Authorization header: it adds the bearer
// token to every request, as a real client configured with the token would, and streams replies (SSE) back.
// Usage: node test/conformance/auth-proxy.mjs TARGET_URL  (token in EFFECTCRAFT_MCP_TOKEN); prints its URL.
import { createServer, request } from 'node:http';

const target = new URL(process.argv[2] ?? '');
const token = process.env.EFFECTCRAFT_MCP_TOKEN ?? '';
if (!token) {
  process.stderr.write('auth-proxy: EFFECTCRAFT_MCP_TOKEN is not set\n');
  process.exit(2);
}

const server = createServer((req, res) => {
  const headers = { ...req.headers, host: target.host, authorization: `Bearer ${token}` };
  const upstream = request(
    { host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
    (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
    },
  );
  upstream.on('error', (err) => {
    if (!res.headersSent) res.writeHead(502);
    res.end(String(err));
  });
  req.pipe(upstream);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`proxy listening on http://127.0.0.1:${port}${target.pathname}\n`);
});
