import { role } from "./role.js";
import type { AccessControl, Statements } from "./types.js";

/**
 * Declares an application's resources and actions; `newRole` then makes roles granting subsets
 * of them, checked at compile time (an undeclared resource or action is a type error).
 *
 * @example
 * const ac = createAccessControl({ project: ["create", "share", "delete"] } as const);
 * const viewer = ac.newRole({ project: [] });
 * const owner = ac.newRole({ project: ["create", "share", "delete"] });
 */
export function createAccessControl<const TStatements extends Statements>(
  statements: TStatements,
): AccessControl<TStatements> {
  return {
    statements,
    newRole: (granted) => role(granted as Statements) as never,
  };
}
