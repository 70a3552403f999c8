/** Sends the browser to a payment provider's page (Stripe Checkout, Alipay's cashier). */
export function redirectBrowser(url: string): void {
  window.location.assign(url);
}
