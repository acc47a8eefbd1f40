/**
 * The parameter schema of a dbm transaction, and the TypeScript type it stands for. A
 * transaction declares its parameters once (`params`, an object of ParamSpec); params.ts checks
 * a request against it at run time, and `ParamsOf` gives its handler the same declaration as a
 * type, so a handler reads `p.path` as a string without a cast.
 *
 * An own mapped type rather than a schema library (Zod, Valibot, TypeBox): the schema must also
 * be what `list_transactions` shows a client (type names, docs, allowed values), the messages
 * must stay word for word what clients and tests already see, and the normalisations (a
 * space-separated list of names, "yes"/"0" as booleans, lower-cased paths) are 1010data's rather
 * than any library's. A library would need all three bolted on, and a dependency, for the ~30
 * lines below.
 */

/**
 * What each parameter type is once checked and normalised (params.ts makes exactly these):
 * - string: text (numbers and booleans are turned into text), or one of `values`;
 * - path: a dotted object path, trimmed and lower-cased (the handler checks its form: some take '');
 * - name: one identifier (uid, group, company or role), trimmed and lower-cased;
 * - names: a list of identifiers (or '*'), from a JSON array or a space/comma-separated string;
 * - boolean: from true/false, 1/0, "1"/"0", "true"/"false", "yes"/"no", "on"/"off";
 * - integer: a whole number, from a number or numeric text;
 * - object, array: JSON values of that kind, as sent;
 * - any: any JSON value.
 */
export interface ParamTypes {
  string: string
  path: string
  name: string
  names: string[]
  boolean: boolean
  integer: number
  object: Record<string, unknown>
  array: unknown[]
  any: unknown
}

export type ParamType = keyof ParamTypes

export interface ParamSpec {
  readonly type: ParamType
  readonly required?: boolean
  /**
   * With `required`: '' counts as given (get_names_in_dir's path '' is the root), so only a
   * parameter left out (or null) is missing. Without it '' is as missing as no value at all.
   */
  readonly emptyMeansRoot?: boolean
  /** The allowed values (string parameters). */
  readonly values?: readonly string[]
  /** What the parameter means, for list_transactions. */
  readonly doc: string
}

/** A transaction's parameters: name → spec. */
export type ParamSchema = Readonly<Record<string, ParamSpec>>

/** The value one spec stands for: a string parameter with `values` is the union of them. */
export type ValueOf<S extends ParamSpec> = S extends { readonly type: 'string'; readonly values: readonly (infer V extends string)[] }
  ? V
  : ParamTypes[S['type']]

type RequiredKeys<P extends ParamSchema> = { [K in keyof P]: P[K] extends { readonly required: true } ? K : never }[keyof P]

/** The two halves below as one object type, so hovers and messages list the parameters. */
type Flat<T> = { [K in keyof T]: T[K] }

/**
 * The parameters a handler receives: required ones present, the others optional (left out,
 * or sent as null). Read-only: a handler reads its parameters, it does not edit them.
 */
export type ParamsOf<P extends ParamSchema> = Flat<
  { readonly [K in RequiredKeys<P>]: ValueOf<P[K]> } & { readonly [K in Exclude<keyof P, RequiredKeys<P>>]?: ValueOf<P[K]> }
>
