// Starts Scalar's API reference on the docs page (scripts/docs/build.ts copies this file
// beside index.html). A file of its own, not inline script: the page's Content-Security-Policy
// allows scripts from the directory only. The document and the configuration are JSON data
// elements of index.html.
(() => {
  var read = (id) => JSON.parse(document.getElementById(id).textContent);
  var configuration = read("scalar-configuration");
  configuration.content = read("openapi-document");
  // The ids Scalar gives the introduction's headings, as its default makes them, but from one
  // function: the default is an arrow function written in Scalar's template, new at each
  // render of the reference, and each new one makes Scalar split and parse the whole
  // introduction again (seconds on a slow phone).
  configuration.generateHeadingSlug = (heading) => configuration.slug + "/description/" + heading.slug;
  window.Scalar.createApiReference("#app", configuration);

  // "Download OpenAPI Document" gives openapi.json, the bundled document as published: Scalar
  // would serialise the document it was handed, which is the page's copy (the changelog in its
  // introduction, Scalar's own navigation and bookkeeping beside it).
  document.addEventListener(
    "click",
    (event) => {
      if (!(event.target instanceof Element) || !event.target.closest(".download-container .download-button")) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      var link = document.createElement("a");
      link.href = "openapi.json";
      link.download = "openapi.json";
      link.click();
    },
    true,
  );

  // Names and keyboard access Scalar 1.72 leaves out (axe-core: button-name, link-name,
  // scrollable-region-focusable), given as Scalar renders: an icon-only copy button is
  // "Copy", an icon-only link is named after where it goes, and a code block that scrolls
  // sideways can be focused to scroll it with the keyboard.
  var name = (root) => {
    root.querySelectorAll("button[aria-controls]:not([aria-label])").forEach((button) => {
      if (!button.innerText.trim()) button.setAttribute("aria-label", "Copy");
    });
    root.querySelectorAll("a[href]:not([aria-label])").forEach((link) => {
      if (!link.innerText.trim() && !link.querySelector("img[alt]")) {
        const href = link.getAttribute("href");
        link.setAttribute("aria-label", href.indexOf("mailto:") === 0 ? "E-mail " + href.slice(7) : href);
      }
    });
    root.querySelectorAll("pre > code:not([tabindex])").forEach((code) => {
      code.setAttribute("tabindex", "0");
    });
  };
  var scheduled = false;
  new MutationObserver(() => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      name(document.body);
      // Scalar has rendered: the shell index.html showed meanwhile goes.
      if (document.getElementById("app").childElementCount) document.getElementById("docs-shell")?.remove();
    });
  }).observe(document.body, { childList: true, subtree: true });
})();
