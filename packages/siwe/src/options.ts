/** The CAIP-122 object the reference hands `verifyMessage` beside the message. */
export interface Cacao {
  h: { t: "caip122" };
  p: { domain: string; aud: string; nonce: string; iss: string; version: string };
  s: { t: "eip191"; s: string };
}

/** What `verifyMessage` receives: the signed message, and the wallet and chain read from it. */
export interface SiweVerifyMessageArgs {
  message: string;
  signature: string;
  /** EIP-55 form. */
  address: string;
  chainId: number;
  cacao?: Cacao;
}

/** `siwe()` options, with the reference's names. */
export interface SIWEPluginOptions {
  /** The domain messages must name (compared as lower-cased `host[:port]`). */
  domain: string;
  /** Makes a nonce: 8 to 250 letters and digits (EIP-4361). */
  getNonce: () => Promise<string>;
  /** Checks the signature, e.g. with viem's `verifyMessage`; true to accept. */
  verifyMessage: (args: SiweVerifyMessageArgs) => Promise<boolean>;
  /** Names a new wallet user: their ENS name and avatar. */
  ensLookup?: ((args: { walletAddress: string }) => Promise<{ name: string; avatar: string }>) | undefined;
  /** Sign in without an email; false makes `email` required at `/siwe/verify`. @default true */
  anonymous?: boolean | undefined;
  /**
   * Domain of a new wallet user's address: `<address>@<emailDomainName>`.
   * @default `<address>@siwe.placeholder.invalid`
   */
  emailDomainName?: string | undefined;
  /**
   * Latchkey-only (spec, Versioning): accept and ignore `walletAddress`, `address` and
   * `chainId` in request bodies, as clients of releases before 1.1 send them. The wallet and
   * chain always come from the signed message. @default false
   */
  acceptLegacyWalletFields?: boolean | undefined;
  /** Physical names: `{ walletAddress: { modelName?, fields?: { address: "addr", … } } }`. */
  schema?:
    | {
        walletAddress?:
          { modelName?: string | undefined; fields?: Record<string, string> | undefined } | undefined;
      }
    | undefined;
}
