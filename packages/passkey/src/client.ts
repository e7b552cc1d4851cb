// Browser-safe entry (`@latchkey/passkey/client`): the passkey routes as `@latchkey/client`
// methods, with the WebAuthn ceremonies run through `@simplewebauthn/browser` as the reference
// client does. Type-only imports from Latchkey, so no server code reaches a bundle.
import type { Call, ClientPlugin, ClientResult, RequestOptions } from "@latchkey/client";
import { startAuthentication, startRegistration, WebAuthnError } from "@simplewebauthn/browser";
import type { Passkey } from "./schema.js";
import type {
  AuthenticationExtensionsClientInputs,
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/browser";

/** A passkey row as the routes answer it (`createdAt` as a JSON string). */
export type PasskeyRecord = Omit<Passkey, "createdAt"> & { createdAt?: string | null };

/** A session and its user as the routes answer them. */
export interface PasskeySession {
  session: { id: string; token: string; userId: string; expiresAt: string } & Record<string, unknown>;
  user: { id: string; email: string; name: string } & Record<string, unknown>;
}

/** Arguments of `passkey.addPasskey` (the reference client's names). */
export interface AddPasskeyOptions {
  /** Name stored with the passkey (also the WebAuthn user name). */
  name?: string;
  authenticatorAttachment?: "platform" | "cross-platform";
  /** Handed to `registration.resolveUser` on the server (passkey-first sign-up). */
  context?: string;
  /** Also sign in (registration without a session). */
  createSession?: boolean;
  /** Conditional create: register silently with the password manager just used. */
  useAutoRegister?: boolean;
  extensions?: AuthenticationExtensionsClientInputs;
}

/** Arguments of `signIn.passkey`. */
export interface SignInPasskeyOptions {
  /** Conditional UI (`mediation: "conditional"`): the browser offers passkeys in an `autocomplete="… webauthn"` field. */
  autoFill?: boolean;
  extensions?: AuthenticationExtensionsClientInputs;
}

/** The methods the client gains, under the reference client's names. */
export interface PasskeyClientMethods {
  passkey: {
    /** Registers a passkey: options, the browser's ceremony, then verification. */
    addPasskey(options?: AddPasskeyOptions, request?: RequestOptions): Promise<ClientResult<PasskeyRecord & Partial<PasskeySession>>>;
    /** `GET /passkey/list-user-passkeys`. */
    listUserPasskeys(request?: RequestOptions): Promise<ClientResult<PasskeyRecord[]>>;
    /** `POST /passkey/delete-passkey`. */
    deletePasskey(body: { id: string }, request?: RequestOptions): Promise<ClientResult<{ status: boolean }>>;
    /** `POST /passkey/update-passkey`. */
    updatePasskey(body: { id: string; name: string }, request?: RequestOptions): Promise<ClientResult<{ passkey: PasskeyRecord }>>;
  };
  signIn: {
    /** Signs in with a passkey: options, the browser's ceremony, then verification. */
    passkey(options?: SignInPasskeyOptions, request?: RequestOptions): Promise<ClientResult<PasskeySession>>;
  };
}

/** Messages of the errors only the client produces (the reference's). */
const MESSAGES = {
  PREVIOUSLY_REGISTERED: "Previously registered",
  REGISTRATION_CANCELLED: "Registration cancelled",
  AUTH_CANCELLED: "Auth cancelled",
  UNKNOWN_ERROR: "Unknown error",
};

/** A failed ceremony as a result; `status` 400 unless the failure was not WebAuthn's. */
function ceremonyError<T>(code: string, message: string, status = 400): ClientResult<T> {
  return { data: null, error: { code, message, status, statusText: status === 400 ? "BAD_REQUEST" : "INTERNAL_SERVER_ERROR" } };
}

/** The server's extensions with the caller's laid over them; undefined when neither has any. */
const mergeExtensions = (
  server: AuthenticationExtensionsClientInputs | undefined,
  caller: AuthenticationExtensionsClientInputs | undefined,
): AuthenticationExtensionsClientInputs | undefined => (server || caller ? { ...server, ...caller } : undefined);

/** A registration error as the reference client reports it. */
function registrationError<T>(error: unknown): ClientResult<T> {
  if (error instanceof WebAuthnError) {
    if (error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") return ceremonyError(error.code, MESSAGES.PREVIOUSLY_REGISTERED);
    if (error.code === "ERROR_CEREMONY_ABORTED") return ceremonyError(error.code, MESSAGES.REGISTRATION_CANCELLED);
    return ceremonyError(error.code, error.message);
  }
  return ceremonyError("UNKNOWN_ERROR", error instanceof Error ? error.message : MESSAGES.UNKNOWN_ERROR, 500);
}

function methods(call: Call): PasskeyClientMethods {
  const addPasskey: PasskeyClientMethods["passkey"]["addPasskey"] = async (options = {}, request = {}) => {
    const query = { authenticatorAttachment: options.authenticatorAttachment, name: options.name, context: options.context };
    const creation = await call<PublicKeyCredentialCreationOptionsJSON>("/passkey/generate-register-options", { method: "GET", query, ...request });
    if (creation.error) return creation;
    let response: RegistrationResponseJSON;
    try {
      response = await startRegistration({
        optionsJSON: { ...creation.data, extensions: mergeExtensions(creation.data.extensions, options.extensions) },
        useAutoRegister: options.useAutoRegister,
      });
    } catch (error) {
      return registrationError(error);
    }
    const { clientExtensionResults: _results, ...body } = response;
    return call<PasskeyRecord & Partial<PasskeySession>>("/passkey/verify-registration", {
      method: "POST",
      body: { response: body, name: options.name, ...(options.createSession ? { createSession: true } : {}) },
      ...request,
    });
  };

  const signInPasskey: PasskeyClientMethods["signIn"]["passkey"] = async (options = {}, request = {}) => {
    const requestOptions = await call<PublicKeyCredentialRequestOptionsJSON>("/passkey/generate-authenticate-options", { method: "GET", ...request });
    if (requestOptions.error) return requestOptions;
    let response: AuthenticationResponseJSON;
    try {
      response = await startAuthentication({
        optionsJSON: { ...requestOptions.data, extensions: mergeExtensions(requestOptions.data.extensions, options.extensions) },
        useBrowserAutofill: options.autoFill,
      });
    } catch (error) {
      return ceremonyError(error instanceof WebAuthnError ? error.code : "AUTH_CANCELLED", MESSAGES.AUTH_CANCELLED);
    }
    const { clientExtensionResults: _results, ...body } = response;
    return call<PasskeySession>("/passkey/verify-authentication", { method: "POST", body: { response: body }, ...request });
  };

  return {
    passkey: {
      addPasskey,
      listUserPasskeys: (request = {}) => call<PasskeyRecord[]>("/passkey/list-user-passkeys", { method: "GET", ...request }),
      deletePasskey: (body, request = {}) => call<{ status: boolean }>("/passkey/delete-passkey", { method: "POST", body, ...request }),
      updatePasskey: (body, request = {}) => call<{ passkey: PasskeyRecord }>("/passkey/update-passkey", { method: "POST", body, ...request }),
    },
    signIn: { passkey: signInPasskey },
  };
}

/**
 * The client plugin for `passkey()`.
 *
 * @example
 * const client = createAuthClient({ baseURL, plugins: [passkeyClient()] });
 * await client.passkey.addPasskey({ name: "Laptop" });
 * const { data, error } = await client.signIn.passkey({ autoFill: true });
 */
export const passkeyClient = (): ClientPlugin<PasskeyClientMethods> & { id: "passkey" } => ({ id: "passkey", methods });
