/** Registers `<pg-installments>` (guarded: a second copy of the bundle warns instead of throwing). */
import { defineElement } from '../shared/define.ts';
import { PgInstallments } from './pg-installments.ts';

defineElement('pg-installments', PgInstallments);
