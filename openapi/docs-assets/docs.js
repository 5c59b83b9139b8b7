// The docs page's one script at load (deferred: the page is readable before it runs). It
// wires what needs a script: the language and example pickers of the samples, the server the
// samples and the console use, copy buttons, the phone menu; and it loads the console
// (console.js), the other servers' samples (samples.js) and search (search.js) only when the
// reader asks for them. Classic scripts, not modules, so the page works opened from disk.
(() => {
  // A link from when the whole reference was one page (index.html#tag/notifications/POST/notifications)
  // opens the page that now has that id: the menu links to every operation and guide.
  const wanted = decodeURIComponent(location.hash.slice(1));
  if (wanted && !document.getElementById(wanted)) {
    const moved = [...document.querySelectorAll("#sidebar a[href*='#']")].find((a) => decodeURIComponent(a.hash.slice(1)) === wanted);
    if (moved && moved.pathname !== location.pathname) {
      location.replace(moved.href);
      return;
    }
  }
  const state = { server: "", language: "curl" };
  window.docsState = state;

  const loaded = new Map();
  /** Loads a script of the site once; resolves when it has run. */
  const load = (src) => {
    if (!loaded.has(src))
      loaded.set(
        src,
        new Promise((resolve, reject) => {
          const script = document.createElement("script");
          script.src = src;
          script.onload = resolve;
          script.onerror = () => reject(new Error(`could not load ${src}`));
          document.head.append(script);
        }),
      );
    return loaded.get(src);
  };
  window.docsLoad = load;

  const panels = [...document.querySelectorAll(".sample-panel")];
  const exampleOf = (panel) => panel.querySelector("[data-example-picker]")?.value ?? "";

  /** Shows, in each panel, the sample of the chosen language and the panel's chosen example. */
  const showSamples = () => {
    for (const panel of panels) {
      const example = exampleOf(panel);
      for (const pre of panel.querySelectorAll("pre.sample")) pre.hidden = !(pre.dataset.language === state.language && pre.dataset.example === example);
      const picker = panel.querySelector("[data-language-picker]");
      if (picker) picker.value = state.language;
    }
  };

  /** Writes every sample for the chosen server (their base URL and credentials differ). */
  const fillSamples = async () => {
    await load("samples.js");
    for (const panel of panels) {
      const samples = window.docsSamples[panel.dataset.operation] ?? [];
      for (const pre of panel.querySelectorAll("pre.sample")) {
        const sample = samples.find((s) => s.server === state.server && s.language === pre.dataset.language && s.example === pre.dataset.example);
        if (sample) pre.querySelector("code").textContent = sample.source.replace(/\n$/, "");
      }
    }
  };

  document.addEventListener("change", (event) => {
    const target = event.target;
    if (target.matches("[data-language-picker]")) {
      state.language = target.value;
      showSamples();
    } else if (target.matches("[data-example-picker]")) {
      showSamples();
      document.dispatchEvent(new CustomEvent("docs:example", { detail: { operation: target.closest(".sample-panel").dataset.operation, example: target.value } }));
    } else if (target.id === "server-picker") {
      state.server = target.value;
      fillSamples().then(() => document.dispatchEvent(new CustomEvent("docs:server", { detail: { server: state.server } })));
    }
  });

  const serverPicker = document.getElementById("server-picker");
  if (serverPicker) {
    state.server = serverPicker.value;
    serverPicker.closest(".server-choice").hidden = false;
  }

  // Copy: the sample shown in a panel, or a block of code of the guides.
  const copyButton = (label, text) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = "Copy";
    button.setAttribute("aria-label", label);
    button.addEventListener("click", async () => {
      await navigator.clipboard?.writeText(text());
      button.textContent = "Copied";
      setTimeout(() => {
        button.textContent = "Copy";
      }, 1500);
    });
    return button;
  };
  for (const panel of panels) {
    const bar = panel.querySelector(".console-bar");
    bar.append(copyButton("Copy the sample", () => panel.querySelector("pre.sample:not([hidden])").textContent));
    const tryIt = bar.querySelector(".try-it");
    tryIt.hidden = false;
    tryIt.addEventListener("click", async () => {
      tryIt.disabled = true;
      try {
        await load("console-data.js");
        await load("console.js");
        window.docsConsole.toggle(panel, tryIt);
      } finally {
        tryIt.disabled = false;
      }
    });
  }

  // The phone menu: the sidebar over the page, closed again by a link or Escape. (Without
  // this script the Menu link jumps to the sidebar, which CSS shows as the link's target.)
  const menu = document.querySelector(".menu-button");
  const sidebar = document.getElementById("sidebar");
  const narrow = matchMedia("(max-width: 900px)");
  const setMenu = (open) => {
    sidebar.classList.toggle("open", open);
    menu.setAttribute("aria-expanded", String(open));
  };
  narrow.addEventListener("change", () => setMenu(false));
  menu.setAttribute("role", "button");
  menu.setAttribute("aria-expanded", "false");
  menu.addEventListener("click", (event) => {
    event.preventDefault();
    setMenu(!sidebar.classList.contains("open"));
  });
  sidebar.addEventListener("click", (event) => {
    if (event.target.closest("a") && narrow.matches) setMenu(false);
  });

  // Search: loaded on the first press of the button, "/" or Ctrl+K.
  const searchButton = document.querySelector(".search-button");
  searchButton.hidden = false;
  const openSearch = async () => {
    await load("search-index.js");
    await load("search.js");
    window.docsSearch.open(searchButton);
  };
  searchButton.addEventListener("click", openSearch);
  document.addEventListener("keydown", (event) => {
    const typing = event.target.closest("input, textarea, select, [contenteditable]");
    if ((event.key === "k" && (event.ctrlKey || event.metaKey)) || (event.key === "/" && !typing)) {
      event.preventDefault();
      openSearch();
    } else if (event.key === "Escape" && sidebar.classList.contains("open")) setMenu(false);
  });
})();
