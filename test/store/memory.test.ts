import { createMemoryStore } from '../../src/store/memory.ts';
import { describeStoreContract } from './store-contract.ts';

describeStoreContract('memory', async () => {
  const store = createMemoryStore();
  return { store, cleanup: () => store.close() };
});
