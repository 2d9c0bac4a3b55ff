/** Text of `<pg-checkout>` in English and Arabic. */
import type { Catalogs } from '../shared/localize.ts';
import { sharedMessages, type SharedMessages } from '../shared/messages.ts';
import type { PaymentMethod } from './events.ts';

export interface CheckoutMessages extends SharedMessages {
  readonly methodsLegend: string;
  readonly methods: { readonly [M in PaymentMethod]: string };
  readonly redirectNote: string;
  readonly merchantPageNote: string;
  readonly payInFullWithCard: string;
}

export const checkoutMessages: Catalogs<CheckoutMessages> = {
  en: {
    ...sharedMessages.en,
    methodsLegend: 'Payment method',
    methods: {
      card: 'Card',
      installments: 'Installments',
      voucher: 'Cash at a payment outlet',
      financing: 'Consumer financing',
    },
    redirectNote: 'You will enter your card details on the payment gateway’s secure page.',
    merchantPageNote: 'Your card details go straight to the payment gateway; the store never sees them.',
    payInFullWithCard: 'Pay the full amount with your card.',
  },
  ar: {
    ...sharedMessages.ar,
    methodsLegend: 'طريقة الدفع',
    methods: {
      card: 'بطاقة',
      installments: 'التقسيط',
      voucher: 'نقدًا لدى منفذ دفع',
      financing: 'التمويل الاستهلاكي',
    },
    redirectNote: 'ستُدخل بيانات بطاقتك في الصفحة الآمنة لبوابة الدفع.',
    merchantPageNote: 'تُرسل بيانات بطاقتك مباشرةً إلى بوابة الدفع ولا يطّلع عليها المتجر.',
    payInFullWithCard: 'ادفع المبلغ كاملًا ببطاقتك.',
  },
};
