/**
 * The wire name of the gateway's own reference of an order. The gateway's specification calls the
 * field `svc_id`, a neutral name; the live gateway and its official SDKs carry it as `fort_id`
 * (docs/decisions.md). Inside pg-checkout it is always `svc_id` (types, results, idempotency keys);
 * which name the wire uses is a setting, and this module is the one place that translates between
 * the two. A request is renamed before it is signed and an answer after its signature has been
 * verified: the gateway signs and checks the names it sees, so a request signed over `svc_id`
 * would be refused by a gateway that expects `fort_id`.
 *
 * Where a message names the reference:
 *   - as a field of any request or answer (`svc_id` / `fort_id`);
 *   - as a column: a key of the objects in `rows` (batch results, report rows), a value of
 *     `columns` and the `key` of a `filters` entry (reports), a cell of the header row of the CSV
 *     text in `batch_results` and of a batch file.
 */
import { csvRecord, parseCsv } from './csv.ts';
import type { FieldError } from './field-errors.ts';

/** The name pg-checkout uses inside, whatever the wire says: the specification's. */
export const GATEWAY_REFERENCE = 'svc_id';

/** The names the gateway's reference may carry on the wire: the specification's, and the live gateway's. */
export const GATEWAY_REFERENCE_FIELDS = ['svc_id', 'fort_id'] as const;
export type GatewayReferenceField = (typeof GATEWAY_REFERENCE_FIELDS)[number];

/** The specification's name, unless configured otherwise (`PG_GATEWAY_REFERENCE_FIELD`). */
export const DEFAULT_GATEWAY_REFERENCE_FIELD: GatewayReferenceField = 'svc_id';

export function isGatewayReferenceField(value: unknown): value is GatewayReferenceField {
  return value === 'svc_id' || value === 'fort_id';
}

/** A field or column name as the wire writes it: `svc_id` becomes the configured name, anything else stays. */
export function toWireName(name: string, field: GatewayReferenceField): string {
  return name === GATEWAY_REFERENCE ? field : name;
}

/**
 * A wire name as pg-checkout reads it: the configured name becomes `svc_id`. Undefined for the
 * reference under the name this wire does not use (`svc_id` where the wire says `fort_id`): it is
 * no field of this wire, and read as `svc_id` it would stand for the reference. In the other
 * direction nothing collides: `fort_id` on an `svc_id` wire is just a name the gateway does not know.
 */
export function fromWireName(name: string, field: GatewayReferenceField): string | undefined {
  if (field === GATEWAY_REFERENCE) return name;
  if (name === field) return GATEWAY_REFERENCE;
  return name === GATEWAY_REFERENCE ? undefined : name;
}

type Rename = (name: string) => string | undefined;
type Message<V> = Readonly<Record<string, V>>;

/** The header row of a CSV text renamed cell by cell; the rest of the text, and its quoting, as it was. */
function renameCsvHeader(text: string, rename: Rename): string {
  const bom = text.startsWith('\ufeff') ? '\ufeff' : '';
  const end = text.search(/\r?\n/);
  const header = text.slice(bom.length, end < 0 ? text.length : end);
  const reading = parseCsv(header);
  // A header holding a quoted line break is not one line: left alone (the reader reports it).
  if (!reading.ok || reading.records.length !== 1) return text;
  const values = reading.records[0]?.values ?? [];
  const renamed = values.map((value) => rename(value) ?? value);
  if (renamed.every((value, index) => value === values[index])) return text;
  const quoting = header.startsWith('"') ? 'always' : 'needed';
  return `${bom}${csvRecord(renamed, quoting)}${text.slice(bom.length + header.length)}`;
}

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function renameKeys(object: Readonly<Record<string, unknown>>, rename: Rename): Record<string, unknown> {
  const renamed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(object)) {
    const wire = rename(name);
    if (wire !== undefined) renamed[wire] = value;
  }
  return renamed;
}

/** The value of a field that names columns, its column names renamed; a name with no counterpart stays as it was. */
function renameColumns(name: string, value: unknown, rename: Rename): unknown {
  const column = (text: unknown) => (typeof text === 'string' ? (rename(text) ?? text) : text);
  switch (name) {
    case 'rows':
      return Array.isArray(value) ? value.map((row) => (isObject(row) ? renameKeys(row, rename) : row)) : value;
    case 'columns':
      return Array.isArray(value) ? value.map(column) : value;
    case 'filters':
      return Array.isArray(value) ? value.map((entry) => (isObject(entry) && 'key' in entry ? { ...entry, key: column(entry['key']) } : entry)) : value;
    case 'batch_results':
      return typeof value === 'string' ? renameCsvHeader(value, rename) : value;
    default:
      return value;
  }
}

function translate<V>(message: Message<V>, rename: Rename): Record<string, V> {
  const translated: Record<string, V> = {};
  for (const [name, value] of Object.entries(message)) {
    const renamed = rename(name);
    // Later fields win, as they would in a spread: an answer's own svc_id over an echoed one.
    if (renamed !== undefined) translated[renamed] = renameColumns(renamed, value, rename) as V;
  }
  return translated;
}

/**
 * A message (request or answer) as the wire carries it: every place that names the gateway's
 * reference renamed to `field`. With the specification's name the message is returned as it is.
 */
export function toWireNames<V>(message: Message<V>, field: GatewayReferenceField): Record<string, V> {
  if (field === GATEWAY_REFERENCE) return message as Record<string, V>;
  return translate(message, (name) => toWireName(name, field));
}

/**
 * A message read off the wire (only once its signature has been verified) with the reference
 * named `svc_id` again. A field carrying the reference under the name this wire does not use is
 * dropped (see {@link fromWireName}); the sandbox refuses such a request first ({@link foreignReferenceIn}).
 */
export function fromWireNames<V>(message: Message<V>, field: GatewayReferenceField): Record<string, V> {
  if (field === GATEWAY_REFERENCE) return message as Record<string, V>;
  return translate(message, (name) => fromWireName(name, field));
}

/**
 * Where a message names the reference by the name its wire does not use (`svc_id` on a `fort_id`
 * wire), as a field path (`svc_id`, `columns[9]`, `filters[0].key`); undefined when it does not.
 * A gateway refuses such a field as it refuses any name it does not know.
 */
export function foreignReferenceIn(message: Message<unknown>, field: GatewayReferenceField): string | undefined {
  if (field === GATEWAY_REFERENCE) return undefined;
  const foreign = (name: unknown) => typeof name === 'string' && fromWireName(name, field) === undefined;
  for (const [name, value] of Object.entries(message)) {
    if (foreign(name)) return name;
    if (name === 'columns' && Array.isArray(value)) {
      const index = value.findIndex(foreign);
      if (index >= 0) return `columns[${index}]`;
    }
    if (name === 'filters' && Array.isArray(value)) {
      const index = value.findIndex((entry) => isObject(entry) && foreign(entry['key']));
      if (index >= 0) return `filters[${index}].key`;
    }
  }
  return undefined;
}

/**
 * A CSV text (a batch file) with the reference's column named as the wire names it; a file that
 * already uses the wire's name, or has no such column, is returned as it is.
 */
export function csvHeaderToWire(text: string, field: GatewayReferenceField): string {
  if (field === GATEWAY_REFERENCE) return text;
  return renameCsvHeader(text, (name) => toWireName(name, field));
}

/**
 * A field error of a check made under the inside names (`svc_id: …`), as the wire names the field
 * (`fort_id: …`), for a refusal the sender can act on. Errors of other fields are returned as they are.
 */
export function toWireFieldError(error: FieldError, field: GatewayReferenceField): FieldError {
  if (field === GATEWAY_REFERENCE) return error;
  const [head = '', ...rest] = error.field.split('.');
  const name = [toWireName(head, field), ...rest].join('.');
  // A field error's message is "field: what is wrong" (field-errors.ts).
  let message = error.message.startsWith(`${error.field}:`) ? `${name}${error.message.slice(error.field.length)}` : error.message;
  // A list of allowed values (a report's columns, its filter keys) names the reference as the wire does too.
  if (error.rule === 'enum') message = message.replace(ALLOWED_REFERENCE, field);
  return name === error.field && message === error.message ? error : { ...error, field: name, message };
}

/** The reference's inside name as one value of a "must be one of: a, b" list, in English or Arabic. */
const ALLOWED_REFERENCE = new RegExp(`(?<=[:,،] )${GATEWAY_REFERENCE}(?=[,،]|$)`, 'g');
