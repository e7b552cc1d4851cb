/** Resources and the actions each allows: `{ project: ["create", "share"] }`. */
export type Statements = { readonly [resource: string]: readonly string[] };

/** A subset of one resource's actions, as a role grants them or a request asks for them. */
export type ActionsOf<TActions extends readonly string[]> = readonly TActions[number][];

/** What a role grants: for some of the statements' resources, a subset of their actions. */
export type RoleStatements<TStatements extends Statements> = {
  readonly [R in keyof TStatements]?: ActionsOf<TStatements[R]>;
};

/**
 * What `newRole` accepts: the statements' resources with subsets of their actions, and no
 * resource the access control does not declare (unless the statements are an open record).
 */
export type RoleInput<TStatements extends Statements, TRole extends Statements> = TRole &
  (string extends keyof TRole
    ? unknown
    : RoleStatements<TStatements> & Record<Exclude<keyof TRole, keyof TStatements>, never>);

/** A role's statements with each action list kept as its literal tuple. */
export type ExactStatements<T extends Statements> = { readonly [R in keyof T]: readonly [...T[R]] };

/** How a request combines its parts: every part must pass (`AND`) or one is enough (`OR`). */
export type Connector = "AND" | "OR";

/**
 * A permission request: per resource, the actions needed (all of them), or
 * `{ actions, connector }` to say whether all or any one of them is enough.
 */
export type AuthorizeRequest<TStatements extends Statements = Statements> = {
  readonly [R in keyof TStatements]?:
    | ActionsOf<TStatements[R]>
    | { readonly actions: ActionsOf<TStatements[R]>; readonly connector: Connector };
};

/** The answer of `authorize`: success, or the reason it failed. */
export type AuthorizeResponse = { success: false; error: string } | { success: true; error?: undefined };

/** A role: the statements it grants and the check against them. */
export interface Role<TGranted extends Statements = Statements, TRequest extends Statements = TGranted> {
  /**
   * Checks a request against what the role grants. `connector` combines the resources:
   * `AND` (default) needs every one, `OR` any one.
   */
  authorize(request: AuthorizeRequest<TRequest>, connector?: Connector): AuthorizeResponse;
  readonly statements: TGranted;
}

/** The statements of an application and the factory of its roles. */
export interface AccessControl<TStatements extends Statements = Statements> {
  /** Makes a role granting a subset of the statements. */
  newRole<const TRole extends Statements>(
    statements: RoleInput<TStatements, TRole>,
  ): Role<ExactStatements<TRole>, TStatements>;
  readonly statements: TStatements;
}
