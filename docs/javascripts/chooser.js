// The chooser (docs/choose.md): the GPU's name, Windows and Python in; the reader's answer out.
// Every answer is computed at build time (docs/hooks/guide/recipes.py's table(), written by guide/gpu_pages.py
// into the page's #chooser-data): this script reads the typed name, looks the answer up and renders its nodes.
// It holds no GPU rule: no gfx target, CUDA build or Python version is written here (tests/site/test_chooser.py).
// Reading a name: the table's names as tokens (words and numbers), compared as guide/gpus.py's match() does;
// tests/site/test_chooser.py runs both on every name of the table and its variants.
// The state lives in the URL (?gpu=NAME&win=W&py=P), so an answer can be shared.
// The answer holds an empty <div id="chooser-runs">: the readers' reported runs of that GPU go there (another
// script). It is made anew at each answer, after which #chooser-answer fires "chooser:answer" (detail: gpu,
// win, py, path) for that script to fill it.
(() => {
  const form = document.getElementById("chooser");
  const answer = document.getElementById("chooser-answer");
  const source = document.getElementById("chooser-data");
  if (!form || !answer || !source) return;
  const data = JSON.parse(source.textContent);
  const R = data.text, M = data.match;
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => (k in values ? values[k] : "{" + k + "}"));

  // The name as tokens: lower case, the trademark signs and the dropped words aside, numbers apart from letters.
  const signs = new RegExp(M.signs, "gi");
  const clean = (s) => s.toLowerCase().replace(signs, " ");
  const tokens = (s) => (clean(s).match(/[a-z]+|[0-9]+/g) || []).filter((w) => !M.dropped.includes(w));
  const vendorOf = (s) => {
    const words = clean(s).match(/[a-z]+/g) || [];
    const hit = M.marks.find(([, marks]) => marks.some((m) => words.includes(m)));
    return hit && hit[0];
  };
  // A key as a run of whole tokens of the typed name; a series row's last number may start a longer one.
  function inside(key, typed, series) {
    const n = key.length, last = key[n - 1];
    for (let i = 0; i + n <= typed.length; i++) {
      const run = typed.slice(i, i + n), end = run[n - 1];
      if (!run.slice(0, -1).every((w, j) => w === key[j])) continue;
      if (end === last || (series && /^[0-9]+$/.test(last) && /^[0-9]+$/.test(end) && end.startsWith(last))) return true;
    }
    return false;
  }
  function match(name) {
    const typed = tokens(name), key = typed.join("");
    if (!key) return [];
    const exact = data.gpus.filter((g) => g.keys.some((k) => k.join("") === key));
    if (exact.length) return exact;
    const vendor = vendorOf(name);
    const pool = data.gpus.filter((g) => !vendor || g.vendor === vendor);
    let best = 0, found = [];
    for (const g of pool) {
      if (g.ask) continue;
      for (const k of g.keys) {
        const n = k.join("").length;
        if (n < 3 || n < best || !inside(k, typed, g.series)) continue;
        if (n > best) { best = n; found = []; }
        if (!found.includes(g)) found.push(g);
      }
    }
    if (found.length) return found;
    return key.length < 3 ? [] : pool.filter((g) => g.keys.some((k) => k.join("").startsWith(key)));
  }
  window.guideChooserMatch = (name) => match(name).map((g) => g.name); // for tests/site/test_chooser.py

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
    if (found.length !== 1) {
      answer.append(sentence("p", found.length ? R.which : fill(R.none, { name: s.gpu })));
      if (found.length) answer.append(list(found.map((g) => [link(g.name, s)])));
      return showPaths(null);
    }
    const gpu = found[0];
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
  show();
})();
