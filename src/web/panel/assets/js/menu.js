/**
 * Issue 33 item 7: when the bar's items do not all fit on one line (a phone, a narrow window, a
 * language with longer words) the pages, the language switch and sign-out fold behind the menu
 * button (`.folded`, panel.css). The button shows whenever the navigation does (signed in); it
 * says whether the menu is open (`aria-expanded`), a page chosen closes it, and Escape closes it
 * and gives the focus back to the button.
 */
/** The fewest pixels left to the pages before they fold behind the menu button. */
const MIN_NAV = 280;

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
  // Laid out unfolded first (in the same frame, so nothing flickers): folded when the rest spills
  // out of the bar or leaves the pages, which scroll within it, too little room to be of use.
  const fold = () => {
    bar.classList.remove('folded');
    const squeezed = nav.clientWidth < Math.min(MIN_NAV, nav.scrollWidth);
    const spills = !nav.hidden && (bar.scrollWidth > bar.clientWidth + 1 || squeezed);
    bar.classList.toggle('folded', spills);
    if (!spills) open(false);
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
