/**
 * `pg-checkout/define`: registers every element. Importing it is the side effect; each
 * registration is guarded, so a second copy of the bundle on the page warns and does not throw.
 *
 * The four registrations are made here, after the four classes, rather than by importing each
 * element's own define module: the minifier then keeps each class a named binding, registered as
 * `define('pg-…', Class)` (the size test looks for exactly that in the bundle's entry), instead of
 * writing a class without decorators into the call itself.
 */
import { PgBillVoucher } from './components/pg-bill-voucher/pg-bill-voucher.ts';
import { PgCheckout } from './components/pg-checkout/pg-checkout.ts';
import { PgFinancingOtp } from './components/pg-financing-otp/pg-financing-otp.ts';
import { PgInstallments } from './components/pg-installments/pg-installments.ts';
import { defineElement } from './components/shared/define.ts';

defineElement('pg-checkout', PgCheckout);
defineElement('pg-installments', PgInstallments);
defineElement('pg-bill-voucher', PgBillVoucher);
defineElement('pg-financing-otp', PgFinancingOtp);
