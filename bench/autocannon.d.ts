// The part of autocannon's API the benchmark uses; the package ships no types.
declare module 'autocannon' {
  export interface Histogram {
    readonly average: number;
    readonly mean: number;
    readonly stddev: number;
    readonly min: number;
    readonly max: number;
    readonly total: number;
    readonly p50: number;
    readonly p90: number;
    readonly p99: number;
  }

  export interface Options {
    readonly url: string;
    readonly connections?: number;
    /** Seconds. */
    readonly duration?: number;
    readonly pipelining?: number;
    readonly method?: string;
    readonly headers?: Readonly<Record<string, string>>;
    readonly body?: string | Buffer;
    /** Seconds before a request counts as timed out. */
    readonly timeout?: number;
  }

  export interface Result {
    readonly requests: Histogram;
    readonly latency: Histogram;
    readonly throughput: Histogram;
    /** Seconds. */
    readonly duration: number;
    readonly errors: number;
    readonly timeouts: number;
    readonly non2xx: number;
    readonly connections: number;
    readonly pipelining: number;
  }

  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
