/**
 * Something loaded on first use (a module: the Arabic catalog of an element, the contract's
 * schemas): one load at a time, the value kept once it has arrived, and a failed load forgotten so
 * that the next call tries again (a network that came back).
 */
export interface OnDemand<T> {
  /** Starts the load, or joins the one under way, or resolves with the value at hand. */
  load(): Promise<T>;
  /** The value once it has arrived, else undefined. */
  readonly value: T | undefined;
}

export function onDemand<T>(load: () => Promise<T>): OnDemand<T> {
  let value: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    load() {
      loading ??= load().then(
        (arrived) => (value = arrived),
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
    get value() {
      return value;
    },
  };
}
