/**
 * Caps on the shape of a query's XML, checked by the pre-scan before sax builds anything. The
 * gateway parses queries on its own thread, so input far beyond any real query (a million
 * elements, a 100,000-deep nest, a 5 MB attribute) is refused at the first character past the
 * cap, in time proportional to the cap rather than to the input.
 */

/** Elements nested deeper than this are refused (the tree builder and every later stage recurse). */
export const MAX_XML_DEPTH = 200

/** Elements in one query; block expansion may not produce more data elements than this either. */
export const MAX_XML_ELEMENTS = 100_000

/** Characters in one attribute value, as long as the longest value a variable may hold. */
export const MAX_ATTRIBUTE_LENGTH = 1_000_000
