/** Arabic text of `<pg-checkout>` (loaded only by pages that show Arabic). */
import { html } from 'lit';
import { formatCount } from '../../core/language.ts';
import { sharedAr } from '../shared/messages.ar.ts';
import type { CheckoutMessages } from './messages.ts';

export const checkoutAr: CheckoutMessages = {
  ...sharedAr,
  methodsLegend: 'طريقة الدفع',
  methods: {
    card: 'بطاقة',
    installments: 'التقسيط',
    voucher: 'نقدًا لدى منفذ دفع',
    financing: 'التمويل الاستهلاكي',
  },
  redirectNote: 'ستُدخل بيانات بطاقتك في الصفحة الآمنة لبوابة الدفع.',
  merchantPageNote: 'تُرسل بيانات بطاقتك مباشرةً إلى بوابة الدفع ولا يطّلع عليها المتجر.',
  embeddedNote: 'أدخل بيانات بطاقتك في الصفحة الآمنة لبوابة الدفع أدناه؛ لا يطّلع عليها المتجر.',
  payInFullWithCard: 'ادفع المبلغ كاملًا ببطاقتك.',
  billWaiting: 'طلبك بانتظار دفع هذه الفاتورة النقدية؛ تعود طرق الدفع الأخرى إذا انتهت صلاحيتها دون دفع.',
  billExpired: 'انتهت صلاحية الفاتورة النقدية دون دفع. اختر طريقة دفع أخرى.',
  amountChanged: 'تغيّر مبلغ الطلب ولم يُخصم شيء. راجع المبلغ على زر الدفع ثم ادفع.',
  save: {
    note: 'لن يتم خصم أي مبلغ: تُحفظ بطاقتك لمدفوعاتك القادمة عند المتابعة.',
    consent: 'احفظ هذه البطاقة للمدفوعات القادمة. أفهم أنه لن يتم خصم أي مبلغ الآن.',
    consentRequired: 'ضع علامة في المربع للموافقة على حفظ بطاقتك.',
    button: 'احفظ البطاقة',
    continue: 'تابع إلى صفحة البطاقة الآمنة',
  },
  outcome: {
    paySuccess: 'تم الدفع بنجاح',
    payPending: 'الدفع قيد الانتظار',
    payFailure: 'لم يكتمل الدفع',
    failureHint: 'جرّب بطاقة أخرى، أو اتصل بالبنك.',
    saveSuccess: 'تم حفظ البطاقة',
    savePending: 'لم تُحفظ البطاقة بعد',
    saveFailure: 'لم تُحفظ البطاقة',
    installments: (months) =>
      months === 1
        ? 'على قسط شهري واحد'
        : months === 2
          ? 'على قسطين شهريين'
          : months <= 10
            ? `على ${formatCount(months, 'ar')} أقساط شهرية`
            : `على ${formatCount(months, 'ar')} قسطًا شهريًا`,
    savedCard: (brand, lastFour) => html`${brand ? `بطاقة ${brand}` : 'البطاقة'} المنتهية بـ ${lastFour}`,
    seeOrder: 'عرض طلبك',
  },
};
