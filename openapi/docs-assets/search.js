// Ctrl+K search over the words of the guides (scripts/docs/build.ts copies this file beside
// index.html). Scalar 1.72 indexes the introduction's sections by their headings only (its
// search index gives a heading an empty body, and no option changes that), so a word found
// only in a section's text, "backoff" in Retries and idempotency, found nothing. This adds,
// under Scalar's own results in its search dialog, the sections whose rendered text holds
// every word typed, each a link to the section (#description/…) with the words in context.
// The text is read from the page as Scalar rendered it: no second copy of the guides.
(() => {
  const slug = JSON.parse(document.getElementById("scalar-configuration").textContent).slug;
  const prefix = slug + "/description/";
  const label = "Found in the guides' text";
  const limit = 8;

  // The introduction's sections in page order: Scalar renders each heading as a part of its
  // own (with the heading's id) followed by the part holding the section's text.
  let cached = null;
  const sections = () => {
    const container = document.querySelector(".introduction-description");
    if (!container) return [];
    if (cached && cached.container === container) return cached.list;
    const list = [{ route: "description/introduction", title: "Introduction", text: "" }];
    let parent = "";
    for (const part of container.children) {
      if (part.id && part.id.indexOf(prefix) === 0) {
        // A sub-section (a release of the changelog, a part of Limits) is named with its section.
        let title = part.textContent.trim();
        if (part.querySelector("h1, h2")) parent = title;
        else if (parent) title = parent + " › " + title;
        list.push({ route: part.id.slice(slug.length + 1), title: title, text: "" });
      } else list[list.length - 1].text += " " + part.textContent;
    }
    list.forEach((section) => {
      section.text = section.text.replace(/\s+/g, " ").trim();
    });
    cached = { container: container, list: list };
    return list;
  };

  /** The sections holding every word of the query (two letters or more), minus those Scalar already lists. */
  const find = (query) => {
    const words = query
      .toLowerCase()
      .split(/\s+/)
      .filter((word) => word.length > 1);
    if (!words.length) return { words: words, hits: [] };
    const hits = sections().filter((section) => {
      const text = (section.title + " " + section.text).toLowerCase();
      return words.every((word) => text.indexOf(word) >= 0) && !document.getElementById("search-result-" + slug + "/" + section.route);
    });
    return { words: words, hits: hits.slice(0, limit) };
  };

  /** A line of the section's text around the first word found, that word marked. */
  const snippet = (text, words) => {
    const lower = text.toLowerCase();
    const word = words.find((w) => lower.indexOf(w) >= 0);
    const line = document.createElement("span");
    line.className = "docs-text-hit-snippet";
    if (!word) return line;
    const at = lower.indexOf(word);
    const start = Math.max(0, text.lastIndexOf(" ", Math.max(0, at - 40)) + 1);
    let end = text.indexOf(" ", Math.min(text.length, at + word.length + 70));
    if (end < 0) end = text.length;
    const mark = document.createElement("mark");
    mark.textContent = text.slice(at, at + word.length);
    line.append((start > 0 ? "…" : "") + text.slice(start, at), mark, text.slice(at + word.length, end) + (end < text.length ? "…" : ""));
    return line;
  };

  const render = (input) => {
    const listbox = document.getElementById(input.getAttribute("aria-controls"));
    if (!listbox) return;
    let group = listbox.parentElement.querySelector(".docs-text-hits");
    if (!group) {
      group = document.createElement("div");
      group.className = "docs-text-hits";
      group.setAttribute("role", "group");
      group.setAttribute("aria-label", label);
      listbox.after(group);
    }
    const found = find(input.value);
    group.replaceChildren();
    group.hidden = !found.hits.length;
    if (!found.hits.length) return;
    const heading = document.createElement("p");
    heading.textContent = label;
    group.append(heading);
    for (const hit of found.hits) {
      const link = document.createElement("a");
      link.href = "#" + hit.route;
      const title = document.createElement("span");
      title.className = "docs-text-hit-title";
      title.textContent = hit.title;
      link.append(title, snippet(hit.text, found.words));
      // The link changes the hash (Scalar scrolls to the section); Escape closes Scalar's dialog.
      link.addEventListener("click", () => setTimeout(() => window.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true })), 0));
      group.append(link);
    }
  };

  // After Scalar has updated its own results for the same input (it renders on a microtask).
  document.addEventListener(
    "input",
    (event) => {
      const input = event.target;
      if (input instanceof HTMLInputElement && input.type === "search" && input.closest('[role="dialog"]')) setTimeout(() => render(input), 0);
    },
    true,
  );
})();
