/**
 * A sandbox gateway's whole state as one JSON value, so that it can be kept across a restart as a
 * live gateway keeps its orders: orders (bills included), tokens, open page sessions, 3-D Secure
 * challenges and enrollments, financing transactions, batches, reports, the id sequences and the
 * clock offset of `advance-clock`. Merchants are saved by merchant_identifier and found again in
 * the gateway's merchant directory (their phrases are configuration, not state); URLs as strings,
 * a batch's file as base64.
 *
 * Where the snapshot is kept is the caller's: the gateway takes a {@link SandboxPersistence}, so
 * that this module (and the gateway) import no file system and still run in browsers. The Node
 * CLI keeps it in a file (src/cli/serve.ts, `sandboxStateFile`).
 */
import * as z from 'zod/mini';
import type { BatchRecords, SandboxBatch } from './batch.ts';
import type { GatewayAccount } from './merchants.ts';
import type { SandboxOrder } from './orders.ts';
import type { ReportRecord } from './reports.ts';
import type { Challenge, CustomerVerification, FinancingTransaction, PageSession, SandboxStateRecords, SandboxToken, ThreeDsEnrollment } from './state.ts';
import { pure } from '../core/schemas/pure.ts';

/** Written into every snapshot; a snapshot of another version is refused rather than misread. */
export const SNAPSHOT_VERSION = 1;

type MerchantById<T> = Omit<T, 'merchant'> & { readonly merchant: string };

export type SavedPageSession = MerchantById<PageSession>;
export type SavedChallenge = Omit<MerchantById<Challenge>, 'returnUrl'> & { readonly returnUrl?: string };
export type SavedEnrollment = Omit<MerchantById<ThreeDsEnrollment>, 'merchant3dsUrl'> & { readonly merchant3dsUrl?: string };
/** `file`: the uploaded bytes in base64. */
export type SavedBatch = Omit<MerchantById<SandboxBatch>, 'file'> & { readonly file: string };

/** The JSON a persistence saves and loads. */
export interface SandboxSnapshot {
  readonly version: typeof SNAPSHOT_VERSION;
  /** What `advance-clock` has added to the gateway's clock, in milliseconds. */
  readonly clockOffsetMs: number;
  /** The last svc_id sequence number given. */
  readonly sequence: number;
  /** The last batch_id sequence number given. */
  readonly batchSequence: number;
  readonly orders: readonly SandboxOrder[];
  readonly tokens: readonly SandboxToken[];
  readonly pageSessions: readonly SavedPageSession[];
  readonly challenges: readonly SavedChallenge[];
  readonly enrollments: readonly SavedEnrollment[];
  readonly financing: readonly FinancingTransaction[];
  /** Absent from a snapshot saved before OTP_GENERATE needed a CUSTOMER_VERIFY: none then. */
  readonly customerVerifications?: readonly CustomerVerification[];
  readonly batches: readonly SavedBatch[];
  readonly reports: readonly ReportRecord[];
}

/** Where a gateway keeps its state between runs (`createSandboxGateway({ persistence })`). */
export interface SandboxPersistence {
  /** Names the place for error messages, e.g. the file's path. */
  readonly location: string;
  /**
   * The saved snapshot as read, still to be checked (the gateway refuses one it cannot restore),
   * or undefined when nothing was saved yet. Throws when what is saved cannot be read.
   */
  load(): unknown;
  /** Replaces what is saved with `snapshot`, whole or not at all. Throws when it cannot. */
  save(snapshot: SandboxSnapshot): void;
}

/** What a gateway holds, as its stores hand it out and take it back. */
export interface SandboxContents {
  readonly state: SandboxStateRecords;
  readonly batches: BatchRecords;
  readonly reports: readonly ReportRecord[];
  readonly clockOffsetMs: number;
}

/** A saved snapshot that cannot be restored; the message says where in it. */
export class SnapshotError extends Error {
  override readonly name = 'SnapshotError';
}

export function takeSnapshot(contents: SandboxContents): SandboxSnapshot {
  const { state, batches, reports, clockOffsetMs } = contents;
  return {
    version: SNAPSHOT_VERSION,
    clockOffsetMs,
    sequence: state.sequence,
    batchSequence: batches.sequence,
    orders: state.orders,
    tokens: state.tokens,
    pageSessions: state.sessions.map(({ merchant, ...session }) => ({ ...session, merchant: merchant.merchantIdentifier })),
    challenges: state.challenges.map(({ merchant, returnUrl, ...challenge }) => ({
      ...challenge,
      merchant: merchant.merchantIdentifier,
      ...(returnUrl ? { returnUrl: returnUrl.href } : {}),
    })),
    enrollments: state.enrollments.map(({ merchant, merchant3dsUrl, ...enrollment }) => ({
      ...enrollment,
      merchant: merchant.merchantIdentifier,
      ...(merchant3dsUrl ? { merchant3dsUrl: merchant3dsUrl.href } : {}),
    })),
    financing: state.financing,
    customerVerifications: state.customerVerifications,
    batches: batches.batches.map(({ merchant, file, ...batch }) => ({ ...batch, merchant: merchant.merchantIdentifier, file: toBase64(file) })),
    reports,
  };
}

/**
 * The contents a saved snapshot describes, its merchants found in `merchants`. Throws
 * SnapshotError for anything that is not a snapshot of this version, and for a record of a
 * merchant the gateway does not know (its configuration changed since the save).
 */
export function restoreSnapshot(saved: unknown, merchants: ReadonlyMap<string, GatewayAccount>): SandboxContents {
  const version = typeof saved === 'object' && saved !== null ? (saved as { version?: unknown }).version : undefined;
  if (version !== SNAPSHOT_VERSION) {
    throw new SnapshotError(`not a sandbox state of version ${SNAPSHOT_VERSION} (version: ${JSON.stringify(version) ?? 'none'})`);
  }
  const checked = z.safeParse(snapshotShape, saved);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new SnapshotError(`${issue?.path.join('.') || 'the snapshot'}: ${issue?.message ?? 'unreadable'}`);
  }
  // The shape check above covers what the stores key and resolve on; the rest of each record is
  // the sandbox's own writing, taken as saved.
  const snapshot = saved as SandboxSnapshot;
  const merchantOf = (identifier: string, where: string): GatewayAccount => {
    const merchant = merchants.get(identifier);
    if (!merchant) throw new SnapshotError(`${where} belongs to merchant "${identifier}", which this gateway is not configured with`);
    return merchant;
  };
  return {
    clockOffsetMs: snapshot.clockOffsetMs,
    state: {
      sequence: snapshot.sequence,
      orders: snapshot.orders,
      tokens: snapshot.tokens,
      sessions: snapshot.pageSessions.map((session, i) => ({ ...session, merchant: merchantOf(session.merchant, `pageSessions.${i}`) })),
      challenges: snapshot.challenges.map(({ returnUrl, ...challenge }, i) => ({
        ...challenge,
        merchant: merchantOf(challenge.merchant, `challenges.${i}`),
        ...(returnUrl === undefined ? {} : { returnUrl: urlOf(returnUrl, `challenges.${i}.returnUrl`) }),
      })),
      enrollments: snapshot.enrollments.map(({ merchant3dsUrl, ...enrollment }, i) => ({
        ...enrollment,
        merchant: merchantOf(enrollment.merchant, `enrollments.${i}`),
        ...(merchant3dsUrl === undefined ? {} : { merchant3dsUrl: urlOf(merchant3dsUrl, `enrollments.${i}.merchant3dsUrl`) }),
      })),
      financing: snapshot.financing,
      customerVerifications: snapshot.customerVerifications ?? [],
    },
    batches: {
      sequence: snapshot.batchSequence,
      batches: snapshot.batches.map((batch, i) => ({
        ...batch,
        merchant: merchantOf(batch.merchant, `batches.${i}`),
        file: fromBase64(batch.file, `batches.${i}.file`),
      })),
    },
    reports: snapshot.reports,
  };
}

function urlOf(text: string, where: string): URL {
  try {
    return new URL(text);
  } catch {
    throw new SnapshotError(`${where}: not a URL`);
  }
}

// ---- Base64, without Node's Buffer (the sandbox runs in browsers too) ----

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}

function fromBase64(text: string, where: string): Uint8Array<ArrayBuffer> {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw new SnapshotError(`${where}: not base64`);
  }
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

// ---- The shape check ----

const snapshotShape = pure(() => {
  const text = z.string();
  const whole = z.number().check(z.refine((n) => Number.isSafeInteger(n) && n >= 0, 'expected a whole number'));
  const list = <T extends z.ZodMiniType>(item: T) => z.array(item);
  const order = z.looseObject({
    merchantIdentifier: text,
    merchantReference: text,
    svcId: text,
    state: text,
    amount: whole,
    currency: text,
    createdAt: whole,
    operations: list(z.looseObject({ operation: text, code: text, at: whole })),
  });
  const token = z.looseObject({
    merchantIdentifier: text,
    tokenName: text,
    cardNumber: text,
    expiryDate: text,
    status: z.enum(['ACTIVE', 'INACTIVE']),
    createdAt: whole,
  });
  const pageSession = z.looseObject({ id: text, merchant: text, params: z.record(text, text), kind: text, createdAt: whole });
  const challenge = z.looseObject({ id: text, merchant: text, svcId: text, returnUrl: z.optional(text), createdAt: whole });
  const enrollment = z.looseObject({
    id: text,
    merchant: text,
    merchantReference: text,
    card: z.looseObject({ number: text, expiryDate: text }),
    merchant3dsUrl: z.optional(text),
    createdAt: whole,
  });
  const financing = z.looseObject({ transactionId: text, merchantIdentifier: text, merchantReference: text, createdAt: whole });
  const verification = z.looseObject({ merchantIdentifier: text, merchantReference: text, phone: text, verifiedAt: whole });
  const batch = z.looseObject({ merchant: text, batchId: text, batchReference: text, language: text, file: text, uploadedAt: whole });
  const report = z.object({
    merchantIdentifier: text,
    file: z.looseObject({ merchant_reference: text, from_date: text, to_date: text, columns: list(text), rows: list(list(text)) }),
  });
  return z.object({
    version: z.literal(SNAPSHOT_VERSION),
    clockOffsetMs: whole,
    sequence: whole,
    batchSequence: whole,
    orders: list(order),
    tokens: list(token),
    pageSessions: list(pageSession),
    challenges: list(challenge),
    enrollments: list(enrollment),
    financing: list(financing),
    customerVerifications: z.optional(list(verification)),
    batches: list(batch),
    reports: list(report),
  });
});
