/**
 * @module bench/load
 * One autocannon run, in its own process (the bench pins it to a core of
 * its own). Reads its job as JSON from argv[2], prints the figures as one
 * JSON line on stdout.
 *
 * `paths` are cycled through, so reads spread over many rows instead of
 * re-reading one hot row. `madeUpKeys` sends a new made-up API_KEY with
 * every request (a flood of bad credentials).
 */
import autocannon from 'autocannon';

interface Job {
  url: string;
  method: 'GET' | 'POST';
  paths: string[];
  headers: Record<string, string>;
  body?: string;
  madeUpKeys?: boolean;
  connections: number;
  duration: number;
}

const job = JSON.parse(process.argv[2]!) as Job;
let i = 0;
const result = await autocannon({
  url: job.url,
  connections: job.connections,
  duration: job.duration,
  headers: job.headers,
  requests: [
    {
      method: job.method,
      body: job.body,
      setupRequest: (request: Record<string, unknown>) => {
        request.path = job.paths[i % job.paths.length];
        if (job.madeUpKeys) request.headers = { ...(request.headers as Record<string, string>), API_KEY: `fk_madeup${i}` };
        i++;
        return request;
      },
    },
  ],
});

process.stdout.write(
  JSON.stringify({
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: result.statusCodeStats,
  }) + '\n',
);
