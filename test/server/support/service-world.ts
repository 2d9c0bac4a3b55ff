/**
 * The world of the tests that run `pg-checkout serve` as a real process against a gateway and a
 * shop of the test process, over loopback (crash.test.ts, shutdown.test.ts): both started once per
 * file, reset after each test, every service still running killed, and the temporary folders
 * removed when the file ends.
 */
import { after, afterEach, before } from 'node:test';
import { startHttpGateway, type HttpGateway } from './http-gateway.ts';
import { killAll, removeTempDirs } from './processes.ts';
import { SHOP_SECRET, startShop, type TestShop } from './shop.ts';

export interface ServiceWorld {
  readonly gateway: HttpGateway;
  readonly shop: TestShop;
  /** The service's settings: this world's gateway and shop (order lookup, webhook), the store in `dataDir`. */
  settings(dataDir: string, extra?: Record<string, string>): Record<string, string>;
}

export function serviceWorld(): ServiceWorld {
  let gateway: HttpGateway | undefined;
  let shop: TestShop | undefined;
  before(async () => {
    [gateway, shop] = await Promise.all([startHttpGateway(), startShop()]);
  });
  afterEach(async () => {
    await killAll();
    shop?.reset();
    gateway?.fake.reset();
  });
  after(async () => {
    await killAll();
    await Promise.all([gateway?.close(), shop?.stop()]);
    removeTempDirs();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the service world is used before its `before` hook ran');
    return value;
  };
  return {
    get gateway() {
      return started(gateway);
    },
    get shop() {
      return started(shop);
    },
    settings(dataDir, extra = {}) {
      return {
        ...started(gateway).env,
        PG_DATA_DIR: dataDir,
        PG_ORDER_URL: started(shop).orderUrl,
        PG_RESULT_WEBHOOK_URL: started(shop).webhookUrl,
        PG_HOOK_SECRET: SHOP_SECRET,
        ...extra,
      };
    },
  };
}
