import type { AuthContext } from "@latchkey/core";
import type { ResolvedConfig } from "../options.js";
import type { ApiKeyRecord } from "../record.js";
import { usesDatabase } from "../store.js";
import { withRemainingLeft } from "../usage-storage.js";

/** A key as answered: in secondary-storage-only mode `remaining` is what is left of the allowance. */
export const presentable = (ctx: AuthContext, config: ResolvedConfig, record: ApiKeyRecord): Promise<ApiKeyRecord> =>
  usesDatabase(config) ? Promise.resolve(record) : withRemainingLeft(ctx, config, record);
