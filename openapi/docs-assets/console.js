// The try-it console, loaded by docs.js when a reader presses "Try it" (console-data.js,
// written by the build, holds each operation's method, path, security headers, parameters and
// request examples, and the servers). Each operation's console sends the credentials of its
// own security scheme: `Authorization: Bearer` on most, `X-Api-Key` and `X-Api-Secret` on
// POST /notifications. On a local server they start as the demo application's keys; on
// production the fields start empty, their placeholders naming what goes in. Credentials stay
// in the page's memory: nothing is written to storage, the URL or a cookie. A request goes to
// the chosen server only; a redirect is not followed (it could carry the keys elsewhere).
(() => {
  const data = window.docsConsoleData;
  const placeholders = { apiKey: "YOUR_API_KEY", apiSecret: "YOUR_API_SECRET" };
  const timeoutMs = 30_000;
  const shownBytes = 200_000;
  const open = new Map();

  const element = (tag, attributes = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (name === "text") node.textContent = value;
      else if (value !== undefined && value !== false) node.setAttribute(name, value === true ? "" : value);
    }
    node.append(...children);
    return node;
  };
  const field = (id, label, control) => element("div", { class: "console-field" }, element("label", { for: id, text: label }), control);
  const serverOf = (url) => data.servers.find((server) => server.url === url) ?? data.servers[0];
  const credentialValue = (server, credential) => (server.demo ? server.credentials[credential] : "");
  const headerLabel = (security) =>
    security.header === "Authorization" ? "Authorization: Bearer (API key)" : `${security.header} (${security.credential === "apiSecret" ? "API secret" : "API key"})`;
  const credentialNote = (server) =>
    server.demo ? "Preset: the demo application's keys, which this local server knows." : "Fill in your application's keys. They stay in this page's memory only.";

  function build(panel) {
    const id = panel.dataset.operation;
    const operation = data.operations[id];
    const prefix = `console-${id}`;
    const server = serverOf(window.docsState.server);
    const form = element("form", { class: "console", "aria-label": `Console: ${operation.method} ${operation.path}`, novalidate: true });

    const serverSelect = element(
      "select",
      { id: `${prefix}-server` },
      ...data.servers.map((s) => element("option", { value: s.url, text: `${s.description} (${s.url})` })),
    );
    serverSelect.value = server.url;
    form.append(element("h4", { text: `${operation.method} ${operation.path}` }), field(`${prefix}-server`, "Server", serverSelect));

    form.append(element("h4", { text: "Credentials" }));
    const note = element("p", { class: "console-note", text: credentialNote(server) });
    const credentials = operation.security.map((security, i) => {
      const input = element("input", {
        id: `${prefix}-credential-${i}`,
        type: "text",
        autocomplete: "off",
        spellcheck: "false",
        placeholder: placeholders[security.credential],
        value: credentialValue(server, security.credential),
      });
      form.append(field(input.id, headerLabel(security), input));
      return { security, input };
    });
    form.append(note);

    const parameters = operation.parameters.map((parameter, i) => {
      const input = element("input", { id: `${prefix}-parameter-${i}`, type: "text", value: parameter.value, required: parameter.required });
      return { parameter, input };
    });
    if (parameters.length) {
      form.append(element("h4", { text: "Parameters" }));
      for (const { parameter, input } of parameters) form.append(field(input.id, `${parameter.name} (${parameter.in}${parameter.required ? ", required" : ""})`, input));
    }

    let body;
    if (operation.examples.length) {
      const picker = panel.querySelector("[data-example-picker]");
      const example = operation.examples.find((e) => e.key === picker?.value) ?? operation.examples[0];
      body = element("textarea", { id: `${prefix}-body`, spellcheck: "false" });
      body.value = JSON.stringify(example.value, null, 2);
      form.append(element("h4", { text: "Body" }), field(body.id, "JSON body (the example chosen above; edit freely)", body));
    }

    const send = element("button", { type: "submit", class: "send", text: `Send ${operation.method} ${operation.path}` });
    const answer = element("div", { class: "console-answer", role: "status", "aria-live": "polite" });
    form.append(send, answer);

    serverSelect.addEventListener("change", () => {
      const picker = document.getElementById("server-picker");
      picker.value = serverSelect.value;
      picker.dispatchEvent(new Event("change", { bubbles: true }));
    });
    const onServer = (event) => {
      const chosen = serverOf(event.detail.server);
      serverSelect.value = chosen.url;
      for (const { security, input } of credentials) input.value = credentialValue(chosen, security.credential);
      note.textContent = credentialNote(chosen);
    };
    const onExample = (event) => {
      if (event.detail.operation !== id || !body) return;
      const example = operation.examples.find((e) => e.key === event.detail.example);
      if (example) body.value = JSON.stringify(example.value, null, 2);
    };
    document.addEventListener("docs:server", onServer);
    document.addEventListener("docs:example", onExample);

    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const base = serverSelect.value;
      let path = operation.path;
      const query = new URLSearchParams();
      for (const { parameter, input } of parameters) {
        if (parameter.in === "path") path = path.replace(`{${parameter.name}}`, encodeURIComponent(input.value));
        else if (parameter.in === "query" && input.value !== "") query.append(parameter.name, input.value);
      }
      const headers = { Accept: "application/json" };
      for (const { security, input } of credentials) headers[security.header] = security.header === "Authorization" ? `Bearer ${input.value}` : input.value;
      if (body) headers["Content-Type"] = "application/json";
      const url = `${base}${path}${query.size ? `?${query}` : ""}`;
      answer.replaceChildren(element("p", { text: `Sending ${operation.method} ${url} …` }));
      send.disabled = true;
      try {
        const response = await fetch(url, {
          method: operation.method,
          headers,
          body: body ? body.value : undefined,
          redirect: "manual",
          credentials: "omit",
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (response.type === "opaqueredirect") throw new Error("the server answered with a redirect, which the console does not follow");
        const text = await response.text();
        let shown = text;
        try {
          shown = JSON.stringify(JSON.parse(text), null, 2);
        } catch {
          // not JSON: shown as it came
        }
        if (shown.length > shownBytes) shown = `${shown.slice(0, shownBytes)}\n… (${shown.length - shownBytes} more characters)`;
        const headerLines = [...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n");
        answer.replaceChildren(
          element(
            "p",
            { class: "console-status" },
            element("span", { class: `status status-${String(response.status)[0]}xx`, text: String(response.status) }),
            ` ${response.statusText || ""}`,
          ),
          element(
            "details",
            {},
            element("summary", { text: "Response headers" }),
            element("pre", { class: "code", tabindex: "0" }, element("code", { text: headerLines })),
          ),
          element("pre", { class: "code", tabindex: "0", "aria-label": "Response body" }, element("code", { text: shown })),
        );
      } catch (error) {
        const reason = error.name === "TimeoutError" ? `no answer within ${timeoutMs / 1000} s` : error.message;
        answer.replaceChildren(
          element("p", {
            class: "console-error",
            text: `The request failed: ${reason}. Is the server running (npx authsvc-api mock), and does it allow this page's origin (CORS)?`,
          }),
        );
      } finally {
        send.disabled = false;
      }
    });
    return { form, detach: () => (document.removeEventListener("docs:server", onServer), document.removeEventListener("docs:example", onExample)) };
  }

  window.docsConsole = {
    toggle(panel, button) {
      const current = open.get(panel);
      if (current) {
        current.detach();
        current.form.remove();
        open.delete(panel);
        button.setAttribute("aria-expanded", "false");
        button.textContent = "Try it";
        return;
      }
      const made = build(panel);
      panel.querySelector(".console-slot").append(made.form);
      open.set(panel, made);
      button.setAttribute("aria-expanded", "true");
      button.textContent = "Close the console";
      made.form.querySelector("select, input, textarea").focus();
    },
  };
})();
