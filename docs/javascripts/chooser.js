// The chooser (docs/choose.md): the GPU's name, Windows and Python in; its path, fallback and commands out.
// Its data is the page's #chooser-data, rendered at build time from docs/hooks/data/gpus.yml
// (docs/hooks/guide/gpu_pages.py); the commands are the page's own sections, copied from the set-up page.
// The state lives in the URL (?gpu=NAME&win=11&py=3.12), so an answer can be shared.
(() => {
  const form = document.getElementById("chooser");
  const answer = document.getElementById("chooser-answer");
  const source = document.getElementById("chooser-data");
  if (!form || !answer || !source) return;
  const data = JSON.parse(source.textContent);
  const zh = document.documentElement.lang.startsWith("zh");
  const T = zh ? {
    none: "表中没有与此匹配的显卡：", find: "用本指南的 doctor.py 或 dxdiag 查看 Windows 显示的名称，或在下表中找。",
    which: "是哪一块？", cpu: "是哪种处理器？这个名称是所有 Ryzen 核显共用的。",
    how: "不知道？任务管理器的“性能”页或 dxdiag 会显示处理器型号；本指南的 doctor.py 会打印带显卡名称的链接。",
    path: "Windows {w} 上的路线：", fallback: "不行时：", same: "没有别的 GPU 后端。",
    py: "{b} 需要 Python {a} – {z}；你的是 {p}：装一个 {z} 与之并存即可。",
    commands: "命令见下文。", facts: "此显卡的各后端：",
  } : {
    none: "No GPU of the table matches ", find: "See the name Windows gives it with this guide's doctor.py or dxdiag, or look it up in the table below.",
    which: "Which one is it?", cpu: "Which processor is it? Every Ryzen's integrated GPU may have this name.",
    how: "Not sure? Task Manager's Performance tab or dxdiag names the processor; this guide's doctor.py prints a link with the GPU's name.",
    path: "Your path on Windows {w}: ", fallback: "If it fails: ", same: "No other GPU back-end.",
    py: "{b} needs Python {a} – {z}; yours is {p}: install {z} beside it.",
    commands: "The commands are below.", facts: "This GPU's back-ends:",
  };
  const fill = (text, values) => text.replace(/\{(\w)\}/g, (_, k) => values[k]);
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
  const el = (tag, text) => { const e = document.createElement(tag); if (text) e.textContent = text; return e; };
  const state = () => ({ gpu: form.gpu.value.trim(), win: form.win.value || "11", py: form.py.value });
  const link = (gpu, s) => { const a = el("a", gpu); a.href = "?" + new URLSearchParams({ ...s, gpu }).toString(); return a; };
  const showPaths = (chosen) => document.querySelectorAll(".chooser-path").forEach((p) => { p.hidden = chosen && !chosen.includes(p.dataset.path); });
  const list = (items) => { const ul = el("ul"); items.forEach((i) => { const li = el("li"); li.append(...i); ul.append(li); }); return ul; };

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
      answer.append(el("p", found.length ? T.which : T.none + "\u201c" + s.gpu + "\u201d. " + T.find));
      if (found.length) answer.append(list(found.map((g) => [link(g.name, s)])));
      return showPaths(null);
    }
    const gpu = found[0];
    const title = el("p"); title.append(el("strong", gpu.name), " \u2014 " + gpu.family + (gpu.gfx ? ", " + gpu.gfx : ""));
    answer.append(title);
    if (gpu.choices.length) {
      answer.append(el("p", T.cpu), list(gpu.choices.map(([label, target]) => [link(target, s), " \u2014 " + label])), el("p", T.how));
      return showPaths(null);
    }
    const path = gpu.path[s.win], fallback = gpu.fallback[s.win], backend = data.backends[path];
    const p = el("p"); p.append(fill(T.path, { w: s.win }), el("strong", backend.label), ". ");
    p.append(fallback === path ? T.same : T.fallback + data.backends[fallback].label + ". ", " " + T.commands);
    answer.append(p);
    for (const b of [path, fallback]) {
      const range = data.backends[b].python;
      const [a, z] = range || [];
      const older = (x, y) => x.split(".").map(Number)[1] < y.split(".").map(Number)[1];
      if (range && s.py && (older(s.py, a) || older(z, s.py))) {
        answer.append(el("p", fill(T.py, { b: data.backends[b].label, a, z, p: s.py })));
      }
    }
    if (gpu.support.length) {
      answer.append(el("p", T.facts), list(gpu.support.map(([b, status, url, note]) => {
        const a = el("a", status); a.href = url;
        return [data.backends[b].label + ": ", a, note ? " (" + note + ")" : ""];
      })));
    }
    showPaths([path, fallback]);
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
