// The page's tabs (a spreadsheet, a CRM), as the ARIA tabs pattern has them: one tab in the
// Tab order, arrow keys move between tabs, the panel of the selected one shown. The address
// keeps the choice (/app#crm), so a reload or a link opens the same tab.

export function wireTabs(onSelect: (name: string) => void): void {
  const tabs = [...document.querySelectorAll<HTMLButtonElement>("[role=tab]")];
  const select = (tab: HTMLButtonElement, focus = false) => {
    for (const other of tabs) {
      const chosen = other === tab;
      other.setAttribute("aria-selected", String(chosen));
      other.tabIndex = chosen ? 0 : -1;
      const panel = document.getElementById(other.getAttribute("aria-controls") ?? "");
      if (panel) panel.hidden = !chosen;
    }
    if (focus) tab.focus();
    const name = tab.dataset.tab ?? "";
    const address = name === tabs[0]?.dataset.tab ? location.pathname : `#${name}`;
    if (location.hash.slice(1) !== name) history.replaceState(null, "", address);
    onSelect(name);
  };
  tabs.forEach((tab, index) => {
    tab.addEventListener("click", () => select(tab));
    tab.addEventListener("keydown", (event) => {
      const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
      if (step === 0) return;
      event.preventDefault();
      select(tabs[(index + step + tabs.length) % tabs.length]!, true);
    });
  });
  const fromAddress = () => tabs.find((tab) => `#${tab.dataset.tab}` === location.hash) ?? tabs[0];
  window.addEventListener("hashchange", () => {
    const tab = fromAddress();
    if (tab) select(tab);
  });
  const first = fromAddress();
  if (first) select(first);
}
