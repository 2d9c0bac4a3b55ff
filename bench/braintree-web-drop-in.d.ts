// braintree-web-drop-in ships no types; the benchmark only bundles it for its size.
declare module 'braintree-web-drop-in' {
  const dropin: {
    readonly VERSION: string;
    create(options: Readonly<Record<string, unknown>>): Promise<unknown>;
  };
  export default dropin;
}
