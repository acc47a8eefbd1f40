/**
 * The elements of the macro language and their attributes, as the editor completes them
 * (`<` then a name, or an attribute name inside a tag). Taken from the reference table of
 * docs/endpoints.md ("The macro language"); the engine reads attributes leniently, so a name
 * missing here still runs, it is only not offered.
 */
import type { ElementSpec } from '@codemirror/lang-xml'

/** Attributes of a column's metadata, shared by willbe, col and th. */
const META = ['label', 'format', 'desc', 'width', 'fixed']

/** Data operations, the elements that may appear at the top of a query. */
const OPERATIONS: readonly ElementSpec[] = [
  { name: 'base', top: true, attributes: ['table'] },
  { name: 'table', top: true, attributes: ['cols', 'depth', 'format', 'title'], children: ['cols', 'data'] },
  { name: 'sel', top: true, attributes: ['value'], children: ['and', 'or'] },
  { name: 'willbe', top: true, attributes: ['name', 'value', ...META] },
  { name: 'colord', top: true, attributes: ['cols', 'hide', 'hard'] },
  { name: 'col', top: true, attributes: ['name', ...META] },
  { name: 'cols', top: true, children: ['table', 'th'] },
  { name: 'sort', top: true, attributes: ['col', 'cols', { name: 'dir', values: ['up', 'down'] }] },
  { name: 'tabu', top: true, attributes: ['label', 'breaks', 'cbreaks'], children: ['tcol', 'break', 'rollup'] },
  {
    name: 'link',
    top: true,
    attributes: [
      'table2',
      'col',
      'col2',
      'cols',
      'suffix',
      'keepcols',
      'label',
      { name: 'type', values: ['exact', 'select', 'include', 'exclude', 'asof', 'expand'] },
    ],
  },
  { name: 'merge', top: true, attributes: ['table2'] },
  { name: 'note', top: true },
]

/** Elements that live inside another one. */
const CHILDREN: readonly ElementSpec[] = [
  {
    name: 'tcol',
    attributes: [
      'source',
      { name: 'fun', values: ['cnt', 'cntnna', 'ucnt', 'sum', 'avg', 'min', 'max', 'first', 'last', 'median', 'var', 'stdev', 'wsum', 'wavg'] },
      'name',
      'label',
      'format',
      'weight',
    ],
  },
  { name: 'break', attributes: ['col', 'sort', { name: 'naorder', values: ['first', 'last'] }, 'rename', 'relabel', 'placeholder'] },
  { name: 'rollup', attributes: [{ name: 'type', values: ['hier', 'cube'] }, 'cols', 'sets', 'ind'] },
  { name: 'and', attributes: ['value'] },
  { name: 'or', attributes: ['value'] },
  { name: 'th', attributes: ['name', 'type', 'format', 'desc', 'fixed'] },
  { name: 'data', children: ['tr'] },
  { name: 'tr', children: ['td'] },
  { name: 'td' },
]

/** The block layer, expanded before the data operations, and dynamic instances. */
const BLOCKS: readonly ElementSpec[] = [
  { name: 'block', top: true, attributes: ['name'] },
  { name: 'blocklet', top: true, attributes: ['name'] },
  { name: 'library', top: true, attributes: ['name'] },
  { name: 'insert', top: true, attributes: ['block'] },
  { name: 'expand', top: true, attributes: ['block'] },
  { name: 'call', top: true, attributes: ['block'] },
  { name: 'let', top: true },
  { name: 'set', top: true },
  { name: 'if', top: true, attributes: ['test'], children: ['then', 'else'] },
  { name: 'then' },
  { name: 'else' },
  { name: 'quote', top: true },
  { name: 'foreach', top: true, attributes: [{ name: 'dir_', values: ['forward', 'reverse'] }, 'tally_'] },
  { name: 'for', top: true, attributes: ['to_', 'by_', 'tally_'] },
  { name: 'dynamic', top: true, children: ['widget', 'do'] },
  { name: 'widget', attributes: ['name', 'class_', 'text_'] },
  { name: 'do', attributes: ['action_', 'when_', 'value_'] },
]

export const MACRO_ELEMENTS: readonly ElementSpec[] = [...OPERATIONS, ...CHILDREN, ...BLOCKS]
