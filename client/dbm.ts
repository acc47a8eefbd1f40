/**
 * The dbm catalogue as TypeScript types: every transaction name (and XML-API alias) and its
 * parameters, as `list_transactions` describes them. test/client/dbm-types.test.ts compares this
 * file with what a running service lists, so a transaction added or changed on the server without
 * being added here fails a test rather than going unnoticed.
 */

/** A list of user or group names: a JSON array, or one space-separated string. */
export type Names = readonly string[] | string

/** A column of upload_table / upload_begin. */
export interface ColumnDecl {
  readonly name: string
  /** Ours, or the letters !cols reports (i is a date when the format says type:date). */
  readonly type?: 'int' | 'bigint' | 'float' | 'text' | 'date' | 'i' | 'j' | 'f' | 'a'
  readonly label?: string
  readonly format?: string
  readonly desc?: string
  /** Display width and pinning, as !cols reports them. */
  readonly width?: number
  readonly fixed?: 0 | 1 | boolean
}

/** What upload_table and upload_begin do with a table already there. */
export type UploadMode = 'noreplace' | 'replace' | 'append'

/** The catalog fields save_table, upload_table and upload_begin take for the table they make. */
export interface NewTableFields {
  title?: string
  sdesc?: string
  ldesc?: string
  users?: Names
  inherit?: boolean
}

/** What add_company and set_company both take besides the id and the name. */
export interface CompanyFields {
  max_ids?: number
  admins?: Names
  email?: string
  phone?: string
  street?: string
  city?: string
  state?: string
  zip?: string
  country?: string
}

/**
 * Parameters of each transaction (snake_case, as on the wire). test/client/dbm-types.test.ts
 * reads each one's properties through the compiler, so they may be composed of the types above.
 */
export interface DbmParams {
  /** path "" is the root. */
  readonly get_names_in_dir: { path: string }
  readonly list_dir: { path: string; depth?: number; find?: string }
  readonly get_dir_info: { path: string; include?: Names }
  readonly make_dir: { path: string; title?: string; sdesc?: string; ldesc?: string; users?: Names; uploaders?: Names; inherit?: boolean }
  readonly set_dir_info: {
    path: string
    id?: number
    title?: string
    sdesc?: string
    ldesc?: string
    users?: Names
    uploaders?: Names
    inherit?: boolean
    owner?: string
  }
  readonly drop_dir: { path: string; recursive?: boolean }
  readonly get_table_info: { path: string; include?: Names }
  readonly get_table_cols: { path: string }
  readonly set_table_info: {
    path: string
    title?: string
    sdesc?: string
    ldesc?: string
    users?: Names
    inherit?: boolean
    owner?: string
    cols?: Record<string, unknown>
  }
  readonly drop_table: { path: string }
  readonly move: { from: string; to: string }
  readonly copy_table: { from: string; to: string; replace?: boolean }
  readonly share: { path: string; add?: Names; remove?: Names; users?: Names; inherit?: boolean }
  readonly get_permissions: { path: string }
  readonly save_table: { path: string; xml: string; replace?: boolean; append?: boolean } & NewTableFields
  readonly upload_table: {
    path: string
    mode?: UploadMode
    cols?: readonly ColumnDecl[]
    data?: unknown
    csv?: string
    /** A Parquet file, base64 (or send it as the body: client.uploadChunk with a format). */
    parquet?: string
    /** An Arrow IPC stream or file, base64. */
    arrow?: string
  } & NewTableFields
  readonly upload_begin: { path: string; mode?: UploadMode; cols?: readonly ColumnDecl[] } & NewTableFields
  readonly upload_chunk: { upload: string; seq?: number; csv?: string; data?: unknown; parquet?: string; arrow?: string }
  readonly upload_commit: { upload: string }
  readonly upload_abort: { upload: string }
  readonly get_user: { uid?: string }
  readonly list_users: { company?: string; find?: string }
  readonly add_user: {
    uid: string
    first: string
    last: string
    email: string
    middle?: string
    company?: string
    password?: string
    password_expires?: string
    roles?: Names
  }
  readonly set_user: { uid: string; first?: string; middle?: string; last?: string; email?: string; company?: string }
  readonly deactivate_user: { uid: string }
  readonly activate_user: { uid: string }
  readonly set_password: { uid?: string; old_password?: string; new_password: string; password_expires?: string }
  readonly add_group: { group: string; prefix?: 'uid' | 'company'; owner?: string; users?: Names; title?: string; description?: string }
  readonly get_group: { group: string }
  readonly list_groups: { owner?: string }
  readonly set_group: { group: string; owner?: string; users?: Names; add?: Names; remove?: Names; title?: string; description?: string }
  readonly drop_group: { group: string }
  readonly get_company: { company?: string }
  readonly list_companies: Record<string, never>
  readonly add_company: { company: string; name: string } & CompanyFields
  readonly set_company: { company: string; name?: string } & CompanyFields
  readonly drop_company: { company: string }
  readonly list_roles: Record<string, never>
  readonly get_role: { role: string }
  readonly add_role: { role: string; title?: string; description?: string; capabilities: Names }
  readonly set_role: { role: string; title?: string; description?: string; capabilities?: Names }
  readonly drop_role: { role: string }
  readonly grant_role: { uid: string; role: string }
  readonly revoke_role: { uid: string; role: string }
  readonly list_transactions: Record<string, never>
}

/** The XML-API names the service also accepts (reference §5.3), with their element names. */
export interface DbmAliasParams {
  readonly dir: { name?: string; depth?: number; find?: string }
  readonly listdir: { name?: string; depth?: number; find?: string }
  readonly getdir: { name: string; include?: Names }
  readonly putdir: Omit<DbmParams['set_dir_info'], 'path'> & { name: string }
  readonly mkdir: Omit<DbmParams['make_dir'], 'path'> & { name: string }
  readonly dropdir: { name: string; recursive?: boolean }
  readonly gettab: { name: string; include?: Names }
  readonly tabinfo: { name: string; include?: Names }
  readonly puttab: Omit<DbmParams['set_table_info'], 'path'> & { name: string }
  readonly edittab: Omit<DbmParams['set_table_info'], 'path'> & { name: string }
  readonly savetable: Omit<DbmParams['save_table'], 'path'> & { name: string }
  readonly upload: Omit<DbmParams['upload_table'], 'path'> & { name: string }
}

export type DbmName = keyof DbmParams
export type DbmAlias = keyof DbmAliasParams

/** A table as dbm shows it (get_table_info, upload_table, upload_commit…). */
export interface TableInfo {
  readonly id: number
  readonly path: string
  readonly name: string
  readonly type: 'table'
  readonly title: string
  readonly sdesc: string
  readonly ldesc: string
  readonly owner: string
  readonly users: string[]
  readonly inherit: 0 | 1
  readonly rows: number
  readonly ncols: number
  readonly created: string
  readonly updated: string
  readonly cols?: { name: string; type: string; label: string; desc: string; format: string }[]
  readonly [more: string]: unknown
}

/** The value of the transactions whose answer has a fixed shape; others answer `unknown`. */
export interface DbmValues {
  readonly get_names_in_dir: [kinds: string[], names: string[]]
  readonly upload_table: TableInfo
  readonly upload_begin: { upload: string; path: string; mode: string; expires_in: number }
  readonly upload_chunk: { upload: string; rows: number; chunks: number; duplicate?: true }
  readonly upload_commit: TableInfo
  readonly upload_abort: { upload: string; aborted: true }
  readonly save_table: { path: string; rows: number }
  readonly list_transactions: {
    name: string[]
    summary: string[]
    requires: string[]
    aliases: string[][]
    params: { name: string; type: string; required: boolean; doc: string; values?: string[] }[][]
    /** Groups of parameters of which one must be given (upload_table: data or csv). */
    one_of: string[][][]
  }
}

export type DbmValue<N extends string> = N extends keyof DbmValues ? DbmValues[N] : unknown
