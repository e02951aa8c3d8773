// The chooser (docs/choose.md): the GPU's name, Windows and Python in; the reader's own recipe out, at the
// answer: the driver, Python and the environment, the install command built for this GPU, the scripts,
// the doctor, the training check and the training, and where to look when it fails.
// Its data is the page's #chooser-data, rendered at build time from docs/hooks/data/gpus.yml and
// vendor_index.yml (docs/hooks/guide/gpu_pages.py, guide/recipes.py: the same rules, which
// tests/guide/test_recipes.py checks over every GPU, and tests/site/test_readers.py checks here).
// The state lives in the URL (?gpu=NAME&win=11&py=3.12), so an answer can be shared.
// The answer holds an empty <div id="chooser-runs">: the readers' reported runs of that GPU go there (another
// script). It is made anew at each answer, after which #chooser-answer fires "chooser:answer" (detail: gpu,
// win, py, path) for that script to fill it.
(() => {
  const form = document.getElementById("chooser");
  const answer = document.getElementById("chooser-answer");
  const source = document.getElementById("chooser-data");
  if (!form || !answer || !source) return;
  const data = JSON.parse(source.textContent);
  const R = data.text, L = data.links;
  const zh = document.documentElement.lang.startsWith("zh");
  const T = zh ? {
    none: "表中没有与此匹配的显卡：", find: "用本指南的 doctor.py 或 dxdiag 查看 Windows 显示的名称，或在下面的“全部显卡”里找。",
    which: "是哪一块？",
    how: "不知道？任务管理器的“性能”页或 dxdiag 会显示型号；本指南的 doctor.py 会打印带显卡名称的链接。",
    path: "Windows {w} 上的路线：", fallback: "不行时：", same: "没有别的 GPU 后端。", stop: "。", colon: "：",
    comma: "，", open: "（", close: "）",
    py: "{b} 需要 Python {a} – {z}；你的是 {p}：装一个 {v} 与之并存即可。", facts: "此显卡的各后端",
  } : {
    none: "No GPU of the table matches ", find: "See the name Windows gives it with this guide's doctor.py or dxdiag, or look it up under Every GPU below.",
    which: "Which one is it?",
    how: "Not sure? Task Manager's Performance tab or dxdiag names it; this guide's doctor.py prints a link with the GPU's name.",
    path: "Your path on Windows {w}: ", fallback: "If it fails: ", same: "No other GPU back-end.", stop: ". ", colon: ":",
    comma: ", ", open: " (", close: ")",
    py: "{b} needs Python {a} – {z}; yours is {p}: install {v} beside it.", facts: "This GPU's back-ends",
  };
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => (k in values ? values[k] : "{" + k + "}"));
  const words = (s) => s.toLowerCase().replace(/\((tm|r)\)|[\u2122\u00ae]/g, " ").replace(/[^a-z0-9]+/g, " ").split(" ").filter(Boolean);
  const normalize = (s) => words(s).filter((w) => !["amd", "radeon", "rx"].includes(w)).map((w) => w.replace(/^rx(?=[0-9])/, "")).join("");
  const MARKS = [["intel", ["intel", "arc", "iris", "uhd"]], ["nvidia", ["nvidia", "geforce", "quadro"]],
    ["qualcomm", ["qualcomm", "adreno"]], ["amd", ["amd", "radeon"]], ["microsoft", ["microsoft"]]];
  const vendorOf = (s) => { const w = words(s); const hit = MARKS.find(([, m]) => m.some((x) => w.includes(x))); return hit && hit[0]; };
  // The same rule as guide/gpus.py's match(): exact key, else the longest key the name contains, else prefixes.
  function match(name) {
    const key = normalize(name);
    if (!key) return [];
    const exact = data.gpus.filter((g) => g.keys.includes(key));
    if (exact.length) return exact;
    const vendor = vendorOf(name);
    const pool = data.gpus.filter((g) => !vendor || g.vendor === vendor);
    let best = 0, found = [];
    for (const g of pool) for (const k of g.keys) {
      if (k.length < 3 || !key.includes(k) || k.length < best) continue;
      if (k.length > best) { best = k.length; found = []; }
      if (!found.includes(g)) found.push(g);
    }
    if (found.length) return found;
    return key.length < 3 ? [] : pool.filter((g) => g.keys.some((k) => k.startsWith(key)));
  }
  // The same rule as guide/recipes.py's python_for(): the reader's Python where the path has wheels for it.
  const minor = (v) => Number(v.split(".")[1]);
  function pythonFor(backend, wanted) {
    const [low, high] = data.backends[backend].python || ["3.10", "3.14"];
    const inside = (v) => minor(low) <= minor(v) && minor(v) <= minor(high);
    if (wanted && inside(wanted)) return [wanted, true];
    return [inside(data.guide_python) ? data.guide_python : high, false];
  }

  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text) e.textContent = text; if (cls) e.className = cls; return e; };
  // A sentence with [text](href) links in it, as built from the page's data.
  function sentence(tag, text, onclick) {
    const e = el(tag);
    let rest = text;
    for (let m; (m = /\[([^\]]+)\]\(([^)]+)\)/.exec(rest));) {
      e.append(rest.slice(0, m.index));
      const a = el("a", m[1]); a.href = m[2]; if (onclick) a.addEventListener("click", onclick);
      e.append(a);
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
  const state = () => ({ gpu: form.gpu.value.trim(), win: form.win.value || "11", py: form.py.value });
  const link = (gpu, s) => { const a = el("a", gpu); a.href = "?" + new URLSearchParams({ ...s, gpu }).toString(); return a; };
  const showPaths = (chosen) => document.querySelectorAll(".chooser-path").forEach((p) => { p.hidden = chosen && !chosen.includes(p.dataset.path); });
  const list = (items) => { const ul = el("ul"); items.forEach((i) => { const li = el("li"); li.append(...i); ul.append(li); }); return ul; };
  const select = (backend) => { if (typeof window.guideSelectBackend === "function") window.guideSelectBackend(data.tabs[backend]); };

  function recipe(gpu, s, path) {
    const ol = el("ol", "", "chooser-recipe"); ol.id = "chooser-recipe";
    const step = (...children) => { const li = el("li"); li.append(...children); ol.append(li); return li; };
    const key = gpu.install[path], install = data.installs[key];
    // 1. The driver: the vendor's page, and the minimum version where a source names one.
    const vendor = path === "cpu" ? "microsoft" : gpu.vendor;
    const driver = data.drivers[install && install.build ? "nvidia:" + install.build : vendor] || data.drivers.microsoft;
    step(sentence("p", fill(R.driver, { driver: "[" + driver.label + "](" + driver.url + ")" })
      + T.open + (driver.min ? fill(R.min, { min: driver.min }) + (driver.quoted ? fill(R.min_quoted, { source: driver.source }) : "")
        : R.min_none) + T.close + T.stop.trim()));
    // 2. Python and the environment.
    const [python, own] = pythonFor(path, s.py);
    const range = data.backends[path].python || ["3.10", "3.14"];
    const text = own ? fill(R.python_own, { p: python })
      : s.py ? fill(R.python_other, { b: data.backends[path].label, a: range[0], z: range[1], p: s.py, v: python, how: L.how })
        : fill(R.python_none, { v: python, how: L.how });
    step(sentence("p", text + T.colon),
      code(`py -${python} -m venv .venv\n.venv\\Scripts\\Activate.ps1`, R.ps),
      code(`py -${python} -m venv .venv\n.venv\\Scripts\\activate.bat`, R.cmd),
      sentence("p", fill(R.policy, { policy: L.policy })));
    // 3. The install command built for this GPU; in the Chinese edition, its mirror form (or why there is none).
    const three = step(el("p", R.install + (install.what ? T.open + install.what + T.close : "") + T.colon), code(install.cmd));
    if (install.note) three.append(el("p", install.note, "chooser-note"));
    if (zh) {
      if (install.mirror) three.append(sentence("p", fill(R.mirror, { china: L.china })), code(install.mirror));
      else three.append(sentence("p", fill(R.no_mirror, { china: L.china })));
    }
    // 4. The scripts; 5. doctor, training check, training; 6. the path's troubleshooting group.
    step(sentence("p", fill(R.scripts, { zip: "guide-scripts.zip", zip_href: L.zip, step5: L.step5 })));
    const checks = el("p");
    [["doctor", L.doctor], ["training_check", L.training_check], ["training", L.training]].forEach(([k, href], i) => {
      const a = el("a", R[k]); a.href = href; a.addEventListener("click", () => select(path));
      if (i) checks.append(" \u00b7 ");
      checks.append(a);
    });
    step(el("p", R.checks), code(data.checks.join("\n")), checks);
    step(sentence("p", fill(R.trouble, { b: data.backends[path].label, href: L.trouble[path] }), () => select(path)));
    return ol;
  }

  let last = null;
  function render() {
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
      answer.append(el("p", found.length ? T.which : T.none + "\u201c" + s.gpu + "\u201d" + T.stop + T.find));
      if (found.length) answer.append(list(found.map((g) => [link(g.name, s)])));
      return showPaths(null);
    }
    const gpu = found[0];
    const title = el("p"); title.append(el("strong", gpu.name), " \u2014 " + gpu.family + (gpu.gfx ? T.comma + gpu.gfx : ""));
    answer.append(title);
    if (gpu.choices.length) {
      answer.append(el("p", gpu.question), list(gpu.choices.map(([label, target]) => [link(target, s), " \u2014 " + label])), el("p", T.how));
      return showPaths(null);
    }
    const path = gpu.path[s.win], fallback = gpu.fallback[s.win], backend = data.backends[path];
    const p = el("p"); p.append(fill(T.path, { w: s.win }), el("strong", backend.label), T.stop);
    p.append(fallback === path ? T.same : T.fallback + data.backends[fallback].label + T.stop.trim());
    answer.append(p);
    if (s.win === "10") answer.append(sentence("p", R.win10));
    answer.append(recipe(gpu, s, path));
    if (fallback !== path) {
      const fb = sentence("p", fill(R.fallback, { b: backend.label, f: data.backends[fallback].label, fb: fallback }));
      const range = data.backends[fallback].python;
      if (range && s.py && (minor(s.py) < minor(range[0]) || minor(range[1]) < minor(s.py))) {
        fb.append(" " + fill(T.py, { b: data.backends[fallback].label, a: range[0], z: range[1], p: s.py, v: range[1] }));
      }
      answer.append(fb);
    }
    answer.append(sentence("p", fill(R.setup, { href: L.setup }), () => select(path)));
    const runs = el("div"); runs.id = "chooser-runs";
    answer.append(runs);
    if (gpu.support.length) {
      const details = el("details"); details.append(el("summary", T.facts));
      details.append(list(gpu.support.map(([b, status, url, note]) => {
        const a = el("a", status); a.href = url;
        return [data.backends[b].label + (zh ? "\uff1a" : ": "), a, note ? T.open + note + T.close : ""];
      })));
      answer.append(details);
    }
    // Every later page opens its back-end tabs on this reader's (docs/javascripts/backend_tabs.js).
    select(path);
    showPaths(fallback !== path ? [fallback] : []);
    // The hook for the readers' reported runs: #chooser-runs is new at each answer; this event says which.
    answer.dispatchEvent(new CustomEvent("chooser:answer", { bubbles: true, detail: { gpu: gpu.name, win: s.win, py: s.py, path } }));
  }

  const url = new URLSearchParams(location.search);
  form.gpu.value = url.get("gpu") || "";
  if (["10", "11"].includes(url.get("win"))) form.win.value = url.get("win");
  if ([...form.py.options].some((o) => o.value === url.get("py"))) form.py.value = url.get("py");
  form.addEventListener("submit", (e) => e.preventDefault());
  form.addEventListener("input", render);
  form.addEventListener("change", render);
  render();
})();
