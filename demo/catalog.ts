/** The demo storefront's products. Prices are integer minor units (EGP piastres). */
export interface Product {
  readonly sku: string;
  readonly name: { readonly en: string; readonly ar: string };
  readonly category: string;
  readonly price: number;
}

export const DEMO_CURRENCY = 'EGP';

export const PRODUCTS: readonly Product[] = [
  { sku: 'phone-x', name: { en: 'Nile X phone', ar: 'هاتف نايل إكس' }, category: 'Mobiles', price: 1_249_900 },
  { sku: 'buds', name: { en: 'Wireless earbuds', ar: 'سماعات لاسلكية' }, category: 'Audio', price: 189_900 },
  { sku: 'case', name: { en: 'Leather case', ar: 'جراب جلد' }, category: 'Accessories', price: 34_950 },
  { sku: 'charger', name: { en: 'Fast charger', ar: 'شاحن سريع' }, category: 'Accessories', price: 45_000 },
];

export interface CartLine {
  readonly sku: string;
  readonly quantity: number;
}

/** The order total in minor units, from the catalogue's prices — never from the browser's. */
export function cartTotal(lines: readonly CartLine[]): number {
  return lines.reduce((total, line) => {
    const product = PRODUCTS.find((candidate) => candidate.sku === line.sku);
    if (!product || !Number.isInteger(line.quantity) || line.quantity < 1 || line.quantity > 10) {
      throw new Error(`cart line ${line.sku}: unknown product or quantity`);
    }
    return total + product.price * line.quantity;
  }, 0);
}
