#!/usr/bin/env node
// Serves this folder on 127.0.0.1 (or `--host`), so the example runs from
// an origin other than Foyer's, as it would on your site:
//
//   node examples/serve.mjs [PORT]        # then open http://localhost:PORT/embed.html
//
// `serveExamples(port)` does the same for tests (port 0: any free one).
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

export function serveExamples(port = 0, host = '127.0.0.1') {
  const server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)).replace(/^[/\\.]+/, '');
    const type = TYPES[extname(path)];
    if (!type || path.includes('..')) {
      response.writeHead(404).end('not found');
      return;
    }
    try {
      const body = await readFile(join(ROOT, path));
      response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    } catch {
      response.writeHead(404).end('not found');
    }
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const server = await serveExamples(Number(process.argv[2] ?? 8080), 'localhost');
  const { port } = server.address();
  console.log(`Example at http://localhost:${port}/embed.html — allow the origin http://localhost:${port} for your organization.`);
}
