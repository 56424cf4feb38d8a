// The slice of autocannon's API the benchmarks use (the package ships no types).
declare module "autocannon" {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    /** Requests: how many were answered in all. */
    total: number;
  }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    errors: number;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    requests?: Array<{ method?: string; path?: string; setupRequest?: (request: { headers?: Record<string, string> }) => unknown }>;
  }
  /** The run: a promise of its result that also emits each failed request ("reqError", with the socket's error). */
  interface Instance extends Promise<Result> {
    on(event: "reqError", listener: (error: NodeJS.ErrnoException) => void): this;
  }
  export default function autocannon(options: Options): Instance;
}
