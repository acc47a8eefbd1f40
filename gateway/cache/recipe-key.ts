/**
 * A recipe's key (the SHA-256 of its JSON), computed once per recipe object: a query request
 * needs it to look up the memo and again to keep the result in the Store. Recipes are never
 * changed after they are made, so the key of an object never changes either. A repeated query
 * makes a new recipe object with the same JSON on every request, so keys are also remembered
 * by that JSON text, which is a pure function of it: the hash is computed once per distinct text.
 */
import { createHash } from 'node:crypto'
import { ClockCache } from './clock-cache.js'

const keys = new WeakMap<object, string>()

/** Budget of the text → key memo, charged by text length (UTF-16) plus the key and overhead. */
const TEXT_MEMO_BYTES = 4 * 1024 * 1024
const byText = new ClockCache<string>(TEXT_MEMO_BYTES, (hash, text) => 2 * text.length + 2 * hash.length + 64)

/** Equal to queries/result-cache.ts recipeKey(recipe), which hashes the same JSON text. */
export function recipeKeyOf(recipe: object): string {
  let key = keys.get(recipe)
  if (key === undefined) {
    const text = JSON.stringify(recipe)
    key = byText.get(text)
    if (key === undefined) {
      key = createHash('sha256').update(text).digest('hex')
      byText.set(text, key)
    }
    keys.set(recipe, key)
  }
  return key
}
