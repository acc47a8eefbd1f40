/**
 * `tabula profile list | set NAME … | remove NAME`: the profiles of the config file (config.ts),
 * edited without opening it. The file is written mode 0600; a password goes in only with
 * --save-password, and --password-command is offered as the way to avoid that.
 */
import { UsageError } from './args.js'
import { loadConfig, PROFILE_NAME, saveConfig, type ConfigFile, type Profile } from './config.js'
import type { Command } from './context.js'
import { formatRows, OUTPUT_FORMATS } from './output.js'
import { promptHidden } from './prompt.js'
import { readAll } from './source.js'

function passwordKind(p: Profile): string {
  return p.passwordCommand ? 'command' : p.password !== undefined ? 'stored' : ''
}

export const PROFILE: Command = {
  name: 'profile',
  usage: 'tabula profile list | set NAME [--url URL] [--user UID] [...] | remove NAME',
  summary: 'List, add, change or remove the profiles of the config file.',
  details: [
    'The config file is $TABULA_CONFIG, else config.json in $TABULA_CONFIG_DIR (default',
    '~/.config/tabula). A command uses the profile --profile NAME names, else $TABULA_PROFILE, else the',
    "file's default. Each setting comes from the first of: the command line, the environment",
    '(TABULA_URL, TABULA_UID, TABULA_PASSWORD, TABULA_API_VERSION), the profile.',
    'No password is stored unless --save-password is given (it is read from $TABULA_PASSWORD, a',
    'piped stdin, or asked for); --password-command CMD stores a command that prints it instead.',
  ].join('\n'),
  positionals: [1, 2],
  options: {
    user: { type: 'string', short: 'u', arg: 'UID', help: 'set: the user id.' },
    'password-command': { type: 'string', arg: 'CMD', help: 'set: a shell command that prints the password (e.g. "pass show tabula").' },
    'save-password': { type: 'boolean', help: 'set: store the password in the file (mode 0600).' },
    'no-password': { type: 'boolean', help: 'set: forget a stored password or password command.' },
    default: { type: 'boolean', help: 'set: make this the default profile.' },
  },
  async run(ctx) {
    const [action, name] = ctx.positionals
    const { file, config } = await loadConfig(ctx.env)
    if (action === 'list') {
      if (name !== undefined) throw new UsageError('profile list takes no name.')
      const rows = Object.entries(config.profiles).map(([n, p]) => [
        n === config.default ? `${n} *` : n,
        p.url ?? '',
        p.user ?? '',
        p.apiVersion ?? '',
        p.format ?? '',
        passwordKind(p),
      ])
      ctx.print(formatRows({ cols: ['profile', 'url', 'user', 'apiVersion', 'format', 'password'], rows }, ctx.format))
      return
    }
    if (name === undefined || !PROFILE_NAME.test(name))
      throw new UsageError(`profile ${action} needs a NAME of letters, digits, _ . - (got ${JSON.stringify(name ?? '')}).`)
    if (action === 'remove') {
      if (!config.profiles[name]) throw new UsageError(`No profile "${name}" in ${file}.`)
      const { [name]: _gone, ...profiles } = config.profiles
      await saveConfig(file, { ...(config.default !== name && config.default !== undefined && { default: config.default }), profiles })
      ctx.stderr.write(`Removed the profile ${name} from ${file}.\n`)
      return
    }
    if (action !== 'set') throw new UsageError(`profile takes list, set or remove (got ${JSON.stringify(action)}).`)
    const o = ctx.options
    const format = o.format as string | undefined
    if (format !== undefined && !(OUTPUT_FORMATS as readonly string[]).includes(format))
      throw new UsageError(`--format takes ${OUTPUT_FORMATS.join(', ')} (got ${JSON.stringify(format)}).`)
    if (o['save-password'] && o['password-command'] !== undefined) throw new UsageError('Give --save-password or --password-command, not both.')
    const before: Profile = config.profiles[name] ?? {}
    let next: Profile = {
      ...before,
      ...(o.url !== undefined && { url: o.url as string }),
      ...(o.user !== undefined && { user: o.user as string }),
      ...(o['api-version'] !== undefined && { apiVersion: o['api-version'] as string }),
      ...(format !== undefined && { format }),
    }
    if (o['no-password'] || o['password-command'] !== undefined || o['save-password']) {
      const { password: _p, passwordCommand: _c, ...rest } = next
      next = rest
    }
    if (o['password-command'] !== undefined) next = { ...next, passwordCommand: o['password-command'] as string }
    if (o['save-password']) {
      const pw =
        ctx.env.TABULA_PASSWORD ??
        ((ctx.stdin as NodeJS.ReadStream).isTTY
          ? await promptHidden(ctx, `Password to store for ${next.user ?? name}: `)
          : (await readAll(ctx.stdin)).split(/\r?\n/)[0])
      if (!pw) throw new UsageError('No password to store: set TABULA_PASSWORD, pipe it on stdin, or run on a terminal to be asked.')
      next = { ...next, password: pw }
    }
    const saved: ConfigFile = { default: o.default ? name : (config.default ?? name), profiles: { ...config.profiles, [name]: next } }
    await saveConfig(file, saved)
    ctx.stderr.write(`Saved the profile ${name} in ${file}${saved.default === name ? ' (the default)' : ''}.\n`)
  },
}
