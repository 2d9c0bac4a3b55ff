/**
 * Everything one sandbox gateway remembers, in memory: orders, tokens, open page sessions and
 * 3-D Secure challenges, financing transactions. Reads go through `settle` so that time-driven
 * transitions (hold expiry, bill expiry) have happened before anyone looks. `records()` and
 * `restore()` hand the whole of it to a snapshot (snapshot.ts) and back.
 */
import type { CardScheme } from '../core/card-number.ts';
import type { Language } from '../core/language.ts';
import type { GatewayAccount } from './merchants.ts';
import { holdsReference, settle, type SandboxOrder } from './orders.ts';
import { PAGE_SESSION_MS } from './test-cards.ts';
import { randomDigits, randomHex } from './wire.ts';

/** A stored card. The full number stays inside the sandbox; inspection shows it masked. */
export interface SandboxToken {
  readonly merchantIdentifier: string;
  readonly tokenName: string;
  readonly cardNumber: string;
  readonly scheme: CardScheme;
  readonly expiryDate: string;
  readonly holderName?: string;
  readonly createdAt: number;
  /** UPDATE_TOKEN sets it; an INACTIVE token pays nothing (00015). */
  readonly status: 'ACTIVE' | 'INACTIVE';
  /**
   * Set for a temporary token (a page TOKENIZATION without remember_me YES): it pays only the
   * payment it was made for, once, until the page session lapses, and is never listed.
   */
  readonly temporary?: {
    readonly merchantReference: string;
    readonly expiresAt: number;
    /** Spent by its one successful charge. */
    readonly spent: boolean;
  };
}

/** A card typed on a sandbox page or posted by a merchant page. */
export interface EnteredCard {
  readonly number: string;
  readonly scheme: CardScheme;
  /** YYMM. */
  readonly expiryDate: string;
  readonly holderName?: string;
}

/** A hosted page the customer has open: the verified request, waiting for card entry or a plan choice. */
export interface PageSession {
  readonly id: string;
  readonly merchant: GatewayAccount;
  /** The request as received and verified (signature included; the echo drops it). */
  readonly params: Readonly<Record<string, string>>;
  readonly kind: 'payment' | 'tokenization';
  /** Present when the card arrived with the request (merchant page 2.0) and only a plan is to be chosen. */
  readonly card?: EnteredCard;
  readonly createdAt: number;
}

/** A 3-D Secure challenge waiting for the customer. */
export interface Challenge {
  readonly id: string;
  readonly merchant: GatewayAccount;
  readonly svcId: string;
  /** The request of the charge, echoed in the final answer. */
  readonly params: Readonly<Record<string, unknown>>;
  readonly eci: 'ECOMMERCE' | 'RECURRING' | 'MOTO';
  readonly tokenName?: string;
  /** A card to store under `tokenName` once the challenge is approved (a charge with remember_me YES). */
  readonly cardToSave?: EnteredCard;
  /** The issuer fails this authentication whatever the customer presses (the `3ds_fails` card). */
  readonly authenticationFails?: boolean;
  readonly returnUrl?: URL;
  readonly language: Language;
  readonly createdAt: number;
}

/** A 3DS_ENROLLMENT and what became of it: the issuer's decision, then one 3DS_AUTHENTICATION. */
export interface ThreeDsEnrollment {
  /** The gateway's id of the check (threeds_id). */
  readonly id: string;
  readonly merchant: GatewayAccount;
  readonly merchantReference: string;
  readonly card: EnteredCard;
  readonly amount: number;
  readonly currency: string;
  readonly enrolled: boolean;
  /** `acs`: the customer answers the issuer's page (3ds_url); `md_pares`: MD and PaRes come with the enrollment. */
  readonly processor: 'acs' | 'md_pares';
  /** Where the issuer's page posts the processor parameters. */
  readonly merchant3dsUrl?: URL;
  readonly language: Language;
  readonly createdAt: number;
  /** The issuer's decision, once taken, and the one-time proof the merchant must send back with it. */
  readonly decision?: {
    readonly authenticated: boolean;
    readonly proof: string;
    /** What 3DS_AUTHENTICATION answers as 3ds_xid and ver_token. */
    readonly xid: string;
    readonly verToken: string;
  };
  /** Set by 3DS_AUTHENTICATION: a check authenticates once. */
  readonly used: boolean;
}

/** A customer the financing partner verified (CUSTOMER_VERIFY, 90000) for one order: what OTP_GENERATE needs first. */
export interface CustomerVerification {
  readonly merchantIdentifier: string;
  readonly merchantReference: string;
  /** Normalized, as the partner compares numbers. */
  readonly phone: string;
  readonly verifiedAt: number;
}

/** One consumer-financing attempt, from OTP_GENERATE to PURCHASE. */
export interface FinancingTransaction {
  readonly transactionId: string;
  readonly merchantIdentifier: string;
  readonly merchantReference: string;
  readonly merchantOrderId: string;
  readonly phone: string;
  readonly amount: number;
  readonly currency: string;
  readonly downPayment: number;
  readonly otp: string;
  readonly wrongAttempts: number;
  readonly verified: boolean;
  readonly locked: boolean;
  readonly completed: boolean;
  readonly createdAt: number;
}

/** Everything a SandboxState holds, as plain records: what a snapshot saves. */
export interface SandboxStateRecords {
  readonly orders: readonly SandboxOrder[];
  readonly tokens: readonly SandboxToken[];
  readonly sessions: readonly PageSession[];
  readonly challenges: readonly Challenge[];
  readonly enrollments: readonly ThreeDsEnrollment[];
  readonly financing: readonly FinancingTransaction[];
  readonly customerVerifications: readonly CustomerVerification[];
  /** The last number given to an svc_id (and the authorization codes derived from it). */
  readonly sequence: number;
}

const key = (merchantIdentifier: string, name: string): string => `${merchantIdentifier}\u0000${name}`;

export class SandboxState {
  private readonly ordersBySvcId = new Map<string, SandboxOrder>();
  private readonly tokensByName = new Map<string, SandboxToken>();
  readonly sessions = new Map<string, PageSession>();
  readonly challenges = new Map<string, Challenge>();
  readonly enrollments = new Map<string, ThreeDsEnrollment>();
  private readonly financingById = new Map<string, FinancingTransaction>();
  private readonly verifiedCustomers = new Map<string, CustomerVerification>();
  private sequence = 0;
  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  /** Forgets everything (between tests that share one gateway). */
  clear(): void {
    this.ordersBySvcId.clear();
    this.tokensByName.clear();
    this.sessions.clear();
    this.challenges.clear();
    this.enrollments.clear();
    this.financingById.clear();
    this.verifiedCustomers.clear();
  }

  /** Every record as held, orders unsettled: settling again after a restore gives the same result. */
  records(): SandboxStateRecords {
    return {
      orders: [...this.ordersBySvcId.values()],
      tokens: this.tokens(),
      sessions: [...this.sessions.values()],
      challenges: [...this.challenges.values()],
      enrollments: [...this.enrollments.values()],
      financing: this.financingTransactions(),
      customerVerifications: [...this.verifiedCustomers.values()],
      sequence: this.sequence,
    };
  }

  /** Replaces everything held with `records` (a saved snapshot coming back). */
  restore(records: SandboxStateRecords): void {
    this.clear();
    for (const order of records.orders) this.saveOrder(order);
    for (const token of records.tokens) this.saveToken(token);
    for (const session of records.sessions) this.sessions.set(session.id, session);
    for (const challenge of records.challenges) this.challenges.set(challenge.id, challenge);
    for (const enrollment of records.enrollments) this.enrollments.set(enrollment.id, enrollment);
    for (const transaction of records.financing) this.saveFinancing(transaction);
    for (const verification of records.customerVerifications) this.saveCustomerVerification(verification);
    this.sequence = records.sequence;
  }

  // ---- Orders ----

  /** Every order as of now, oldest first. */
  orders(): SandboxOrder[] {
    return [...this.ordersBySvcId.values()].map((order) => this.settled(order));
  }

  private settled(order: SandboxOrder): SandboxOrder {
    const current = settle(order, this.now());
    if (current !== order) this.ordersBySvcId.set(current.svcId, current);
    return current;
  }

  saveOrder(order: SandboxOrder): void {
    this.ordersBySvcId.set(order.svcId, order);
  }

  orderBySvcId(merchantIdentifier: string, svcId: string): SandboxOrder | undefined {
    const order = this.ordersBySvcId.get(svcId);
    return order && order.merchantIdentifier === merchantIdentifier ? this.settled(order) : undefined;
  }

  /** The order a reference names: the one holding it, else the latest declined attempt. */
  orderByReference(merchantIdentifier: string, merchantReference: string): SandboxOrder | undefined {
    const matching = this.orders().filter(
      (order) => order.merchantIdentifier === merchantIdentifier && order.merchantReference === merchantReference,
    );
    return matching.find(holdsReference) ?? matching[matching.length - 1];
  }

  /**
   * The order a maintenance request names: by svc_id (and then a merchant_reference sent with it
   * must be that order's), or by merchant_reference alone.
   */
  findOrder(
    merchantIdentifier: string,
    query: { readonly svcId?: string | undefined; readonly merchantReference?: string | undefined },
  ): SandboxOrder | undefined {
    const { svcId, merchantReference } = query;
    if (svcId !== undefined) {
      const order = this.orderBySvcId(merchantIdentifier, svcId);
      return order && (merchantReference === undefined || order.merchantReference === merchantReference) ? order : undefined;
    }
    return merchantReference === undefined ? undefined : this.orderByReference(merchantIdentifier, merchantReference);
  }

  orderByBillNumber(billNumber: string): SandboxOrder | undefined {
    return this.orders().find((order) => order.bill?.billNumber === billNumber);
  }

  /** True when an order that is not a declined attempt already uses the reference. */
  referenceTaken(merchantIdentifier: string, merchantReference: string): boolean {
    return this.orders().some(
      (order) =>
        order.merchantIdentifier === merchantIdentifier &&
        order.merchantReference === merchantReference &&
        holdsReference(order),
    );
  }

  // ---- Tokens ----

  saveToken(token: SandboxToken): void {
    this.tokensByName.set(key(token.merchantIdentifier, token.tokenName), token);
  }

  token(merchantIdentifier: string, tokenName: string): SandboxToken | undefined {
    return this.tokensByName.get(key(merchantIdentifier, tokenName));
  }

  tokens(): SandboxToken[] {
    return [...this.tokensByName.values()];
  }

  /** Renames a token (UPDATE_TOKEN new_token_name): the old name no longer pays. */
  renameToken(token: SandboxToken, newName: string): SandboxToken {
    this.tokensByName.delete(key(token.merchantIdentifier, token.tokenName));
    const renamed = { ...token, tokenName: newName };
    this.saveToken(renamed);
    return renamed;
  }

  // ---- Financing ----

  saveFinancing(transaction: FinancingTransaction): void {
    this.financingById.set(key(transaction.merchantIdentifier, transaction.transactionId), transaction);
  }

  financing(merchantIdentifier: string, transactionId: string): FinancingTransaction | undefined {
    return this.financingById.get(key(merchantIdentifier, transactionId));
  }

  /** The latest OTP generated for a merchant_reference. */
  latestFinancing(merchantIdentifier: string, merchantReference: string): FinancingTransaction | undefined {
    let latest: FinancingTransaction | undefined;
    for (const transaction of this.financingById.values()) {
      if (transaction.merchantIdentifier === merchantIdentifier && transaction.merchantReference === merchantReference) {
        latest = transaction;
      }
    }
    return latest;
  }

  financingTransactions(): FinancingTransaction[] {
    return [...this.financingById.values()];
  }

  saveCustomerVerification(verification: CustomerVerification): void {
    const { merchantIdentifier, merchantReference, phone } = verification;
    this.verifiedCustomers.set(key(merchantIdentifier, `${merchantReference}\u0000${phone}`), verification);
  }

  /** True once CUSTOMER_VERIFY accepted this phone for this merchant_reference. */
  customerVerified(merchantIdentifier: string, merchantReference: string, phone: string): boolean {
    return this.verifiedCustomers.has(key(merchantIdentifier, `${merchantReference}\u0000${phone}`));
  }

  // ---- Identifiers ----

  /** svc_id: numeric, at most 20 digits (spec), unique within this gateway: epoch ms and a sequence. */
  nextSvcId(): string {
    this.sequence += 1;
    return `${this.now()}${String(this.sequence).padStart(5, '0')}`;
  }

  /** Six digits, as processors issue them. */
  nextAuthorizationCode(): string {
    return String(100_000 + ((this.sequence * 7_919 + 1) % 900_000));
  }

  /** 14 digits (spec, Bill), never starting with 0, unique among this gateway's bills. */
  newBillNumber(): string {
    for (;;) {
      const candidate = `${1 + (Number(randomDigits(1)) % 9)}${randomDigits(13)}`;
      if (!this.orders().some((order) => order.bill?.billNumber === candidate)) return candidate;
    }
  }

  newTokenName(): string {
    return `TK${randomHex(16)}`;
  }

  newTransactionId(): string {
    return `FT${randomHex(10)}`;
  }

  /** Unguessable: a page session id is all a customer's browser holds. Forgets lapsed pages first. */
  newPageId(): string {
    const lapsedBefore = this.now() - PAGE_SESSION_MS;
    for (const pages of [this.sessions, this.challenges, this.enrollments]) {
      for (const [id, page] of pages) if (page.createdAt <= lapsedBefore) pages.delete(id);
    }
    return randomHex(16);
  }
}
