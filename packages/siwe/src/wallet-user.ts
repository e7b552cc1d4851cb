import { APIError, type EndpointContext, type User, type Where } from "@latchkey/core";
import type { SIWEPluginOptions } from "./options.js";
import type { WalletAddress } from "./schema.js";

/** A wallet (EIP-55 address) on one chain. */
export interface Wallet {
  address: string;
  chainId: number;
}

/**
 * The user a wallet signs in as: the owner of this address on this chain, else the owner of
 * this address on any chain (who gains a row for the new chain), else a new user (whose first
 * wallet is primary). Each new (address, chain) also gets a `siwe` account `<address>:<chainId>`.
 */
export async function walletUser(
  ctx: EndpointContext,
  options: SIWEPluginOptions,
  wallet: Wallet,
  email: string | undefined,
): Promise<User> {
  const exact = await findWallet(ctx, wallet, true);
  const owner = exact ?? (await findWallet(ctx, wallet, false));
  const known = owner ? await ctx.context.internalAdapter.findUserById(owner.userId) : null;
  if (known && exact) return known;
  if (known) {
    await addWallet(ctx, known.id, wallet, false);
    return known;
  }
  const { user, created } = await createWalletUser(ctx, options, wallet, email);
  // A parallel first sign-in of the same wallet may have written the row already.
  if (created || !(await findWallet(ctx, wallet, true))) await addWallet(ctx, user.id, wallet, true);
  return user;
}

async function findWallet(ctx: EndpointContext, { address, chainId }: Wallet, sameChain: boolean) {
  const where: Where[] = [{ field: "address", value: address }];
  if (sameChain) where.push({ field: "chainId", value: chainId });
  return ctx.context.adapter.findOne<WalletAddress & Record<string, unknown>>({
    model: "walletAddress",
    where,
  });
}

async function addWallet(
  ctx: EndpointContext,
  userId: string,
  { address, chainId }: Wallet,
  isPrimary: boolean,
) {
  const now = new Date();
  // Through the internal adapter: it assigns the row id and runs database hooks, as for any row.
  await ctx.context.internalAdapter.create(
    "walletAddress",
    { userId, address, chainId, isPrimary, createdAt: now },
    ctx,
  );
  await ctx.context.internalAdapter.linkAccount(
    { userId, providerId: "siwe", accountId: `${address}:${chainId}`, createdAt: now },
    ctx,
  );
}

/** The address a wallet user gets when no email is given or the given one is taken. */
const walletEmail = (options: SIWEPluginOptions, address: string): string =>
  `${address}@${options.emailDomainName ?? "siwe.placeholder.invalid"}`;

/**
 * Creates the wallet's user: named by ENS (else the address), with the requested email when
 * `anonymous: false` and no user holds it, else the wallet address. When the insert loses a
 * race (the same email or wallet address written meanwhile), the winner's user is used or the
 * wallet address taken instead of the email.
 */
async function createWalletUser(
  ctx: EndpointContext,
  options: SIWEPluginOptions,
  { address }: Wallet,
  email: string | undefined,
): Promise<{ user: User; created: boolean }> {
  const { internalAdapter } = ctx.context;
  const requested = options.anonymous === false ? email?.toLowerCase() : undefined;
  const fallback = walletEmail(options, address);
  const free = requested && !(await internalAdapter.findUserByEmail(requested)) ? requested : undefined;
  const { name, avatar } = (await options.ensLookup?.({ walletAddress: address })) ?? {};
  const create = async (userEmail: string): Promise<User> => {
    const user = await internalAdapter.createUser(
      { name: name ?? address, email: userEmail, image: avatar ?? "" },
      ctx,
      { method: "siwe" },
    );
    if (!user) throw new APIError("INTERNAL_SERVER_ERROR", { message: "Failed to create user" });
    return user;
  };
  try {
    return { user: await create(free ?? fallback), created: true };
  } catch (error) {
    if (free && (await internalAdapter.findUserByEmail(free)))
      return { user: await create(fallback), created: true };
    const winner = await internalAdapter.findUserByEmail(fallback);
    if (winner) return { user: winner.user, created: false };
    throw error;
  }
}
