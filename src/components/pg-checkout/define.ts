/** Registers `<pg-checkout>` (guarded: a second copy of the bundle warns instead of throwing). */
import { defineElement } from '../shared/define.ts';
import { PgCheckout } from './pg-checkout.ts';

defineElement('pg-checkout', PgCheckout);
