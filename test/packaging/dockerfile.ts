/**
 * Reads a Dockerfile into its stages and instructions, as much of the syntax as this project's
 * Dockerfile uses: comments, `\` line continuations, `--flag=value` options, shell and JSON
 * (exec) forms. Anything else (parser directives, heredocs, ONBUILD) is refused by name, so a
 * Dockerfile that grows past this reader fails the test loudly instead of being misread.
 */

export interface Instruction {
  /** Upper case: FROM, COPY, RUN … */
  readonly keyword: string
  /** `--from=build` → { from: 'build' }; a bare flag (`--link`) maps to ''. */
  readonly flags: Readonly<Record<string, string>>
  /** The arguments: the JSON array's items in exec form, the words of the shell form otherwise. */
  readonly args: readonly string[]
  /** The text after the keyword and the flags, as written (a RUN's shell command). */
  readonly text: string
  /** 1-based line of the instruction's first line, for messages. */
  readonly line: number
}

export interface Stage {
  readonly base: string
  readonly name: string | null
  readonly instructions: readonly Instruction[]
}

const KNOWN = new Set(['FROM', 'WORKDIR', 'COPY', 'RUN', 'ENV', 'ARG', 'USER', 'EXPOSE', 'HEALTHCHECK', 'CMD', 'ENTRYPOINT', 'LABEL', 'VOLUME', 'STOPSIGNAL'])

export function parseDockerfile(source: string): Stage[] {
  const stages: { base: string; name: string | null; instructions: Instruction[] }[] = []
  for (const instruction of instructionsOf(source)) {
    if (instruction.keyword === 'FROM') {
      const [base, as, name] = instruction.args
      stages.push({ base, name: as?.toUpperCase() === 'AS' ? name : null, instructions: [] })
      continue
    }
    const stage = stages.at(-1)
    if (!stage) throw new Error(`Dockerfile line ${instruction.line}: ${instruction.keyword} before any FROM`)
    stage.instructions.push(instruction)
  }
  return stages
}

function* instructionsOf(source: string): Generator<Instruction> {
  const lines = source.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i].trim()
    if (first === '' || first.startsWith('#')) continue
    const line = i + 1
    let text = first
    // A trailing backslash continues the instruction; comment lines inside it are dropped.
    while (text.endsWith('\\') && i + 1 < lines.length) {
      text = text.slice(0, -1)
      const next = lines[++i].trim()
      if (!next.startsWith('#')) text += ` ${next}`
    }
    if (/<<-?\s*['"]?\w/.test(text)) throw new Error(`Dockerfile line ${line}: heredocs are not understood by this reader`)
    yield instructionOf(text, line)
  }
}

function instructionOf(text: string, line: number): Instruction {
  const match = /^(\S+)\s*(.*)$/.exec(text)!
  const keyword = match[1].toUpperCase()
  if (!KNOWN.has(keyword)) throw new Error(`Dockerfile line ${line}: ${keyword} is not understood by this reader (test/packaging/dockerfile.ts)`)
  let rest = match[2]
  const flags: Record<string, string> = {}
  for (let flag = /^--([\w-]+)(?:=(\S*))?\s*/.exec(rest); flag; flag = /^--([\w-]+)(?:=(\S*))?\s*/.exec(rest)) {
    flags[flag[1]] = flag[2] ?? ''
    rest = rest.slice(flag[0].length)
  }
  const args = rest.startsWith('[') ? (JSON.parse(rest) as string[]) : rest.split(/\s+/).filter(Boolean)
  return { keyword, flags, args, text: rest, line }
}

/** `ENV A=1 B="two"` or `ENV A 1` → the variables it sets. */
export function envOf(instruction: Instruction): Record<string, string> {
  const unquote = (v: string): string => v.replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1')
  if (!instruction.text.includes('=') || /^\S+\s/.test(instruction.text.split('=')[0])) {
    const [name, ...value] = instruction.args
    return { [name]: unquote(value.join(' ')) }
  }
  const vars: Record<string, string> = {}
  for (const [, name, value] of instruction.text.matchAll(/(\w+)=("[^"]*"|'[^']*'|\S*)/g)) vars[name] = unquote(value)
  return vars
}
