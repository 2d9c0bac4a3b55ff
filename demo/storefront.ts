/** The demo storefront: a cart, an order created by the shop's back end, and the pg-checkout drop-in. */
import '../src/define.ts';
import { formatMoney } from '../src/core/amounts.ts';
import type { Language } from '../src/core/language.ts';
import type { PaymentMethod } from '../src/components/pg-checkout/events.ts';
import { cartTotal, DEMO_CURRENCY, PRODUCTS } from './catalog.ts';
import {
  applyPageSettings,
  elementThemeHref,
  MESSAGES,
  storedLanguage,
  storedTheme,
  type DemoMessages,
  type DemoTheme,
} from './i18n.ts';

let language: Language = storedLanguage();
let theme: DemoTheme = storedTheme();
type CardMode = 'redirect' | 'merchant-page' | 'embedded';
let cardMode: CardMode = 'redirect';
/** Pay the order now, or save the card for later (nothing charged). */
let intent: 'pay' | 'save-card' = 'pay';
/** PURCHASE charges at once; AUTHORIZATION holds the amount for the merchant panel to capture. */
let command: 'PURCHASE' | 'AUTHORIZATION' = 'PURCHASE';
const cart: { sku: string; quantity: number }[] = [
  { sku: 'phone-x', quantity: 1 },
  { sku: 'case', quantity: 1 },
];
let orderReference = '';
/** The drop-in's method on screen: the first one offered until the customer picks another. */
let method: PaymentMethod = 'card';
/**
 * Set once the order was paid on this page (or its cash bill issued): the cart is then the order's,
 * locked, and only "Start a new order" opens another, so no click makes an order nobody pays.
 */
let settled = false;

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector) as T;

/**
 * The open order outlives a reload of the page (this tab only), as a shop's session keeps it: a
 * cash bill issued for it is shown again by `<pg-bill-voucher>`, which keeps it under the order.
 */
const SESSION_KEY = 'pg-demo-open-order';

interface OpenOrder {
  readonly orderReference: string;
  readonly cart: typeof cart;
  readonly method: PaymentMethod;
  readonly settled: boolean;
  readonly cardMode: CardMode;
  readonly intent: 'pay' | 'save-card';
  readonly command: 'PURCHASE' | 'AUTHORIZATION';
}

function saveOpenOrder(): void {
  try {
    if (!orderReference) sessionStorage.removeItem(SESSION_KEY);
    else sessionStorage.setItem(SESSION_KEY, JSON.stringify({ orderReference, cart, method, settled, cardMode, intent, command } satisfies OpenOrder));
  } catch {
    // Storage refused (a private window): the order lasts as long as the page.
  }
}

function restoreOpenOrder(): void {
  // Only a reload (or back/forward) returns to the open order; arriving at the shop anew starts afresh.
  const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  if (navigation?.type !== 'reload' && navigation?.type !== 'back_forward') {
    saveOpenOrder();
    return;
  }
  let saved: Partial<OpenOrder> | undefined;
  try {
    saved = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null') as Partial<OpenOrder> | undefined;
  } catch {
    saved = undefined;
  }
  if (!saved || typeof saved.orderReference !== 'string' || !Array.isArray(saved.cart)) return;
  orderReference = saved.orderReference;
  cart.splice(0, cart.length, ...saved.cart);
  method = saved.method ?? 'card';
  cardMode = saved.cardMode ?? cardMode;
  intent = saved.intent ?? intent;
  command = saved.command ?? command;
  renderCheckout();
  if (saved.settled) settleOrder();
  // The element opens on the method the customer was on (a cash bill shows itself again).
  $('#checkout-host').querySelector('pg-checkout')?.setAttribute('method', method);
}

function renderCart(): void {
  const list = $<HTMLUListElement>('#cart-lines');
  list.replaceChildren(
    ...cart.map((line) => {
      const product = PRODUCTS.find((candidate) => candidate.sku === line.sku);
      const item = document.createElement('li');
      if (!product) return item;
      const name = document.createElement('span');
      name.className = 'product-name';
      name.textContent = product.name[language];
      const quantity = document.createElement('input');
      quantity.type = 'number';
      quantity.min = '1';
      quantity.max = '10';
      quantity.value = String(line.quantity);
      quantity.disabled = settled;
      quantity.setAttribute('aria-label', `${MESSAGES[language].quantity}: ${product.name[language]}`);
      quantity.addEventListener('change', () => {
        line.quantity = Math.min(10, Math.max(1, Math.trunc(Number(quantity.value)) || 1));
        resetCheckout();
        renderCart();
      });
      const price = document.createElement('bdi');
      price.dir = 'ltr';
      price.className = 'price';
      price.textContent = formatMoney(product.price * line.quantity, DEMO_CURRENCY, language);
      item.append(name, quantity, price);
      return item;
    }),
  );
  $('#cart-total').textContent = formatMoney(cartTotal(cart), DEMO_CURRENCY, language);
}

function resetCheckout(): void {
  orderReference = '';
  // The next checkout opens on its first method.
  method = 'card';
  $('#checkout-section').hidden = true;
  $('#checkout-host').replaceChildren();
  saveOpenOrder();
}

/** A fieldset of radio buttons (pay or save, the card mode, the charge mode); a change re-renders the checkout. */
function radioGroup<V extends string>(
  name: string,
  legendKey: keyof DemoMessages,
  options: readonly (readonly [V, keyof DemoMessages])[],
  current: V,
  choose: (value: V) => void,
): HTMLFieldSetElement {
  const group = document.createElement('fieldset');
  group.className = 'card-modes';
  group.dataset.group = name;
  const legend = document.createElement('legend');
  legend.dataset.i18n = legendKey;
  group.append(legend);
  for (const [value, key] of options) {
    const label = document.createElement('label');
    const radio = document.createElement('input');
    radio.type = 'radio';
    radio.name = name;
    radio.value = value;
    radio.checked = value === current;
    radio.addEventListener('change', () => {
      choose(value);
      renderCheckout();
    });
    const text = document.createElement('span');
    text.dataset.i18n = key;
    label.append(radio, text);
    group.append(label);
  }
  return group;
}

function renderCheckout(): void {
  const host = $('#checkout-host');
  if (!orderReference) return;
  $('#checkout-section').hidden = false;
  $('#order-ref').textContent = orderReference;
  let checkout = host.querySelector('pg-checkout');
  if (!checkout) {
    const intents = radioGroup('intent', 'intent', [
      ['pay', 'intentPay'],
      ['save-card', 'intentSaveCard'],
    ], intent, (value) => (intent = value));
    const modes = radioGroup('card-mode', 'cardMode', [
      ['redirect', 'cardRedirect'],
      ['merchant-page', 'cardMerchantPage'],
      ['embedded', 'cardEmbedded'],
    ], cardMode, (value) => (cardMode = value));
    const charge = radioGroup('charge-mode', 'chargeWhen', [
      ['PURCHASE', 'chargeNow'],
      ['AUTHORIZATION', 'chargeLater'],
    ], command, (value) => (command = value));
    checkout = document.createElement('pg-checkout');
    checkout.setAttribute('endpoint', '/pg');
    checkout.setAttribute('mode', 'drop-in');
    checkout.setAttribute('methods', 'card installments voucher financing');
    host.append(intents, modes, charge, checkout);
  }
  checkout.setAttribute('merchant-reference', orderReference);
  checkout.setAttribute('language', language);
  checkout.setAttribute('card-mode', cardMode);
  checkout.setAttribute('intent', intent);
  checkout.setAttribute('command', command);
  checkout.setAttribute('customer-email', 'customer@example.com');
  const themeHref = elementThemeHref(theme);
  if (themeHref) checkout.setAttribute('theme-href', themeHref);
  else checkout.removeAttribute('theme-href');
  showApplicableControls();
  applyPageSettings(language, theme);
  saveOpenOrder();
}

/**
 * Only the choices that change something for the method on screen: the card modes for a card
 * (installments and saving a card included), "charge now or hold" for a payment by card; none for
 * a cash bill or financing. After the payment none can be changed.
 */
function showApplicableControls(): void {
  const byCard = intent === 'save-card' || method === 'card' || method === 'installments';
  const show = { intent: true, 'card-mode': byCard, 'charge-mode': byCard && intent === 'pay' };
  for (const group of document.querySelectorAll<HTMLFieldSetElement>('#checkout-host fieldset[data-group]')) {
    group.hidden = !show[group.dataset.group as keyof typeof show];
    group.disabled = settled;
  }
}

/** The order was paid (or its bill issued) on this page: the cart is kept as it was, a new order is started on purpose. */
function settleOrder(): void {
  settled = true;
  saveOpenOrder();
  $('#start-checkout').hidden = true;
  $('#new-order').hidden = false;
  renderCart();
  showApplicableControls();
}

function startNewOrder(): void {
  settled = false;
  resetCheckout();
  $('#new-order').hidden = true;
  $('#start-checkout').hidden = false;
  renderCart();
  $('#start-checkout').focus();
}

async function startCheckout(): Promise<void> {
  const message = $('#checkout-message');
  message.textContent = '';
  // The order already open (the cart unchanged since): shown again, never a second order.
  if (orderReference) {
    $('#checkout-section').scrollIntoView({ block: 'start' });
    return;
  }
  try {
    const response = await fetch('/demo-api/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ lines: cart }),
    });
    if (!response.ok) throw new Error(String(response.status));
    const order = (await response.json()) as { merchant_reference: string };
    orderReference = order.merchant_reference;
    method = 'card';
    $('#checkout-host').replaceChildren();
    renderCheckout();
    $('#checkout-section').scrollIntoView({ block: 'start' });
  } catch {
    $('#checkout-section').hidden = false;
    message.textContent = MESSAGES[language].orderFailed;
  }
}

/**
 * Financing ends on this page and continues to the result page. A card payment on this page (card
 * form, or the gateway's page embedded) ends in place: the element shows the outcome and links to
 * the result page itself.
 */
function showResultOnCompletion(): void {
  document.addEventListener('pg-financing-complete', () => {
    location.assign(`/result.html?merchant_reference=${encodeURIComponent(orderReference)}`);
  });
}

$<HTMLSelectElement>('#language-switch').addEventListener('change', (event) => {
  language = (event.target as HTMLSelectElement).value === 'ar' ? 'ar' : 'en';
  applyPageSettings(language, theme);
  renderCart();
  renderCheckout();
});
$<HTMLSelectElement>('#theme-switch').addEventListener('change', (event) => {
  const value = (event.target as HTMLSelectElement).value;
  theme = value === 'dark' || value === 'back-office' ? value : 'default';
  applyPageSettings(language, theme);
  renderCheckout();
});
$('#start-checkout').addEventListener('click', () => void startCheckout());
$('#new-order').addEventListener('click', startNewOrder);
document.addEventListener('pg-method-change', (event) => {
  method = event.method;
  showApplicableControls();
  saveOpenOrder();
});
document.addEventListener('pg-payment-result', (event) => {
  if (event.intent === 'pay' && (event.outcome === 'success' || event.outcome === 'pending')) settleOrder();
});
document.addEventListener('pg-bill-issue', settleOrder);

applyPageSettings(language, theme);
restoreOpenOrder();
renderCart();
showResultOnCompletion();
