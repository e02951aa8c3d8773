// The readers' runs of the chosen GPU, in the chooser's answer (docs/choose.md): the chooser leaves an empty
// <div id="chooser-runs"> in #chooser-answer for each answer it gives; this script fills it from assets/runs.json,
// which the build writes from docs/hooks/data/runs/*.json (docs/hooks/guide/runs.py). Every page loads it; on a
// page without the chooser it stops at once, and only the chooser's page fetches the runs.
// The chosen GPU: the element's data-gpu when the chooser sets it, else the answer's title (the GPU's name in
// the table, in <strong>), else the URL's ?gpu= (the state the chooser writes). Report strings are set as text.
(() => {
  const answer = document.getElementById("chooser-answer");
  const script = document.currentScript;
  if (!answer || !script) return;
  const zh = document.documentElement.lang.startsWith("zh");
  const runsPage = new URL(zh ? "../zh/runs/" : "../runs/", script.src).href;
  const T = zh ? {
    title: "读者在这块显卡上的运行结果", none: "还没有人报告运行结果。", first: "第一份报告由这条命令生成：",
    then: "然后把 run-report.json 提交到本指南的仓库（", page: "真实硬件上的运行结果", end: "）。", all: "全部运行结果",
    passed: "训练检查通过", failed: "训练检查未通过", seeded: "维护者提供的种子数据", epoch: " 秒/轮，准确率 ",
  } : {
    title: "Readers' runs of this GPU", none: "No run reported yet.", first: "The one command that makes the first: ",
    then: "then send run-report.json (", page: "Runs on real hardware", end: ").", all: "Every run",
    passed: "training check passed", failed: "training check failed", seeded: "seeded by the maintainers",
    epoch: " s/epoch, accuracy ",
  };
  const el = (tag, text) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; return e; };
  let data = null;
  const load = () => (data = data || fetch(new URL("../assets/runs.json", script.src)).then((r) => r.json()));

  function chosen(box) {
    if (box.dataset.gpu) return box.dataset.gpu;
    const title = answer.querySelector(":scope > p > strong");
    return title ? title.textContent : new URLSearchParams(location.search).get("gpu") || "";
  }

  function line(run) {
    const li = el("li");
    const backend = run.backend + (run.backend_version ? " " + run.backend_version : "");
    li.append(el("strong", run.gpu), ", " + backend + ", torch " + run.torch + ", " + run.os + ": ");
    li.append((run.passed ? T.passed : T.failed) + ", " + run.seconds_per_epoch.toFixed(1) + T.epoch
      + run.accuracy.toFixed(4) + " (" + run.date + ", ");
    if (run.issue === null) li.append(T.seeded);
    else if (run.url) { const a = el("a", "issue #" + run.issue); a.href = run.url; li.append(a); }
    else li.append("issue #" + run.issue);
    li.append(")");
    return li;
  }

  function fill(box, runs, command) {
    // The answer names a row of the table; the build matched each run's GPU to its row (guide/runs.py).
    const name = chosen(box);
    const mine = runs.filter((r) => r.table_gpu === name);
    box.replaceChildren(el("p")); box.firstChild.append(el("strong", T.title));
    const link = el("a", mine.length ? T.all : T.page); link.href = runsPage;
    if (mine.length) {
      const ul = el("ul"); mine.forEach((r) => ul.append(line(r)));
      const p = el("p"); p.append(link);
      box.append(ul, p);
    } else {
      const p = el("p", T.none + (T.none.endsWith("。") ? "" : " ") + T.first), code = el("code", command), then = el("p", T.then);
      p.append(code); then.append(link, T.end);
      box.append(p, then);
    }
    box.dataset.filled = name;
  }

  function update() {
    const box = document.getElementById("chooser-runs");
    if (!box || box.dataset.filled === chosen(box)) return;
    box.dataset.filled = chosen(box);  // once per answer, while the data loads
    load().then((d) => fill(box, d.runs, d.command)).catch(() => { box.dataset.filled = ""; });
  }

  new MutationObserver(update).observe(answer, { childList: true, subtree: true });
  update();
})();
