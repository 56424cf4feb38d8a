// The slice of autocannon's API the benchmarks use (the package ships no types).
declare module "autocannon" {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    /** Requests: how many were answered in all. */
    total: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    errors: number;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    requests?: Array<{ method?: string; path?: string; setupRequest?: (request: { headers?: Record<string, string> }) => unknown }>;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
