/**
 * The XML response builder (spec, "What the service does" 14, and "Token list response (XML
 * shape)"): any answer as XML, root `response`, each field a child node, signed over the same
 * fields as the JSON answer. `toXml` writes an answer; `parseXml` reads one back into the same
 * map of fields, so that one `verifySignature` checks both forms.
 *
 * The spec leaves the tag names of list nodes open beyond `data_list` holding `data` nodes. Our
 * rule (docs/decisions.md): a list field holds one child per item, named by `XML_LIST_ITEMS`
 * (`data` in `data_list`, `item` in any other list); a field name that is not a valid XML name
 * because it starts with a digit (`3ds_url`) is written with a leading underscore (`_3ds_url`).
 * Every scalar is written as text, so a parsed answer holds strings: the signature is the same,
 * since the canonical string writes a number as its digits.
 */
import type { SignableValue } from './signature.ts';

/** The item node of each list field the gateway answers; any other list uses `item`. */
export const XML_LIST_ITEMS: Readonly<Record<string, string>> = {
  data_list: 'data',
  issuer_detail: 'item',
  plan_details: 'item',
  bins: 'item',
  TENURE_VM: 'item',
  products: 'item',
  columns: 'item',
  filters: 'item',
  rows: 'item',
  errors: 'item',
};

const DEFAULT_ITEM = 'item';
const ROOT = 'response';
/** What every XML document the gateway writes starts with; its root node is `response`. */
export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/** A parsed XML answer: scalars are strings, lists arrays, nested nodes objects. */
export type XmlValue = string | XmlObject | readonly XmlValue[];
export interface XmlObject {
  readonly [name: string]: XmlValue;
}

/** An XML text that is not an answer this module can read. */
export class XmlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlError';
  }
}

// ---- Writing ----

// A carriage return is written as a reference: an XML parser turns a raw CRLF into LF, which
// would change a signed value (the batch results' CSV text ends its lines with CRLF).
function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

/** The tag of a field: its name, with `_` before a leading digit (`3ds_url` → `_3ds_url`). */
export function xmlTagOf(name: string): string {
  const tag = /^\d/.test(name) ? `_${name}` : name;
  if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(tag)) throw new XmlError(`field name "${name}" cannot be an XML tag`);
  return tag;
}

/** The field name of a tag: the inverse of {@link xmlTagOf}. */
export function fieldNameOf(tag: string): string {
  return /^_\d/.test(tag) ? tag.slice(1) : tag;
}

function writeNode(tag: string, value: SignableValue, itemTag: string): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) {
    const items = (value as readonly SignableValue[]).map((item) => writeNode(itemTag, item, DEFAULT_ITEM)).join('');
    return `<${tag}>${items}</${tag}>`;
  }
  if (typeof value === 'object') {
    const children = Object.entries(value)
      .map(([name, child]) => writeNode(xmlTagOf(name), child, XML_LIST_ITEMS[name] ?? DEFAULT_ITEM))
      .join('');
    return `<${tag}>${children}</${tag}>`;
  }
  return `<${tag}>${escapeText(String(value))}</${tag}>`;
}

/**
 * One field as an XML node, `<name>…</name>`, written by the rules of {@link toXml}: for a long
 * document written piece by piece (the report download streams its rows).
 */
export function toXmlNode(name: string, value: SignableValue): string {
  return writeNode(xmlTagOf(name), value, XML_LIST_ITEMS[name] ?? DEFAULT_ITEM);
}

/** An answer as an XML document: `<?xml …?><response><field>value</field>…</response>`. */
export function toXml(fields: Readonly<Record<string, SignableValue>>): string {
  return `${XML_DECLARATION}${writeNode(ROOT, fields, DEFAULT_ITEM)}`;
}

// ---- Reading ----

interface Element {
  readonly tag: string;
  readonly children: Element[];
  text: string;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (whole, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10));
    const known = ENTITIES[entity];
    if (known === undefined) throw new XmlError(`unknown entity ${whole}`);
    return known;
  });
}

const TOKEN = /<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<!DOCTYPE[^>]*>|<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)|</g;

/** The element tree of a document: elements, text and CDATA; declarations, comments and attributes are skipped. */
function parseTree(text: string): Element {
  const stack: Element[] = [{ tag: '#document', children: [], text: '' }];
  for (const match of text.matchAll(TOKEN)) {
    const [whole, cdata, closing, tag, , selfClosing, chars] = match;
    const current = stack[stack.length - 1] as Element;
    if (whole === '<') throw new XmlError('a "<" that starts no tag');
    if (cdata !== undefined) {
      current.text += cdata;
    } else if (chars !== undefined) {
      current.text += decodeEntities(chars);
    } else if (tag !== undefined) {
      if (closing) {
        if (current.tag !== tag || stack.length === 1) throw new XmlError(`</${tag}> closes <${current.tag}>`);
        stack.pop();
      } else {
        const element: Element = { tag, children: [], text: '' };
        current.children.push(element);
        if (!selfClosing) stack.push(element);
      }
    }
  }
  if (stack.length !== 1) throw new XmlError(`<${(stack[stack.length - 1] as Element).tag}> is never closed`);
  const document = stack[0] as Element;
  if (document.text.trim() !== '') throw new XmlError('text outside the root node');
  if (document.children.length !== 1) throw new XmlError('a document has exactly one root node');
  return document.children[0] as Element;
}

function readNode(element: Element, name: string): XmlValue {
  const listItem = XML_LIST_ITEMS[name];
  const { children } = element;
  if (children.length === 0) return listItem === undefined ? element.text : [];
  if (element.text.trim() !== '') throw new XmlError(`<${element.tag}> mixes text and nodes`);
  const itemTag = listItem ?? DEFAULT_ITEM;
  if (listItem !== undefined || children.every((child) => child.tag === itemTag)) {
    return children.map((child) => {
      if (child.tag !== itemTag) throw new XmlError(`<${element.tag}> holds <${child.tag}>, expected <${itemTag}>`);
      return readNode(child, '');
    });
  }
  const object: Record<string, XmlValue> = {};
  for (const child of children) {
    const field = fieldNameOf(child.tag);
    if (Object.hasOwn(object, field)) throw new XmlError(`<${child.tag}> appears twice in <${element.tag}>`);
    object[field] = readNode(child, field);
  }
  return object;
}

/** Reads an answer written by {@link toXml} (or the gateway) back into its fields. Throws XmlError. */
export function parseXml(text: string): XmlObject {
  const root = parseTree(text);
  if (root.tag !== ROOT) throw new XmlError(`the root node is <${root.tag}>, expected <${ROOT}>`);
  if (root.children.length === 0) return {};
  const value = readNode(root, ROOT);
  if (typeof value === 'string' || Array.isArray(value)) throw new XmlError('<response> must hold field nodes');
  return value as XmlObject;
}
