/**
 * What the tests of several `pg-checkout serve` processes on one PostgreSQL database share: a
 * throwaway cluster (or the reason there is none, and the test is skipped saying it), the loopback
 * gateway and shop, and the settings that point a process at all three.
 */
import { startTestPostgres, type TestPostgres } from '../../support/postgres.ts';
import { startHttpGateway, type HttpGateway } from './http-gateway.ts';
import { tempDir } from './processes.ts';
import { SHOP_SECRET, startShop, type TestShop } from './shop.ts';

export interface InstancesWorld {
  readonly gateway: HttpGateway;
  readonly shop: TestShop;
  /** Undefined when no PostgreSQL could be started: `skipReason` says why. */
  readonly postgres: TestPostgres | undefined;
  readonly skipReason: string | undefined;
  /** A new database and data folder, and the settings of a process on them. */
  database(prefix: string): Promise<{ readonly databaseUrl: string; readonly dataDir: string; readonly settings: Record<string, string> }>;
  /** Stops the gateway and the shop and removes the cluster (the processes are the test's to kill first). */
  close(): Promise<void>;
}

export async function startInstancesWorld(testName: string): Promise<InstancesWorld> {
  let postgres: TestPostgres | undefined;
  let skipReason: string | undefined;
  try {
    postgres = await startTestPostgres();
  } catch (error) {
    skipReason = `no PostgreSQL could be started: ${error instanceof Error ? error.message : String(error)}`;
    console.warn(`${testName} skipped: ${skipReason}`);
  }
  const [gateway, shop] = await Promise.all([startHttpGateway(), startShop()]);
  return {
    gateway,
    shop,
    postgres,
    skipReason,
    async database(prefix) {
      if (!postgres) throw new Error(skipReason);
      const databaseUrl = await postgres.createDatabase();
      const dataDir = tempDir(prefix);
      const settings = {
        ...gateway.env,
        PG_DATABASE_URL: databaseUrl,
        PG_DATA_DIR: dataDir,
        PG_ORDER_URL: shop.orderUrl,
        PG_RESULT_WEBHOOK_URL: shop.webhookUrl,
        PG_HOOK_SECRET: SHOP_SECRET,
      };
      return { databaseUrl, dataDir, settings };
    },
    async close() {
      await Promise.all([gateway.close(), shop.stop()]);
      await postgres?.cleanup();
    },
  };
}
