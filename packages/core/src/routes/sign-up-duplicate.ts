import type { EndpointContext } from "../api/context.js";
import { generateId } from "../crypto/random.js";
import type { User } from "../db/models.js";
import { toOutput } from "../db/output.js";
import type { AuthContext } from "../context.js";
import { deliver } from "../mail/mail-delivery.js";

/** What the sign-up request asked for, already parsed. */
export interface SignUpInput {
  name: string;
  /** Lower-cased. */
  email: string;
  image?: string;
  password: string;
  /** The additional user fields, defaults applied. */
  additional: Record<string, unknown>;
}

/**
 * Whether a taken email must look like a successful sign-up: with
 * `requireEmailVerification` or `autoSignIn: false` no session is returned either way, so
 * a 422 would be the only thing telling a stranger the address has an account.
 */
export const hidesDuplicateEmails = (auth: AuthContext): boolean =>
  !!auth.options.emailAndPassword?.requireEmailVerification ||
  auth.options.emailAndPassword?.autoSignIn === false;

/**
 * A user shaped exactly like a real sign-up answer (every returned field, defaults, nulls
 * for optional ones, a fresh id), never stored: the reference's synthetic user.
 */
export function syntheticUser(auth: AuthContext, input: SignUpInput): Record<string, unknown> {
  const now = new Date();
  const id = auth.generateId({ model: "user" }) || generateId();
  const coreFields = {
    name: input.name,
    email: input.email,
    emailVerified: false,
    image: input.image ?? null,
    createdAt: now,
    updatedAt: now,
  };
  const custom = auth.options.emailAndPassword?.customSyntheticUser;
  let data: Record<string, unknown>;
  if (custom) {
    const additionalFields: Record<string, unknown> = {};
    for (const key of Object.keys(auth.options.user?.additionalFields ?? {})) {
      if (key in input.additional) additionalFields[key] = input.additional[key];
    }
    data = custom({ coreFields, additionalFields, id });
  } else {
    data = { ...coreFields, ...input.additional, id };
  }
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(auth.schema.user?.fields ?? {})) {
    if (field.returned === false) continue;
    if (data[key] !== undefined) out[key] = data[key];
    else if (field.defaultValue !== undefined) {
      out[key] =
        typeof field.defaultValue === "function"
          ? (field.defaultValue as () => unknown)()
          : field.defaultValue;
    } else if (!field.required) out[key] = null;
  }
  if ("id" in data) out.id = data.id;
  return toOutput(auth.schema, "user", out);
}

/**
 * The answer to a sign-up for a taken email in the hiding modes: the password is hashed
 * as a real sign-up would (same timing), the owner may be told through
 * `onExistingUserSignUp`, and the caller gets `{token: null, user: <synthetic>}`.
 */
export async function answerDuplicateSignUp(
  ctx: EndpointContext,
  existing: User | null,
  input: SignUpInput,
): Promise<{ token: null; user: Record<string, unknown> }> {
  const auth = ctx.context;
  if (existing) {
    await auth.password.hash(input.password);
    const notify = auth.options.emailAndPassword?.onExistingUserSignUp;
    if (notify) await deliver(ctx, "existing-user sign-up", () => notify({ user: existing }, ctx.request));
  }
  return { token: null, user: syntheticUser(auth, input) };
}
