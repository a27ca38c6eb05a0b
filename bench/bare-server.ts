/**
 * @module bench/bare-server
 * The ceiling for any Node service on this machine: a bare node:http
 * server answering every request with a constant JSON body (after reading
 * the request body, as a real server must). Port from argv[2].
 */
import { createServer } from 'node:http';

const body = JSON.stringify({
  id: '6f1c2a9e-8d4b-4c1e-9f3a-2b7d5e8c1a40',
  redirectUrl: 'http://localhost:3000/meetings/6f1c2a9e-8d4b-4c1e-9f3a-2b7d5e8c1a40',
  isInfinite: false,
});

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening on ${typeof address === 'object' && address ? address.port : address}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
