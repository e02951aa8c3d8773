// The chooser (docs/choose.md): the GPU's name, Windows and Python in; the reader's answer out.
// Every answer is computed at build time (docs/hooks/guide/recipes.py's table(), written by guide/gpu_pages.py
// into the page's #chooser-data, one per GPU of gpus.yml): this script looks the answer up and renders its nodes.
// It holds no GPU rule: no gfx target, CUDA build or Python version is written here (tests/site/test_chooser.py).
// Reading a name is match.js's (docs/javascripts/gpu/match.js, loaded before this script), on the table the
// build writes beside the scripts (javascripts/gpu/table.json: the guide's GPUs and the vendors' devices).
// The state lives in the URL (?gpu=NAME&win=W&py=P), so an answer can be shared.
// The answer holds an empty <div id="chooser-runs"></div>: the readers' reported runs of that GPU go there (another
// script). It is made anew at each answer, after which #chooser-answer fires "chooser:answer" (detail: gpu,
// win, py, path) for that script to fill it.
(() => {
  const form = document.getElementById("chooser");
  const answer = document.getElementById("chooser-answer");
  const source = document.getElementById("chooser-data");
  if (!form || !answer || !source || !window.guideGpuMatch) return;
  const data = JSON.parse(source.textContent);
  const R = data.text, byName = new Map(data.gpus.map((g) => [g.name, g]));
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => (k in values ? values[k] : "{" + k + "}"));
  const script = document.currentScript;
  const tableUrl = new URL("gpu/table.json", script ? script.src : location.href);
  let table = null;

  // The answer for a typed name: the guide's GPU (name and entry of #chooser-data) and the device it came from.
  function match(name) {
    const a = window.guideGpuMatch.answerFor(name, table);
    const gpu = a.guide ? byName.get(a.guide.name) : null;
    return { status: a.status, gpu, device: a.device, rows: a.rows };
  }
  window.guideChooserMatch = (name) => { // for tests/site/test_chooser.py
    const m = match(name);
    return m.status === "one" ? [m.gpu ? m.gpu.name : null] : m.rows.map((r) => r.name);
  };

  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text) e.textContent = text; if (cls) e.className = cls; return e; };
  // A sentence of the data, with [text](href) links and **bold** in it.
  function sentence(tag, text) {
    const e = el(tag);
    let rest = text;
    for (let m; (m = /\[([^\]]+)\]\(([^)]+)\)|\*\*([^*]+)\*\*/.exec(rest));) {
      e.append(rest.slice(0, m.index));
      if (m[3] !== undefined) e.append(el("strong", m[3]));
      else { const a = el("a", m[1]); a.href = m[2]; e.append(a); }
      rest = rest.slice(m.index + m[0].length);
    }
    e.append(rest);
    return e;
  }
  function code(text, label) {
    const box = el("div", "", "chooser-code");
    if (label) box.append(el("p", label, "chooser-code-label"));
    const pre = el("pre"), c = el("code", text);
    pre.append(c);
    const button = el("button", R.copy); button.type = "button";
    button.addEventListener("click", () => navigator.clipboard.writeText(text).then(() => { button.textContent = R.copied; }));
    box.append(pre, button);
    return box;
  }
  const list = (items) => { const ul = el("ul"); items.forEach((i) => { const li = el("li"); li.append(...i); ul.append(li); }); return ul; };
  function node([kind, a, b]) {
    if (kind === "p") return sentence("p", a);
    if (kind === "note") { const p = sentence("p", a); p.className = "chooser-note"; return p; }
    if (kind === "code") return code(a, b);
    if (kind === "runs") { const d = el("div"); d.id = "chooser-runs"; return d; }
    const details = el("details"); // "details": a summary and its sentences
    details.append(el("summary", a), list(b.map((s) => [...sentence("span", s).childNodes])));
    return details;
  }
  // The answer's nodes; its steps ("step") go into one numbered list, #chooser-recipe.
  function render(ids, into) {
    let ol = null;
    for (const id of ids) {
      const n = data.nodes[id];
      if (n[0] !== "step") { into.append(node(n)); continue; }
      if (!ol) { ol = el("ol", "", "chooser-recipe"); ol.id = "chooser-recipe"; into.append(ol); }
      const li = el("li"); li.append(...n[1].map(node)); ol.append(li);
    }
  }

  const state = () => ({ gpu: form.gpu.value.trim(), win: form.win.value || "11", py: form.py.value });
  const link = (gpu, s) => { const a = el("a", gpu); a.href = "?" + new URLSearchParams({ ...s, gpu }).toString(); return a; };
  const showPaths = (chosen) => document.querySelectorAll(".chooser-path").forEach((p) => { p.hidden = chosen && !chosen.includes(p.dataset.path); });
  // Every later page opens its back-end tabs on this reader's (docs/javascripts/backend_tabs.js). That script
  // may run after this one: it reads guideBackendWanted when it starts.
  const select = (label) => {
    window.guideBackendWanted = label;
    if (typeof window.guideSelectBackend === "function") window.guideSelectBackend(label);
  };

  let last = null;
  function show() {
    if (!table) return;
    const s = state();
    // A change event repeats the last input event (the field loses focus as a link in the answer is
    // clicked): render nothing new, or that link would be replaced under the pointer.
    if (JSON.stringify(s) === last) return;
    last = JSON.stringify(s);
    const params = new URLSearchParams(Object.entries(s).filter(([, v]) => v));
    // The hash stays: a link to one of the page's headings (choose/#zluda) still lands on it (a11y.js).
    history.replaceState(null, "", (params.toString() ? "?" + params : location.pathname) + location.hash);
    answer.replaceChildren();
    if (!s.gpu) return showPaths(null);
    const found = match(s.gpu);
    if (found.status !== "one") {
      answer.append(sentence("p", found.status === "choices" ? R.which : fill(R.none, { name: s.gpu })));
      if (found.status === "choices") answer.append(list(found.rows.map((g) => [link(g.name, s)])));
      return showPaths(null);
    }
    const gpu = found.gpu;
    if (!gpu) {
      answer.append(sentence("p", fill(R.nopath, { name: found.device.name, target: found.device.target })));
      return showPaths(null);
    }
    if (found.device) {
      // The device table joined it to this guide GPU by its gfx target, compute capability or (Intel) family.
      const target = found.device.target || "", basis = R.basis[target.startsWith("gfx") ? "gfx" : target.startsWith("sm_") ? "sm" : "family"];
      answer.append(sentence("p", fill(R.like, { name: found.device.name, target, like: gpu.name, basis })));
    }
    if (gpu.ask) {
      render(gpu.ask, answer);
      answer.append(list(gpu.choices.map(([target, label]) => [link(target, s), " \u2014 " + label])), sentence("p", R.how));
      return showPaths(null);
    }
    const [path, fallback] = gpu.paths[s.win];
    render(gpu.answers[s.win][s.py], answer);
    select(gpu.tab[s.win]);
    showPaths(fallback !== path ? [fallback] : []);
    // The hook for the readers' reported runs: #chooser-runs is new at each answer; this event says which.
    answer.dispatchEvent(new CustomEvent("chooser:answer", { bubbles: true, detail: { gpu: gpu.name, win: s.win, py: s.py, path } }));
  }

  const url = new URLSearchParams(location.search);
  form.gpu.value = url.get("gpu") || "";
  if ([...form.win].some((o) => o.value === url.get("win"))) form.win.value = url.get("win");
  if ([...form.py.options].some((o) => o.value === url.get("py"))) form.py.value = url.get("py");
  form.addEventListener("submit", (e) => e.preventDefault());
  form.addEventListener("input", show);
  form.addEventListener("change", show);
  fetch(tableUrl).then((r) => r.json()).then((t) => { table = t; window.guideChooserReady = true; show(); });
})();
