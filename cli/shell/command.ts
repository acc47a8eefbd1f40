/**
 * `tabula shell`: statements typed (or piped) one after another, each run on the service and its
 * result printed; SQL ends with `;`, a macro query (text that starts with `<`) once its XML is
 * complete and an empty line or a `;` follows (statements.ts). Lines that start with `.` are the
 * shell's own commands (`.help`).
 *
 * On a terminal: a prompt, Tab completion (completion.ts), a history kept between runs
 * (history.ts), progress while a query runs, and Ctrl-C that stops the running query and comes
 * back to the prompt (a second Ctrl-C while it stops leaves at once); Ctrl-D or .quit leaves.
 * From a pipe it reads to the end and exits 1 when any statement failed, so scripts see failures.
 */
import { createInterface, type Interface } from 'node:readline'
import type { Client, ColumnMajor, RowsResult } from '../../client/index.js'
import { UsageError } from '../args.js'
import { Interrupted, type Command, type CommandContext } from '../context.js'
import { formatRows, OUTPUT_FORMATS, type OutputFormat } from '../output.js'
import { emitRows, formattedValues, QUERY_OPTIONS, runQuery } from '../query.js'
import { cachedCatalog, makeCompleter, type Catalog, type StatementContext } from './completion.js'
import { foldStatement, historyFile, loadHistory, saveHistory } from './history.js'
import { languageOf, StatementReader } from './statements.js'

const PROMPT = 'tabula> '
const MORE = '   ...> '

const HELP = `Statements:
  SQL ends with ";" and may span lines:      select store, count(*) n
                                             from pub.demo.retail.item group by store;
  A macro query starts with "<"; it runs once its XML is complete and a line ends with ";"
  or an empty line follows:                  <base table="pub.demo.retail.stores"/>
                                             <sel value="region='West'"/>;
Commands:
  .help                  this text
  .quit, .exit           leave (or Ctrl-D)
  .format [FMT]          show or set the output: ${OUTPUT_FORMATS.join(', ')}
  .values [raw|formatted] show or set how values are shown (formatted: the columns' display formats)
  .ls [PATH]             the folders and tables in a folder
  .cols TABLE            the columns of a table
Tab completes commands, folders and tables (type a dot to go into a folder), columns of the
tables the statement names, SQL keywords and functions, macro-language elements.
Ctrl-C stops the running query (or clears the statement being typed).
`

/** The service's listing and columns, for completion. */
export function serviceCatalog(withClient: CommandContext['withClient']): Catalog {
  const timeout = () => AbortSignal.timeout(3000)
  return {
    async list(folder) {
      const r = await withClient((c) => c.ls(folder, { format: 'json.rows', signal: timeout() }))
      const at = (name: string) => r.cols.indexOf(name)
      return r.rows.map((row) => ({ name: String(row[at('name')]), path: String(row[at('path')]), table: row[at('type')] === 'table' }))
    },
    async columns(table) {
      const cols = (await withClient((c) => c.table(table).cols({ format: 'json', signal: timeout() }))) as ColumnMajor
      return (cols.name ?? []).map(String)
    },
  }
}

async function columnsTable(client: Client, path: string, signal: AbortSignal): Promise<RowsResult> {
  const c = await client.table(path).cols({ format: 'json', signal })
  const keys = ['name', 'label', 'type', 'format'].filter((k) => Array.isArray(c[k]))
  const n = (c.name ?? []).length
  return { cols: keys, rows: Array.from({ length: n }, (_, r) => keys.map((k) => c[k][r])) }
}

class Shell {
  private format: OutputFormat
  private values: string | undefined
  private readonly reader = new StatementReader()
  /** Lines of the statement being typed, for the history. */
  private typed: string[] = []
  private running: AbortController | null = null
  private failures = 0
  /** The last write of the history file, awaited before the shell ends. */
  private saving: Promise<void> = Promise.resolve()

  constructor(
    private readonly ctx: CommandContext,
    private readonly rl: Interface,
    private readonly interactive: boolean,
    private readonly history: string[] | null,
    private readonly historyPath: string,
  ) {
    this.format = ctx.format
    this.values = ctx.options.values as string | undefined
  }

  /** The statement around the cursor, for completion: its earlier lines and the whole current line. */
  around(): StatementContext {
    return { pending: this.reader.pending, text: this.reader.text + this.rl.line }
  }

  get failed(): boolean {
    return this.failures > 0
  }

  prompt(): void {
    if (!this.interactive) return
    this.rl.setPrompt(this.reader.pending ? MORE : PROMPT)
    this.rl.prompt()
  }

  /** Ctrl-C on the terminal: stop the running query, or drop the statement being typed. */
  interrupt(): void {
    if (this.running) {
      if (this.running.signal.aborted) {
        this.ctx.stderr.write('\nInterrupted again: leaving without waiting for the service.\n')
        process.exit(130)
      }
      this.running.abort()
      return
    }
    if (this.reader.pending || this.rl.line !== '') this.ctx.stderr.write('^C\n')
    else this.ctx.stderr.write('(.quit or Ctrl-D to leave)\n')
    this.reader.clear()
    this.typed = []
    // Readline keeps what was typed on the line; Ctrl-C starts afresh (Ctrl-E then Ctrl-U: to its end, then all of it).
    this.rl.write(null, { ctrl: true, name: 'e' })
    this.rl.write(null, { ctrl: true, name: 'u' })
    this.prompt()
  }

  /** One line of input: a shell command, or part of a statement (run once complete). Answers false to leave. */
  async line(line: string): Promise<boolean> {
    if (!this.reader.pending && line.trimStart().startsWith('.')) {
      this.remember([line], line.trim())
      return this.command(line.trim())
    }
    this.typed.push(line)
    const statements = this.reader.push(line)
    if (statements.length > 0) {
      this.remember(this.typed, this.typed.join('\n'))
      this.typed = this.reader.pending ? [line] : []
    }
    for (const s of statements) {
      await this.statement(s)
      if (this.ctx.signal.aborted) return false
    }
    return true
  }

  async end(): Promise<void> {
    for (const s of this.reader.end()) await this.statement(s)
  }

  private remember(lines: readonly string[], statement: string): void {
    if (!this.history) return
    foldStatement(this.history, lines, statement)
    const history = this.history
    // One write at a time, in order, so the file always ends as the last state.
    this.saving = this.saving
      .then(() => saveHistory(this.historyPath, history))
      .catch((err: unknown) => {
        this.ctx.stderr.write(`Could not save the history: ${(err as Error).message}\n`)
      })
  }

  /** Waits for the history to be written. */
  settle(): Promise<void> {
    return this.saving
  }

  private async statement(text: string): Promise<void> {
    const controller = new AbortController()
    this.running = controller
    const signal = AbortSignal.any([controller.signal, this.ctx.signal])
    try {
      const run = await this.ctx.withClient((client) => runQuery(this.queryCtx(), client, { lang: languageOf(text), text }, this.format, signal))
      await emitRows(this.queryCtx(), run, this.format)
    } catch (err) {
      this.report(err)
    } finally {
      this.running = null
    }
  }

  /** The command context with the shell's current settings. */
  private queryCtx(): CommandContext {
    return { ...this.ctx, options: { ...this.ctx.options, values: this.values, output: undefined } }
  }

  private report(err: unknown): void {
    this.failures++
    if (err instanceof Interrupted) {
      this.ctx.stderr.write(`${err.message}\n`)
      return
    }
    const e = err as { message?: string; code?: string; requestId?: string }
    const code = e.code ? ` [${e.code}]` : ''
    this.ctx.stderr.write(`Error: ${e.message ?? String(err)}${code}\n`)
  }

  private async command(line: string): Promise<boolean> {
    const [name, ...args] = line.split(/\s+/)
    const arg = args.join(' ')
    try {
      switch (name) {
        case '.quit':
        case '.exit':
          return false
        case '.help':
          this.ctx.stdout.write(HELP)
          break
        case '.format':
          if (arg === '') this.ctx.stdout.write(`${this.format}\n`)
          else if ((OUTPUT_FORMATS as readonly string[]).includes(arg)) this.format = arg as OutputFormat
          else throw new UsageError(`.format takes ${OUTPUT_FORMATS.join(', ')} (got "${arg}").`)
          break
        case '.values':
          if (arg === '') this.ctx.stdout.write(`${formattedValues(this.values, this.format) ? 'formatted' : 'raw'}\n`)
          else this.values = formattedValues(arg, this.format) ? 'formatted' : 'raw'
          break
        case '.ls': {
          const r = await this.ctx.withClient((c) => c.ls(arg, { format: 'json.rows', signal: this.ctx.signal }))
          const keep = ['name', 'type', 'title', 'rows', 'cols'].map((k) => r.cols.indexOf(k)).filter((i) => i >= 0)
          this.ctx.stdout.write(formatRows({ cols: keep.map((i) => r.cols[i]), rows: r.rows.map((row) => keep.map((i) => row[i])) }, this.format))
          break
        }
        case '.cols':
          if (arg === '') throw new UsageError('.cols takes a table path, e.g. .cols pub.demo.retail.item')
          this.ctx.stdout.write(formatRows(await this.ctx.withClient((c) => columnsTable(c, arg, this.ctx.signal)), this.format))
          break
        default:
          throw new UsageError(`Unknown command ${name}: .help lists them.`)
      }
    } catch (err) {
      this.report(err)
    }
    return true
  }
}

export const SHELL: Command = {
  name: 'shell',
  usage: 'tabula shell',
  summary: 'An interactive shell for SQL and macro queries (Tab completion, history; .help inside).',
  details: [
    'SQL statements end with ";"; macro queries (starting with "<") run once their XML is complete and',
    'a line ends with ";" or an empty line follows. The history is kept in $TABULA_HISTORY, else',
    `history in the config folder (the last 1000 statements, mode 0600). Statements may be piped in:`,
    'echo "select 1;" | tabula shell. The exit code is then 1 if any statement failed.',
  ].join('\n'),
  positionals: [0, 0],
  options: { values: QUERY_OPTIONS.values, quiet: QUERY_OPTIONS.quiet },
  async run(ctx) {
    const input = ctx.stdin as NodeJS.ReadStream
    const interactive = input.isTTY === true && ctx.stdout.isTTY === true
    const historyPath = historyFile(ctx.env)
    const history = interactive ? await loadHistory(historyPath) : null
    const reader: { current: Shell | null } = { current: null }
    const catalog = cachedCatalog(serviceCatalog(ctx.withClient))
    const rl = createInterface({
      input,
      output: interactive ? ctx.stdout : undefined,
      terminal: interactive,
      completer: interactive
        ? (line: string, callback: (err: null, result: [string[], string]) => void) => {
            makeCompleter(
              catalog,
              () => reader.current?.around() ?? { pending: false, text: '' },
            )(line).then(
              (r) => callback(null, r),
              () => callback(null, [[], line]),
            )
          }
        : undefined,
      history: history ?? undefined,
      historySize: interactive ? 1000 : 0,
      removeHistoryDuplicates: true,
    })
    // Readline keeps its own list; the shell folds multi-line statements into it and saves it.
    const shell = new Shell(ctx, rl, interactive, interactive ? (rl as unknown as { history: string[] }).history : null, historyPath)
    reader.current = shell
    rl.on('SIGINT', () => shell.interrupt())
    if (interactive) ctx.stderr.write('tabula shell: .help for help, .quit or Ctrl-D to leave.\n')
    shell.prompt()
    let quit = false
    for await (const line of rl) {
      if (!(await shell.line(line))) {
        quit = true
        break
      }
      shell.prompt()
    }
    if (!quit && !ctx.signal.aborted) await shell.end()
    rl.close()
    await shell.settle()
    if (interactive) ctx.stderr.write('\n')
    if (ctx.signal.aborted) throw new Interrupted('Interrupted.')
    if (!interactive && shell.failed) throw new ShellFailed()
  },
}

/** A piped shell some of whose statements failed: exit code 1, their errors already printed. */
export class ShellFailed extends Error {
  override readonly name = 'ShellFailed'
  constructor() {
    super('Some statements failed (see above).')
  }
}
