/**
 * The bundle folder's templates lose their source indentation (bundle-templates.ts): only the text
 * of `html`, `css` and `svg` templates changes, each run of white space holding a line break
 * becoming one space; expressions and every other string stay as written.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { collapseTemplates } from '../../bundle-templates.ts';

describe('the bundle\'s templates', () => {
  it('collapse their indentation to one space in html, css and svg templates, nested ones included', () => {
    const source = [
      'const styles = css`',
      '  .pay {',
      '    color: red;',
      '  }',
      '`;',
      'const view = html`<p class="a',
      '    b">',
      '  ${ok ? html`<b>',
      '    yes</b>` : nothing}',
      '</p>`;',
    ].join('\n');
    assert.equal(
      collapseTemplates(source),
      ['const styles = css`.pay{color:red}`;', 'const view = html`<p class="a b"> ${ok ? html`<b> yes</b>` : nothing} </p>`;'].join('\n'),
    );
  });

  it('keep in css what CSS needs: a space before a pseudo-class, inside calc(), between values, and around expressions', () => {
    const source = [
      'const styles = css`',
      '  .a :focus-visible, .b > .c {',
      '    inline-size: calc(var(--pg-space, 0.75rem) / 2);',
      '    border: 1px solid ${color};',
      '    margin: 0 auto;',
      '  }',
      '  @media (max-width: 30rem) {',
      '    .d { display: none; }',
      '  }',
      '`;',
    ].join('\n');
    assert.equal(
      collapseTemplates(source),
      'const styles = css`.a :focus-visible,.b>.c{inline-size:calc(var(--pg-space,.75rem) / 2);border:1px solid ${color};margin:0 auto}@media (max-width:30rem){.d{display:none}}`;',
    );
  });

  it('drop in css the zero before a decimal point, and the quotes around a one-word attribute value', () => {
    assert.equal(
      collapseTemplates('const styles = css`.a { gap: 0.25rem var(--b, 0.75rem); opacity: 0.6; flex: 10.5 0 0; }`;'),
      'const styles = css`.a{gap:.25rem var(--b,.75rem);opacity:.6;flex:10.5 0 0}`;',
    );
    assert.equal(
      collapseTemplates(`const styles = css\`input[type='radio'], [aria-invalid="true"], [data-x='1a'], [title='a b'] { color: red; }\`;`),
      `const styles = css\`input[type=radio],[aria-invalid=true],[data-x='1a'],[title='a b']{color:red}\`;`,
    );
  });

  it('leave out in html the quotes around a one-word attribute value and the slash of a self-closing tag', () => {
    const source = [
      'const view = html`<input',
      '    id="card-cvv"',
      '    type="text"',
      '    class="hint wide"',
      '    alt=""',
      '    aria-describedby="${id}-hint"',
      '    .value=${value}',
      '  />',
      '  <p class="error" part="error">a="b" stays in ${x} text="c"</p>`;',
    ].join('\n');
    assert.equal(
      collapseTemplates(source),
      'const view = html`<input id=card-cvv type=text class="hint wide" alt="" aria-describedby="${id}-hint" .value=${value}> <p class=error part=error>a="b" stays in ${x} text="c"</p>`;',
    );
  });

  it('keep the slash of a self-closing tag in svg', () => {
    assert.equal(collapseTemplates('const icon = svg`<path d="M0 0" fill="none" />`;'), 'const icon = svg`<path d="M0 0" fill=none />`;');
  });

  it('leave other template literals, strings and expressions as written', () => {
    const source = [
      'const message = `Line one',
      '  line two`;',
      'const view = html`<p>${format(`a',
      '  b`)}</p>`;',
      "const text = 'x  y';",
    ].join('\n');
    assert.equal(collapseTemplates(source), source);
  });
});
