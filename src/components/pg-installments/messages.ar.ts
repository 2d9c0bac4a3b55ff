/** Arabic text of `<pg-installments>` (loaded only by pages that show Arabic). */
import { html } from 'lit';
import { formatCount } from '../../core/language.ts';
import { sharedAr } from '../shared/messages.ar.ts';
import type { InstallmentsMessages } from './messages.ts';

export const installmentsAr: InstallmentsMessages = {
  ...sharedAr,
  title: 'الدفع بالتقسيط',
  loadingPlans: 'جارٍ تحميل خطط التقسيط…',
  plansReady: (plans) => (plans === 1 ? 'تتوفر خطة تقسيط واحدة.' : `تتوفر خطط تقسيط (${formatCount(plans, 'ar')}).`),
  binLabel: 'أول ٦ أرقام من بطاقتك',
  binHint: 'نستخدمها للتعرّف على البنك وخططه.',
  issuersLegend: 'البنك',
  issuerMatched: (issuer) => `خطط ${issuer}.`,
  otherBank: 'ليس البنك الذي أصدر بطاقتك',
  plansLabel: 'خطة التقسيط',
  plansCaption: 'خطط التقسيط',
  choosePlan: 'اختر خطة',
  planOption: (months, monthly, total) => `${months}: ${monthly} شهريًا، ${total} إجمالًا`,
  lastMonth: (amount) => html`(الشهر الأخير ${amount})`,
  columns: {
    plan: 'الخطة',
    monthly: 'شهريًا',
    fees: 'الرسوم',
    total: 'الإجمالي المستحق',
    extra: 'التكلفة الإضافية',
  },
  receipt: {
    title: 'الملخص',
    orderAmount: 'مبلغ الطلب',
    plan: 'الخطة',
    monthly: 'شهريًا',
    lastMonthly: 'الشهر الأخير',
    fees: 'الرسوم',
    total: 'الإجمالي المستحق',
    extra: 'التكلفة الإضافية مقارنة بالدفع الكامل',
    charged: (amount) => html`يُخصم مبلغ الطلب ${amount} من بطاقتك، ثم يحصّله بنكك على الدفعات الشهرية الموضحة أعلاه شاملةً رسومه.`,
  },
  bankTitle: (issuer) => `شروط ${issuer}`,
  noTerms: 'لا يذكر البنك شروطًا إضافية.',
  chosenPlan: (months, issuer) => `اخترت ${months} مع ${issuer}. وافق على الشروط وادفع لتأكيد اختيارك.`,
  agree: (issuer) => `أوافق على شروط وأحكام ${issuer}`,
  agreeRequired: 'وافق على شروط البنك وأحكامه للمتابعة.',
  issuerRequired: 'اختر البنك.',
  planRequired: 'اختر خطة تقسيط.',
  payInstallments: 'ادفع بالتقسيط',
  unavailable: {
    failed: 'تعذّر تحميل خطط التقسيط.',
    notForAmount: (amount) => html`التقسيط غير متاح لطلب بقيمة ${amount}.`,
    range: (min, max) => html`تغطي الخطط الطلبات من ${min} إلى ${max}.`,
    cardNotEligible: 'البنك المصدر لبطاقتك لا يقدّم التقسيط لهذا الطلب.',
  },
  payInFull: 'ادفع المبلغ كاملًا بدلًا من ذلك',
  payInFullHint: 'لا يزال بإمكانك دفع المبلغ كاملًا الآن.',
  payingInFull: 'ستدفع المبلغ كاملًا.',
};
