/**
 * Issue 33 item 7: when the pages do not fit on one line beside the rest of the bar, they take a
 * second row (`.two-rows`, panel.css); when they do not fit even there (a phone, a narrow window,
 * a language with longer words) the pages, the language switch and sign-out fold behind the menu
 * button (`.folded`). The button shows whenever the navigation does (signed in); it
 * says whether the menu is open (`aria-expanded`), a page chosen closes it, and Escape closes it
 * and gives the focus back to the button.
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
  // Laid out on one line first (in the same frame, so nothing flickers). Where the pages do not
  // all fit beside the rest, they take a second row of the bar to themselves; where they do not
  // fit even there, they fold behind the menu button. Either way no page is cut off.
  const fits = () => nav.scrollWidth <= nav.clientWidth + 1 && bar.scrollWidth <= bar.clientWidth + 1;
  const fold = () => {
    bar.classList.remove('folded', 'two-rows');
    if (!nav.hidden && !fits()) {
      bar.classList.add('two-rows');
      if (!fits()) bar.classList.replace('two-rows', 'folded');
    }
    if (!bar.classList.contains('folded')) open(false);
    // Sticky page heads sit below the bar, however tall it is now.
    document.documentElement.style.setProperty('--topbar-height', `${bar.offsetHeight}px`);
  };
  const sync = () => {
    button.hidden = nav.hidden;
    bar.classList.toggle('has-menu', !nav.hidden);
    if (nav.hidden) open(false);
    fold();
  };
  new MutationObserver(sync).observe(nav, { attributes: true, attributeFilter: ['hidden'] });
  // The words change with the language, and the room with the window.
  new MutationObserver(fold).observe(bar, { subtree: true, childList: true, characterData: true });
  window.addEventListener('resize', fold);
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
