/**
 * The document every workbench page shares: the stylesheet and one script module from /ui/, the
 * top navigation with who is logged in, and the page's own content in <main>. Nothing inline, so
 * the strict Content-Security-Policy (headers.ts) holds on every page.
 */
import type { Rendered } from '../format/index.js'
import { dataAttributes, html, type Markup } from './markup.js'

export type NavItem = 'run' | 'sql' | 'new' | 'ls' | 'upload' | 'admin'

const NAV: readonly { readonly id: NavItem; readonly label: string; readonly path?: string }[] = [
  { id: 'run', label: 'Macro query' },
  { id: 'sql', label: 'SQL' },
  { id: 'new', label: 'New instance' },
  { id: 'ls', label: 'Folders' },
  // Every user may upload (into uploads.<uid> at least), keep groups and change their password:
  // the administration pages show each user only what the API lets them do (admin-pages.ts).
  { id: 'upload', label: 'Upload', path: 'dbm/upload' },
  { id: 'admin', label: 'Admin', path: 'dbm/users' },
]

export interface ShellOptions {
  /** The API version of the request; every link stays under it. */
  readonly version: string
  readonly title: string
  /** Who is logged in; null on pages shown without a session (the login page). */
  readonly uid: string | null
  /** The entry highlighted in the navigation. */
  readonly active?: NavItem
  /** The script module under /ui/ that drives the page. */
  readonly script: string
  /** What the script needs to know, as data- attributes of <main>. */
  readonly data?: Readonly<Record<string, string>>
  readonly content: Markup
}

/** The link to a workbench page of this version. */
export const apiHref = (version: string, path: string): string => `/${encodeURIComponent(version)}/api${path === '' ? '' : '/' + path}`

function topNav(version: string, uid: string, active: NavItem | undefined): Markup {
  const links = NAV.map(
    (n) => html`<a id="nav-${n.id}" href="${apiHref(version, n.path ?? n.id)}"${active === n.id ? html` aria-current="page"` : ''}>${n.label}</a>`,
  )
  return html`<header class="top">
<nav id="topnav" aria-label="Workbench">
<a id="nav-home" class="brand" href="${apiHref(version, '')}">tabula</a>
${links}
<span class="spacer"></span>
<span class="who">Logged in as <span id="whoami">${uid}</span></span>
<a id="nav-logout" href="${apiHref(version, '!logout')}" data-logout="${apiHref(version, '!logout:json')}" data-after="${apiHref(version, 'run')}">Log out</a>
</nav>
</header>
`
}

export function workbenchPage(opts: ShellOptions): Rendered {
  const nav = opts.uid === null ? '' : topNav(opts.version, opts.uid, opts.active)
  const body = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title}</title>
<link rel="icon" href="/ui/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/ui/workbench.css">
<script type="module" src="/ui/${opts.script}"></script>
</head>
<body>
${nav}<main id="workbench"${dataAttributes({ version: opts.version, ...opts.data })}>
<h1>${opts.title}</h1>
${opts.content}</main>
</body>
</html>
`
  return { type: 'text/html; charset=utf-8', body: body.text }
}
