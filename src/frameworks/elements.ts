/**
 * The four elements as a framework's type-checker sees them: for each tag, the element class, what
 * each public property accepts, the attributes, and the events it fires. Types only: nothing here
 * exists at run time. `pg-checkout/react` and `pg-checkout/vue` turn these into JSX and Vue template
 * typings; other frameworks (Preact, Solid, Svelte) can build theirs from the same map.
 *
 * Derived from the classes where that keeps them true: the properties are every writable,
 * non-method member an element adds to LitElement, typed as the class types it, so a new
 * property needs no edit here. test/build/framework-types.test.ts checks them against
 * custom-elements.json (every attribute, property and event documented there, and none more).
 */
import type { LitElement } from 'lit';
import type { FinancingProduct } from '../core/endpoint-api.ts';
import type { PgBillCopyEvent, PgBillExpireEvent, PgBillIssueEvent, PgBillPaidEvent, PgBillReissueEvent } from '../components/pg-bill-voucher/events.ts';
import type { PgBillVoucher } from '../components/pg-bill-voucher/pg-bill-voucher.ts';
import type { PaymentMethod, PgMethodChangeEvent } from '../components/pg-checkout/events.ts';
import type { PgCheckout } from '../components/pg-checkout/pg-checkout.ts';
import type { PgFinancingCompleteEvent, PgFinancingStepEvent } from '../components/pg-financing-otp/events.ts';
import type { PgFinancingOtp } from '../components/pg-financing-otp/pg-financing-otp.ts';
import type { PgPayInFullEvent, PgPlansLoadEvent } from '../components/pg-installments/events.ts';
import type { PgInstallments } from '../components/pg-installments/pg-installments.ts';
import type {
  PgPaymentResultEvent,
  PgPaymentSubmitEvent,
  PgRequestCompleteEvent,
  PgRequestErrorEvent,
  PgRequestStartEvent,
  PgRequestSuccessEvent,
} from '../components/shared/events.ts';

// ---- Deriving the properties from a class ----

type IfEqual<X, Y, Then, Else> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? Then : Else;

/** Members that can be assigned: not read-only getters, not methods. */
type SettableKeys<E> = {
  [K in keyof E]-?: E[K] extends (...args: never[]) => unknown
    ? never
    : IfEqual<{ [Q in K]: E[K] }, { -readonly [Q in K]: E[K] }, K, never>;
}[keyof E];

/** What a property accepts besides its own type: a number's attribute text (`amount="150000"`). */
type Accepted<T> = T extends number ? T | `${number}` : T;

/**
 * The public properties an element adds to LitElement, each optional and typed as the class types
 * it, widened to the attribute's text where the element reads that too (`Wider` overrides).
 */
type PropertiesOf<E extends LitElement, Wider = object> = Omit<
  { [K in Exclude<SettableKeys<E>, keyof LitElement>]?: Accepted<E[K]> },
  keyof Wider
> &
  Partial<Wider>;

/** `merchantReference` → `merchant-reference`. */
type KebabCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `-${Lowercase<Head>}`}${KebabCase<Tail>}`
  : S;

/** Each property that has an attribute, under the attribute's name (its name in kebab-case). */
type AttributesOf<Properties, PropertyOnly extends keyof Properties = never> = {
  [K in Exclude<keyof Properties, PropertyOnly> as K extends string ? KebabCase<K> : never]?: Properties[K];
};

// ---- The elements ----

/** The request lifecycle every element fires around each call to the merchant endpoint. */
export interface PgRequestEventMap {
  'pg-request-start': PgRequestStartEvent;
  'pg-request-success': PgRequestSuccessEvent;
  'pg-request-error': PgRequestErrorEvent;
  'pg-request-complete': PgRequestCompleteEvent;
}

/** `<pg-checkout>`'s properties; `methods` also takes its attribute's text (`"card voucher"`). */
export type PgCheckoutProperties = PropertiesOf<PgCheckout, { methods: readonly PaymentMethod[] | string }>;
export type PgCheckoutAttributes = AttributesOf<PgCheckoutProperties>;

export interface PgInstallmentsEventMap extends PgRequestEventMap {
  /** The chosen issuer or plan changed, and with it the form value. */
  change: Event;
  'pg-plans-load': PgPlansLoadEvent;
  'pg-pay-in-full': PgPayInFullEvent;
  'pg-payment-submit': PgPaymentSubmitEvent;
}

export type PgInstallmentsProperties = PropertiesOf<PgInstallments>;
export type PgInstallmentsAttributes = AttributesOf<PgInstallmentsProperties, 'cardPrefix'>;

export interface PgBillVoucherEventMap extends PgRequestEventMap {
  'pg-bill-issue': PgBillIssueEvent;
  'pg-bill-expire': PgBillExpireEvent;
  'pg-bill-paid': PgBillPaidEvent;
  'pg-bill-copy': PgBillCopyEvent;
  'pg-bill-reissue': PgBillReissueEvent;
}

/** `<pg-bill-voucher>`'s properties; `expires` also takes a `Date`. */
export type PgBillVoucherProperties = PropertiesOf<PgBillVoucher, { expires: string | Date }>;
export type PgBillVoucherAttributes = AttributesOf<PgBillVoucherProperties, 'clock'>;

export interface PgFinancingOtpEventMap extends PgRequestEventMap {
  'pg-financing-step': PgFinancingStepEvent;
  'pg-financing-complete': PgFinancingCompleteEvent;
}

export type PgFinancingOtpProperties = PropertiesOf<PgFinancingOtp, { products: readonly FinancingProduct[] }>;
export type PgFinancingOtpAttributes = AttributesOf<PgFinancingOtpProperties, 'clock' | 'products'>;

/**
 * `<pg-checkout>`'s own events, and those of the elements a drop-in hosts: they bubble and are
 * composed, so a listener on the checkout hears them (the installments' `change` does not leave it).
 */
export interface PgCheckoutEventMap
  extends Omit<PgInstallmentsEventMap, 'change'>,
    PgBillVoucherEventMap,
    PgFinancingOtpEventMap {
  'pg-method-change': PgMethodChangeEvent;
  'pg-payment-result': PgPaymentResultEvent;
}

/** One element's typings. */
export interface PgElementTyping<E extends LitElement, Properties, Attributes, Events> {
  readonly element: E;
  readonly properties: Properties;
  readonly attributes: Attributes;
  readonly events: Events;
}

/** Every tag with its typings: what `pg-checkout/react` and `pg-checkout/vue` are made from. */
export interface PgElementTypings {
  'pg-checkout': PgElementTyping<PgCheckout, PgCheckoutProperties, PgCheckoutAttributes, PgCheckoutEventMap>;
  'pg-installments': PgElementTyping<PgInstallments, PgInstallmentsProperties, PgInstallmentsAttributes, PgInstallmentsEventMap>;
  'pg-bill-voucher': PgElementTyping<PgBillVoucher, PgBillVoucherProperties, PgBillVoucherAttributes, PgBillVoucherEventMap>;
  'pg-financing-otp': PgElementTyping<PgFinancingOtp, PgFinancingOtpProperties, PgFinancingOtpAttributes, PgFinancingOtpEventMap>;
}
