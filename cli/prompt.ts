/** Asking for a password on the terminal. */
import type { CommandContext } from './context.js'

/** Reads a password from the terminal without echoing it. */
export function promptHidden(ctx: Pick<CommandContext, 'stdin' | 'stderr'>, prompt: string): Promise<string> {
  const stdin = ctx.stdin as NodeJS.ReadStream
  return new Promise((resolve, reject) => {
    ctx.stderr.write(prompt)
    let text = ''
    stdin.setRawMode(true)
    stdin.resume()
    const done = (err: Error | null) => {
      stdin.setRawMode(false)
      stdin.pause()
      stdin.off('data', onData)
      ctx.stderr.write('\n')
      if (err) reject(err)
      else resolve(text)
    }
    const onData = (d: Buffer) => {
      for (const ch of d.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done(null)
        if (ch === '\u0003') return done(Object.assign(new Error('Interrupted.'), { name: 'AbortError' }))
        if (ch === '\u007f' || ch === '\b') text = text.slice(0, -1)
        else text += ch
      }
    }
    stdin.on('data', onData)
  })
}
