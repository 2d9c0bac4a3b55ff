/** `pg-checkout serve`: the merchant endpoint from PG_* environment variables, on loopback. */
export async function serveFromEnv(env: NodeJS.ProcessEnv): Promise<{ url: string }> {
  const server = await import('../server/serve.ts');
  return server.serve(env);
}
