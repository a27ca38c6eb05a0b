/**
 * @module bench/autocannon
 * The little of autocannon's API the bench uses (the package ships no types).
 */
declare module 'autocannon' {
  interface Histogram {
    average: number;
    total: number;
    p50: number;
    p99: number;
    max: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    requests?: Array<{ method?: string; body?: string; setupRequest?: (request: Record<string, unknown>) => unknown }>;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
