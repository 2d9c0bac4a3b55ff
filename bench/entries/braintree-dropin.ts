// Braintree's Drop-in UI, as a merchant imports it (its package's browser build).
export { default as dropin } from 'braintree-web-drop-in';
