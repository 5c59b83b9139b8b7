// Search, loaded by docs.js on the first press of the Search button, "/" or Ctrl+K:
// search-index.js (written by the build) holds every guide section and subsection with its
// text, and every operation with its method, path, description and field names. An entry
// matches when it holds every word typed; those with the words in their title come first.
// Each hit is a link on the page, shown with the words around the first match marked.
(() => {
  const index = window.docsSearchIndex.map((entry) => ({
    ...entry,
    title_: entry.title.toLowerCase(),
    all: `${entry.title} ${entry.where} ${entry.text}`.toLowerCase(),
  }));
  const limit = 20;

  const dialog = document.createElement("dialog");
  dialog.className = "search-dialog";
  dialog.setAttribute("aria-label", "Search the guides and the reference");
  const input = document.createElement("input");
  input.type = "search";
  input.id = "search-input";
  input.placeholder = "Search: a field, a status, a word of the guides";
  input.setAttribute("aria-label", "Search the guides and the reference");
  input.setAttribute("aria-controls", "search-results");
  input.autocomplete = "off";
  const summary = document.createElement("p");
  summary.className = "console-note";
  summary.setAttribute("role", "status");
  const results = document.createElement("ul");
  results.className = "search-results";
  results.id = "search-results";
  results.setAttribute("aria-label", "Results");
  dialog.append(input, summary, results);
  document.body.append(dialog);

  const words = (query) => query.toLowerCase().split(/\s+/).filter(Boolean);

  /** The text around the first word found, with every word of the query marked. */
  function context(text, terms) {
    const lower = text.toLowerCase();
    const at = Math.min(...terms.map((t) => lower.indexOf(t)).filter((i) => i >= 0));
    if (!Number.isFinite(at)) return document.createTextNode("");
    const start = Math.max(0, at - 60);
    const slice = text.slice(start, at + 100);
    const span = document.createElement("span");
    span.className = "search-context";
    const pattern = new RegExp(`(${terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`, "gi");
    const parts = `${start > 0 ? "…" : ""}${slice}${at + 100 < text.length ? "…" : ""}`.split(pattern);
    for (const part of parts) {
      if (!part) continue;
      if (terms.includes(part.toLowerCase())) {
        const mark = document.createElement("mark");
        mark.textContent = part;
        span.append(mark);
      } else span.append(part);
    }
    return span;
  }

  function search() {
    const terms = words(input.value);
    results.replaceChildren();
    if (!terms.length) {
      summary.textContent = "";
      return;
    }
    const hits = index
      .filter((entry) => terms.every((t) => entry.all.includes(t)))
      .map((entry) => ({ entry, score: terms.filter((t) => entry.title_.includes(t)).length }))
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
    summary.textContent = hits.length ? `${hits.length}${hits.length === limit ? "+" : ""} found` : "Nothing found";
    for (const { entry } of hits) {
      const link = document.createElement("a");
      link.href = entry.href;
      const title = document.createElement("span");
      title.textContent = entry.title;
      const where = document.createElement("span");
      where.className = "search-where";
      where.textContent = entry.where;
      link.append(title, where, context(entry.text, terms));
      const item = document.createElement("li");
      item.append(link);
      results.append(item);
    }
  }

  input.addEventListener("input", search);
  results.addEventListener("click", (event) => {
    if (event.target.closest("a")) dialog.close();
  });
  // Down from the field to the first hit, then up and down between hits.
  dialog.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const links = [...results.querySelectorAll("a")];
    if (!links.length) return;
    const at = links.indexOf(document.activeElement);
    const next = event.key === "ArrowDown" ? Math.min(at + 1, links.length - 1) : at - 1;
    event.preventDefault();
    (next < 0 ? input : links[next]).focus();
  });
  let opener;
  dialog.addEventListener("close", () => opener?.focus({ preventScroll: true }));
  // A click on the backdrop (outside the dialog's box) closes it.
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) dialog.close();
  });

  window.docsSearch = {
    open(from) {
      opener = from;
      if (!dialog.open) dialog.showModal();
      input.focus();
      input.select();
    },
  };
})();
