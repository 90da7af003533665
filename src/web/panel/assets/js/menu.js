/**
 * Issue 33 item 7: on a narrow screen the pages, the language switch and sign-out fold behind the
 * menu button (panel.css shows it below 760 px). The button shows whenever the navigation does
 * (signed in); it says whether the menu is open (`aria-expanded`), a page chosen closes it, and
 * Escape closes it and gives the focus back to the button.
 */
export function setUpMenu() {
  const button = document.getElementById('menu-button');
  const nav = document.getElementById('nav');
  const bar = button?.closest('.topbar');
  if (!button || !nav || !(bar instanceof HTMLElement)) return;
  /** @param {boolean} on */
  const open = (on) => {
    bar.classList.toggle('menu-open', on);
    button.setAttribute('aria-expanded', String(on));
  };
  const sync = () => {
    button.hidden = nav.hidden;
    bar.classList.toggle('has-menu', !nav.hidden);
    if (nav.hidden) open(false);
  };
  new MutationObserver(sync).observe(nav, { attributes: true, attributeFilter: ['hidden'] });
  sync();
  button.addEventListener('click', () => open(button.getAttribute('aria-expanded') !== 'true'));
  nav.addEventListener('click', (e) => {
    if (e.target instanceof Element && e.target.closest('a')) open(false);
  });
  bar.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || !bar.classList.contains('menu-open')) return;
    open(false);
    button.focus();
  });
}
