/** Sends the browser to a sign-in provider's page to link an account there (the provider sends it back to /settings). */
export function openProviderPage(url: string): void {
  window.location.assign(url);
}
