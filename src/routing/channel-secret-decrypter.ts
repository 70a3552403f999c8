/**
 * What the routing table needs of the channel secret box (accounts/secret-box.ts satisfies it): routing decrypts
 * channel secrets when it builds a table, but the box and its key belong to accounts, a layer above.
 */
export interface ChannelSecretDecrypter {
  /** the plain secret of a sealed one; throws when it does not decrypt under this key */
  decrypt(sealed: string): string;
}
