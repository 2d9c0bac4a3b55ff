/**
 * `pg-checkout/define`: registers every element. Importing it is the side effect; each
 * registration is guarded, so a second copy of the bundle on the page warns and does not throw.
 */
import './components/pg-checkout/define.ts';
import './components/pg-installments/define.ts';
import './components/pg-bill-voucher/define.ts';
import './components/pg-financing-otp/define.ts';
