// A few DOM helpers, so the views read as what they show.

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element as T;
}

type Child = Node | string | number;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children.map((child) => (typeof child === "number" ? String(child) : child)));
  return element;
}

/** A table with a header row; cells are text, never HTML (they come from the user's file and the API). */
export function fillTable(
  table: HTMLTableElement,
  header: readonly string[],
  rows: readonly (readonly Child[])[],
  caption?: string,
): void {
  table.replaceChildren(
    ...(caption ? [h("caption", { class: "help" }, caption)] : []),
    h("thead", {}, h("tr", {}, ...header.map((name) => h("th", { scope: "col" }, name)))),
    h(
      "tbody",
      {},
      ...rows.map((cells) =>
        h(
          "tr",
          {},
          // data-label: a narrow screen shows a table of class "stack" as one card per row, each cell named.
          ...cells.map((cell, i) =>
            h("td", { "data-label": header[i] ?? "", ...(typeof cell === "number" ? { class: "num" } : {}) }, cell),
          ),
        ),
      ),
    ),
  );
}

/** Offers a file to save, made in the page (a blob: URL, nothing sent anywhere). */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
