import type { EndpointContext } from "@latchkey/core";
import type {
  AuthenticationExtensionsClientInputs,
  AuthenticationResponseJSON,
  AuthenticatorSelectionCriteria,
  RegistrationResponseJSON,
  VerifiedAuthenticationResponse,
  VerifiedRegistrationResponse,
} from "@simplewebauthn/server";
import type { PasskeySchemaOptions } from "./schema.js";

/** WebAuthn extensions for a ceremony: fixed, or computed per request. */
export type PasskeyExtensionsResolver =
  | AuthenticationExtensionsClientInputs
  | ((args: { ctx: EndpointContext }) => AuthenticationExtensionsClientInputs | Promise<AuthenticationExtensionsClientInputs>);

/** The user a passkey is registered for (the reference's `PasskeyRegistrationUser`). */
export interface PasskeyRegistrationUser {
  id: string;
  name: string;
  displayName?: string | undefined;
}

/** `registration` options (reference names). */
export interface PasskeyRegistrationOptions {
  /**
   * Registration needs a fresh session. With `false`, a signed-in request still registers for
   * its user; otherwise `resolveUser` names the user (passkey-first sign-up).
   * @default true
   */
  requireSession?: boolean | undefined;
  /** Names the user of a registration without a session; `context` is the `context` query parameter. */
  resolveUser?:
    | ((args: { ctx: EndpointContext; context?: string | null | undefined }) => PasskeyRegistrationUser | Promise<PasskeyRegistrationUser>)
    | undefined;
  /**
   * Runs after the attestation verified and before the row is written; may move the passkey to
   * another user (`userId`, never another than the session's) or name it (`name`).
   */
  afterVerification?:
    | ((args: {
        ctx: EndpointContext;
        verification: VerifiedRegistrationResponse;
        user: PasskeyRegistrationUser;
        clientData: RegistrationResponseJSON;
        context?: string | null | undefined;
      }) => { userId?: string; name?: string } | void | Promise<{ userId?: string; name?: string } | void>)
    | undefined;
  /** Extensions sent with the registration options. */
  extensions?: PasskeyExtensionsResolver | undefined;
}

/** `authentication` options (reference names). */
export interface PasskeyAuthenticationOptions {
  /** Extensions sent with the authentication options. */
  extensions?: PasskeyExtensionsResolver | undefined;
  /** Runs after the assertion verified, before the counter is stored and the session created; throw to refuse. */
  afterVerification?:
    | ((args: {
        ctx: EndpointContext;
        verification: VerifiedAuthenticationResponse;
        clientData: AuthenticationResponseJSON;
      }) => void | Promise<void>)
    | undefined;
}

/** Options of `passkey()`, under the reference's names. */
export interface PasskeyOptions {
  /** Relying party id (a registrable domain). @default the hostname of `baseURL`, else "localhost" */
  rpID?: string | undefined;
  /** Relying party name shown by authenticators. @default the app name */
  rpName?: string | undefined;
  /** Origin(s) the browser must report. @default the request's `Origin` header */
  origin?: string | string[] | null | undefined;
  /** Laid over `{ residentKey: "preferred", userVerification: "preferred" }`. */
  authenticatorSelection?: AuthenticatorSelectionCriteria | undefined;
  advanced?: {
    /** Name of the challenge cookie, under the cookie prefix. @default "better-auth-passkey" */
    webAuthnChallengeCookie?: string;
  };
  /** Another table or column names for the `passkey` table. */
  schema?: PasskeySchemaOptions | undefined;
  registration?: PasskeyRegistrationOptions | undefined;
  authentication?: PasskeyAuthenticationOptions | undefined;
}

/** `PasskeyOptions` with every default applied. */
export interface ResolvedPasskeyOptions extends PasskeyOptions {
  origin: string | string[] | null;
  advanced: { webAuthnChallengeCookie: string };
  requireSession: boolean;
}

/** Applies the defaults once, when the plugin is made; an unusable option is a `TypeError`. */
export function resolvePasskeyOptions(options: PasskeyOptions = {}): ResolvedPasskeyOptions {
  const cookie = options.advanced?.webAuthnChallengeCookie ?? "better-auth-passkey";
  if (typeof cookie !== "string" || !/^[\w.-]+$/.test(cookie)) {
    throw new TypeError("passkey: advanced.webAuthnChallengeCookie must be a cookie name (letters, digits, '.', '_', '-').");
  }
  const origin = options.origin ?? null;
  if (Array.isArray(origin) ? origin.length === 0 : origin === "") {
    throw new TypeError("passkey: origin must name at least one origin (or be left out to use the request's).");
  }
  const { registration } = options;
  return {
    ...options,
    origin,
    advanced: { webAuthnChallengeCookie: cookie },
    requireSession: registration?.requireSession ?? true,
  };
}
