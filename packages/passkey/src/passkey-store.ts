import type { EndpointContext } from "@latchkey/core";
import type { Passkey } from "./schema.js";

/** Every passkey of a user, as the routes list and exclude them. */
export const userPasskeys = (ctx: EndpointContext, userId: string): Promise<Passkey[]> =>
  ctx.context.adapter.findMany<Passkey & Record<string, unknown>>({
    model: "passkey",
    where: [{ field: "userId", value: userId }],
  });

/**
 * A stored `transports` column as the list WebAuthn options carry. The reference splits it as
 * is, so a passkey stored without transports ("") is announced with `[""]`; an empty entry is
 * no transport, so it is dropped here and a list left empty is left out (DIVERGENCES.md row 85).
 */
export function storedTransports(transports: string | null | undefined): string[] | undefined {
  const list = (transports ?? "").split(",").filter((t) => t !== "");
  return list.length ? list : undefined;
}

/** A credential descriptor (`excludeCredentials`, `allowCredentials`) for a stored passkey. */
export const descriptor = (passkey: Passkey): { id: string; transports?: string[] } => {
  const transports = storedTransports(passkey.transports);
  return transports ? { id: passkey.credentialID, transports } : { id: passkey.credentialID };
};

/**
 * Stores the counter an assertion reported, atomically. `where counter < newCounter` is both
 * guard and selector: of two requests racing with assertions of one credential only a rising
 * counter is written, so a lower (replayed or cloned) one that verified against the value read
 * earlier is refused here instead of rolling the counter back (the reference writes
 * unconditionally: DIVERGENCES.md row 86). Authenticators that keep no
 * counter report 0 every time (WebAuthn §6.1.1); for them nothing is written.
 */
export async function storeCounter(ctx: EndpointContext, passkey: Passkey, newCounter: number): Promise<boolean> {
  if (newCounter === 0 && passkey.counter === 0) return true;
  const updated = await ctx.context.adapter.updateMany({
    model: "passkey",
    where: [
      { field: "id", value: passkey.id },
      { field: "counter", value: newCounter, operator: "lt" },
    ],
    update: { counter: newCounter },
  });
  return updated === 1;
}
