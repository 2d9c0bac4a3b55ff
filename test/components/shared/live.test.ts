import { expect } from '@open-wc/testing';
import { html, render } from 'lit';
import { live } from '../../../src/components/shared/live.ts';

/** The card form's and the views' `live()`: a control shows its bound value even after the customer changed it. */
describe('live() on a form control', () => {
  let container: HTMLElement;
  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
  });
  afterEach(() => container.remove());

  const field = (value: string) => {
    render(html`<input .value=${live(value)} />`, container);
    return container.querySelector('input')!;
  };

  it('puts the bound text back when the control holds other text, though the bound value did not change', () => {
    field('4111');
    const input = field('4111');
    input.value = '4111x';
    field('4111');
    expect(input.value).to.equal('4111');
  });

  it('empties a field the customer filled once its value is reset', () => {
    const input = field('');
    input.value = '4111 1111';
    field('');
    expect(input.value).to.equal('');
  });

  it('puts a refused choice back', () => {
    const box = (checked: boolean) => {
      render(html`<input type="checkbox" .checked=${live(checked)} />`, container);
      return container.querySelector('input')!;
    };
    const input = box(false);
    input.click();
    expect(input.checked).to.equal(true);
    box(false);
    expect(input.checked).to.equal(false);
  });

  it('leaves a control alone that already shows the bound value', () => {
    const input = field('12/30');
    let sets = 0;
    const own = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!;
    Object.defineProperty(input, 'value', {
      get: () => own.get!.call(input),
      set: (value: string) => {
        sets += 1;
        own.set!.call(input, value);
      },
      configurable: true,
    });
    field('12/30');
    expect(sets).to.equal(0);
    field('01/31');
    expect(sets).to.equal(1);
    expect(input.value).to.equal('01/31');
  });
});
