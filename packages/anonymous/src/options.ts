import type { EndpointContext, SessionWithUser } from "@latchkey/core";

/** What `onLinkAccount` receives when an anonymous user signs in or up another way. */
export interface LinkAccountData {
  /** The anonymous user and the session they had. */
  anonymousUser: SessionWithUser;
  /** The session (and user) the sign-in just created. */
  newUser: SessionWithUser;
  ctx: EndpointContext;
}

/** `anonymous()` options, with the reference's names. */
export interface AnonymousOptions {
  /**
   * Domain of the generated addresses: `temp-<id>@<emailDomainName>`.
   * @default addresses are `<id>@anonymous.placeholder.invalid`
   */
  emailDomainName?: string | undefined;
  /** Makes the address of a new anonymous user; it must be a valid email. */
  generateRandomEmail?: (() => string | Promise<string>) | undefined;
  /** Makes the name of a new anonymous user. @default "Anonymous" */
  generateName?: ((ctx: EndpointContext) => string | Promise<string>) | undefined;
  /**
   * Runs when a browser holding an anonymous session signs in or up another way, before the
   * anonymous user is deleted: move their data to the new user here.
   */
  onLinkAccount?: ((data: LinkAccountData) => void | Promise<void>) | undefined;
  /** Keep the anonymous user after it linked, and refuse `/delete-anonymous-user`. @default false */
  disableDeleteAnonymousUser?: boolean | undefined;
  /** Physical column name: `{ user: { fields: { isAnonymous: "is_anonymous" } } }`. */
  schema?: { user?: { fields?: { isAnonymous?: string | undefined } | undefined } | undefined } | undefined;
}
