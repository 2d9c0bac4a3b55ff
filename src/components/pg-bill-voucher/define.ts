/** Registers `<pg-bill-voucher>` (guarded: a second copy of the bundle warns instead of throwing). */
import { defineElement } from '../shared/define.ts';
import { PgBillVoucher } from './pg-bill-voucher.ts';

defineElement('pg-bill-voucher', PgBillVoucher);
