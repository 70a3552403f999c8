/** The issuer authenticator apps list a gateway account under: `Model Gateway`, with the public host when known. */
export function twoFactorIssuer(publicUrl: string | undefined): string {
  if (publicUrl === undefined) return 'Model Gateway';
  return `Model Gateway (${new URL(publicUrl).host})`;
}
