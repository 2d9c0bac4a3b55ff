import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { signParams, verifySignature } from '../../src/core/signature.ts';
import { parseXml, toXml, XmlError, xmlTagOf, fieldNameOf } from '../../src/core/xml.ts';

const tokenList = {
  response_code: '54000',
  status: '54',
  query_command: 'GET_TOKENS',
  data_count: 2,
  data_list: [
    { token_name: 'TK1', card_number: '411111******1111', token_status: 'ACTIVE' },
    { token_name: 'TK2', card_number: '512345******2346', token_status: 'INACTIVE' },
  ],
  response_message: 'Success & done <ok>',
};

describe('toXml', () => {
  it('writes the root response with each field a child node', () => {
    const xml = toXml({ response_code: '56000', status: '56' });
    assert.equal(xml, '<?xml version="1.0" encoding="UTF-8"?><response><response_code>56000</response_code><status>56</status></response>');
  });

  it('writes data_list as repeated data nodes, as the token list answer shows it', () => {
    const xml = toXml(tokenList);
    assert.match(xml, /<data_list><data><token_name>TK1<\/token_name>.*<\/data><data><token_name>TK2<\/token_name>/);
  });

  it('escapes text so that a message cannot open a node', () => {
    assert.match(toXml(tokenList), /<response_message>Success &amp; done &lt;ok&gt;<\/response_message>/);
  });

  it('writes a field starting with a digit with a leading underscore', () => {
    assert.match(toXml({ '3ds_url': 'https://acs.example/x?a=1&b=2' }), /<_3ds_url>https:\/\/acs\.example\/x\?a=1&amp;b=2<\/_3ds_url>/);
    assert.equal(xmlTagOf('3ds_eci'), '_3ds_eci');
    assert.equal(fieldNameOf('_3ds_eci'), '3ds_eci');
  });

  it('leaves absent values out', () => {
    assert.doesNotMatch(toXml({ a: undefined, b: null, c: '1' }), /<a>|<b>/);
  });
});

describe('parseXml', () => {
  it('reads back what toXml wrote, scalars as text', () => {
    const parsed = parseXml(toXml(tokenList));
    assert.deepEqual(parsed, { ...tokenList, data_count: '2' });
  });

  it('keeps the signature valid across the round trip', async () => {
    const signed = await signParams(tokenList, 'response-phrase', 'sha256');
    const parsed = parseXml(toXml(signed));
    assert.deepEqual(await verifySignature(parsed, 'response-phrase', 'sha256'), { valid: true });
  });

  it('reads an empty known list as an empty list and an empty node as an empty string', () => {
    assert.deepEqual(parseXml('<response><data_list/><note></note></response>'), { data_list: [], note: '' });
  });

  it('reads nested lists of objects (plans inside issuers)', () => {
    const answer = { installment_detail: { issuer_detail: [{ issuer_code: 'A', plan_details: [{ plan_code: 'P1' }, { plan_code: 'P2' }] }] } };
    assert.deepEqual(parseXml(toXml(answer)), answer);
  });

  it('reads declarations, comments, CDATA and numeric entities', () => {
    const xml = '<?xml version="1.0"?><!-- a comment --><response><a><![CDATA[x < y]]></a><b>&#1575;&#x644;</b></response>';
    assert.deepEqual(parseXml(xml), { a: 'x < y', b: 'ال' });
  });

  for (const [name, xml] of [
    ['an unclosed node', '<response><a>1</response>'],
    ['a root other than response', '<answer><a>1</a></answer>'],
    ['two roots', '<response/><response/>'],
    ['text beside nodes', '<response>x<a>1</a></response>'],
    ['an unknown entity', '<response><a>&nbsp;</a></response>'],
    ['a field twice', '<response><a>1</a><a>2</a></response>'],
    ['a stray <', '<response><a>1 < 2</a></response>'],
  ] as const) {
    it(`refuses ${name}`, () => {
      assert.throws(() => parseXml(xml), XmlError);
    });
  }

  it('round-trips any flat answer of text fields', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,12}$/).filter((n) => n !== 'data_list');
    fc.assert(
      fc.property(fc.dictionary(name, fc.string({ unit: 'grapheme', maxLength: 20 })), (fields) => {
        assert.deepEqual(parseXml(toXml(fields)), { ...fields });
      }),
    );
  });
});
