/**
 * A recipe's key (the SHA-256 of its JSON), computed once per recipe object: a query request
 * needs it to look up the memo and again to keep the result in the Store. Recipes are never
 * changed after they are made, so the key of an object never changes either.
 */
import { recipeKey } from '../queries/result-cache.js'

const keys = new WeakMap<object, string>()

export function recipeKeyOf(recipe: object): string {
  let key = keys.get(recipe)
  if (key === undefined) {
    key = recipeKey(recipe)
    keys.set(recipe, key)
  }
  return key
}
