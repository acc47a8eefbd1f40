/**
 * The parts several pages share, with the element ids of the UI contract that the client code
 * (client/result-view.ts, client/progress.ts) and the browser tests find them by.
 */
import { html, type Markup } from './markup.js'

/** Shown while a query runs (and after, with its time): progress bar, elapsed time, Stop. */
export function progressPanel(): Markup {
  return html`<div id="progress-box" class="progress-box" hidden>
<label for="progress" class="visually-hidden">Query progress</label>
<progress id="progress" max="1"></progress>
<span id="elapsed" class="elapsed"></span>
<span id="progress-detail" class="detail"></span>
<button type="button" id="stop" disabled>Stop</button>
</div>
`
}

/**
 * Where a failed query's message goes (empty otherwise), and after it the neutral notice of a
 * stopped or truncated query, or the offer to truncate a result over the limit
 * (client/query-runner.ts).
 */
export function errorBox(): Markup {
  return html`<div id="error" class="error" role="alert"></div>
<div id="notice" class="notice" role="status" hidden></div>\n`
}

/** The result table with its pager and the links to the same rows in the other formats. */
export function resultPanel(): Markup {
  return html`<section id="result-box" class="result-box" aria-label="Result" hidden>
<div class="pager">
<button type="button" id="first" disabled aria-label="First page">«</button>
<button type="button" id="prev" disabled aria-label="Previous page">‹ Previous</button>
<span id="rowinfo" class="rowinfo" aria-live="polite"></span>
<button type="button" id="next" disabled aria-label="Next page">Next ›</button>
<button type="button" id="last" disabled aria-label="Last page">»</button>
<span class="formats">These rows as
<a id="link-text">text</a>
<a id="link-json">json</a>
<a id="link-json-rows">json.rows</a>
<a id="link-json-keyed">json.keyed</a></span>
<details id="download" class="download"><summary>Download as</summary>
<ul class="menu" aria-label="The whole result as">
<li><a id="download-csv">CSV</a></li>
<li><a id="download-parquet">Parquet</a></li>
<li><a id="download-arrow">Arrow</a></li>
<li><a id="download-json">JSON</a></li>
</ul></details>
</div>
<div class="table-wrap" tabindex="0" aria-label="Result rows">
<table id="result"><thead></thead><tbody></tbody></table>
</div>
</section>
`
}
