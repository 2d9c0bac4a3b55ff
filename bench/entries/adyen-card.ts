// Adyen Web core + Card, as a merchant imports them for a card form. Its CSS is counted separately.
import '@adyen/adyen-web/styles/adyen.css';

export { AdyenCheckout, Card } from '@adyen/adyen-web';
