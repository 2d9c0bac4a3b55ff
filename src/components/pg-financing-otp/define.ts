/** Registers `<pg-financing-otp>` (guarded: a second copy of the bundle warns instead of throwing). */
import { defineElement } from '../shared/define.ts';
import { PgFinancingOtp } from './pg-financing-otp.ts';

defineElement('pg-financing-otp', PgFinancingOtp);
