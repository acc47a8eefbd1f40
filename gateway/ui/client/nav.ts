/**
 * The top navigation, on every workbench page: "Log out" posts to !logout (a link cannot POST)
 * and then opens the workbench, which asks to log in again.
 */
const logout = document.getElementById('nav-logout') as HTMLAnchorElement | null

logout?.addEventListener('click', (ev) => {
  ev.preventDefault()
  const done = () => window.location.assign(logout.dataset.after ?? '/')
  fetch(logout.dataset.logout ?? logout.href, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }).then(done, done)
})

export {}
