// The site search's query pipeline (docs/javascripts/search/pipeline.js), stage by stage, with Node's own test
// runner: node --test tests/js/
// The index here is a small stand-in with the site's separator (mkdocs.yml); the rules are the site's own
// (docs/javascripts/search/rules.json).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const fs = require("node:fs");

const root = path.join(__dirname, "..", "..");
const search = require(path.join(root, "docs/javascripts/search/pipeline.js"));
const rules = JSON.parse(fs.readFileSync(path.join(root, "docs/javascripts/search/rules.json"), "utf8"));

const SEPARATOR =
  "[\\s\\u200b\\-_,:!=\\[\\]()\"`/<>\\uff0c\\u3002\\u3001\\uff1b\\uff1a\\uff1f\\uff01\\uff08\\uff09\\u300a\\u300b\\u201c\\u201d\\u2018\\u2019]+|\\.(?!\\d)|&[lg]t;";
const Z = "\u200b"; // Material joins jieba's words with U+200B in the index
const INDEX = {
  config: { separator: SEPARATOR, fields: { title: { boost: 3 } } },
  docs: [
    { location: "troubleshooting/", title: "Troubleshooting", text: "Messages and what they mean." },
    { location: "troubleshooting/#oom", title: "Not enough GPU memory", text: "There is not enough GPU video memory available. Returns zero, or zeros." },
    { location: "troubleshooting/#install", title: "Installing", text: "pip install torch-directml; the install fails with No matching distribution." },
    { location: "setup/", title: "Set-up", text: "Create the environment." },
    { location: "setup/#mirror", title: "A mirror", text: "Use a mirror when downloads time out." },
    { location: "zh/troubleshooting/", title: "故障排除", text: `错误${Z}信息` },
    { location: "zh/troubleshooting/#oom", title: `显存${Z}不足`, text: `显卡${Z}的${Z}显存${Z}不足 ${Z}应用程序${Z}被${Z}阻止 ${Z}应用程序${Z}安装${Z}程序` },
    { location: "zh/setup/#slow", title: "下载太慢", text: `下载太慢${Z}下载` },
    { location: "zh/setup/#mirror", title: "换源", text: `清华源${Z}镜像${Z}安装${Z}太慢 ${Z}网络${Z}访问` },
  ],
};
const en = search.vocabulary(search.thisEdition(INDEX, false, rules), rules);
const zh = search.vocabulary(search.thisEdition(INDEX, true, rules), rules);

function sent(text, vocab = en, chinese = vocab === zh) {
  return search.rewrite(text, vocab, chinese).query;
}

// What lunr reads as an operator in a term the pipeline wrote: a "+" anywhere but the start of a required
// term, a "-" at a term's start or after a character that is not a letter or digit (lunr's lexer reads it as
// "must not" there), ":" "^" "~" "*" "\" '"' anywhere but the pipeline's own "^1" ending and "〇*" ending.
function strayOperators(query) {
  return query.split(" ").filter(Boolean).filter((clause) => {
    const bare = clause.replace(/^\+/, "").replace(/\^1$/, "").replace(/\u3007\*?$/, "");
    return !bare || /[+:^~*\\"]/.test(bare) || /(?:^|[^\p{L}\p{N}])-/u.test(bare);
  });
}

// ---------------------------------------------------------------- normalise

test("normalise: a Windows path keeps only its DLL, a URL only its host's words", () => {
  assert.equal(
    search.normalise('Error loading "C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies'),
    "Error loading c10.dll or one of its dependencies",
  );
  assert.equal(
    search.normalise("HTTP error 403 while getting https://pypi.tuna.tsinghua.edu.cn/packages/ab/numpy-2.3.5.whl"),
    "HTTP error 403 while getting pypi tuna tsinghua edu cn",
  );
});

test("normalise: a model number is split from its letters, a wheel's name is not cut", () => {
  assert.equal(search.normalise("RX580"), "RX 580");
  assert.equal(search.normalise("rx6700xt is not detected"), "rx 6700 xt is not detected");
  assert.equal(search.normalise("6700XT显卡"), "6700 XT显卡");
  const wheel = "ERROR: torch_directml-0.2.0.dev230426-cp310-cp310-win_amd64.whl is not a supported wheel";
  assert.equal(search.normalise(wheel), wheel);
  assert.match(sent(wheel), /cp310-cp310-win_amd64\.whl\^1/);
});

test("normalise: a Windows error code printed as a signed decimal is searched in hexadecimal too", () => {
  assert.equal(
    search.normalise("torch_directml Unknown error -2147024809 on WSL2"),
    "torch_directml Unknown error -2147024809 0x80070057 on WSL2",
  );
  assert.match(search.normalise("DXGI error -2005270523"), / 0x887A0005$/);
  assert.match(search.normalise("Unknown error -2147024809."), /-2147024809 0x80070057\.$/); // a sentence's end
  // Not a code: fewer than ten digits, out of range, or part of a word or version.
  for (const text of ["line -123456789", "-2147483649", "v1.2-2147024809", "id-2147024809", "-2147024809.5"]) {
    assert.equal(search.normalise(text), text);
  }
  assert.match(sent("Unknown error -2147024809 on WSL2"), /(^| )0x80070057\^1( |$)/);
});

// ---------------------------------------------------------------- dropFillers

test("dropFillers: question fillers and particles go, the question's words stay", () => {
  assert.equal(search.dropFillers("用户路径是中文名咋办啊", rules).replace(/\s+/g, ""), "用户路径是中文名");
  assert.equal(search.dropFillers("核显能跑pytorch吗", rules).trim(), "核显能跑pytorch");
});

// ---------------------------------------------------------------- tokenise

test("tokenise: a Han run is cut into the index's words, a character that begins none stepped over", () => {
  assert.deepEqual(search.cutRun("显卡显存不足", zh), ["显卡", "显存", "不足"]);
  assert.deepEqual(search.cutRun("我的显卡", zh), ["显卡"]);
  assert.deepEqual(search.cutRun("应用程序", zh), ["应用程序"]);
});

test("tokenise: Latin and Han apart, a single letter glued to Han left out, typed or pasted", () => {
  const mixed = search.tokenise("AMD显卡", zh);
  assert.deepEqual(mixed.tokens.map((t) => [t.text, t.script, t.glued]), [["AMD", "latin", true], ["显卡", "han", true]]);
  assert.equal(mixed.typed, true);
  assert.deepEqual(search.tokenise("A卡", zh).tokens.map((t) => t.text), []);
  const message = search.tokenise("No matching distribution found for torch-directml", en);
  assert.equal(message.pasted, true);
  assert.equal(message.typed, false);
  assert.deepEqual(search.tokenise("no gpu", en).tokens.map((t) => t.text), ["no", "gpu"]);
});

test("tokenise: a pasted message's words of one or two letters are left out", () => {
  const words = search.tokenise("is it a GPU or not at all", en).tokens.map((t) => t.text);
  assert.deepEqual(words, ["GPU", "not", "all"]);
});

// ---------------------------------------------------------------- weight

test("weight: a pasted word whole, by its stem where the index lacks it, with the wildcard where only inflected", () => {
  const terms = search.weight(search.tokenise("removing torch-directml returns zero", en), en);
  const byText = Object.fromEntries(terms.map((t) => [t.text, t.kind]));
  assert.equal(byText.remov, "wildcard"); // removing: not in the index
  assert.equal(byText["torch-directml"], "whole");
  assert.equal(byText.zero, "wildcard"); // the index holds zeros only
  assert.equal(byText.returns, "whole");
});

test("weight: a typed Chinese query requires its words of two characters or more, a camel-case word adds its parts", () => {
  const typed = search.weight(search.tokenise("显卡不足", zh), zh);
  assert.deepEqual(typed.filter((t) => t.kind === "required").map((t) => t.text), ["显卡", "不足"]);
  const parts = search.weight(search.tokenise("RuntimeError: Could not allocate", en), en).map((t) => t.text);
  assert.deepEqual(parts.slice(0, 3), ["RuntimeError", "Runtime", "Error"]);
});

test("weight: a Chinese word brings the index's words that hold it, never a title's", () => {
  const holders = search.weight(search.tokenise("程序", zh), zh).map((t) => t.text);
  assert.deepEqual(holders, ["程序", "应用程序"]);
  const titled = search.weight(search.tokenise("下载", zh), zh).map((t) => t.text);
  assert.deepEqual(titled, ["下载"]); // 下载太慢 holds it, but is a title's word
});

// ---------------------------------------------------------------- expandEquivalents

test("expandEquivalents: the other forms of a wording, in Latin letters only on an English page", () => {
  const english = search.expandEquivalents("my graphics card is slow", rules, en, false).map((t) => t.text);
  assert.ok(english.includes("GPU"), english);
  assert.ok(!english.some((w) => /\p{sc=Han}/u.test(w)), english);
  assert.ok(!english.includes("graphics"), "a form the query holds is not added again");
  const chinese = search.expandEquivalents("显卡 很慢", rules, zh, true).map((t) => t.text);
  assert.ok(chinese.includes("GPU") && !chinese.includes("显卡"), chinese);
});

// ---------------------------------------------------------------- serialise

test("serialise: the only operators are the pipeline's own", () => {
  const texts = [
    "X-Y", "--flag", "安装C++后", "错误-1", "C++", "a:b", "x^2", "~/path", "foo*", 'say "hi"',
    "pip install -r requirements.txt --no-deps", "torch-directml -- help", "安装C++后报错-1 怎么办",
    "import torch正常，torch.cuda.is_available()返回False怎么办", "+显卡 -显存", "错误：-2147024809",
    "X -Y -- +Z ^W ~V :U *T \\S",
  ];
  for (const text of texts) {
    for (const vocab of [en, zh]) {
      const query = sent(text, vocab);
      assert.deepEqual(strayOperators(query), [], `${JSON.stringify(text)} was sent as ${JSON.stringify(query)}`);
    }
  }
  assert.deepEqual(strayOperators("+显卡\u3007* a^1 b +c"), []);
  assert.deepEqual(strayOperators("-flag"), ["-flag"]);
});

test("serialise: no term is sent twice", () => {
  const texts = [
    "RuntimeError: Could not allocate tensor with 295289856 bytes. There is not enough GPU video memory available!",
    "TimeoutError: The read operation timed out",
    "import torch_native ModuleNotFoundError: No module named 'torch_native'",
    "显卡 显卡 显存不足 GPU 显卡",
    "Torch is my integrated graphics card by default, how to set it as my independent graphics card",
  ];
  for (const text of texts) {
    for (const vocab of [en, zh]) {
      const keys = sent(text, vocab).split(" ").map((c) => c.replace(/^\+|\^1$|\u3007\*?$/g, "").toLowerCase());
      const twice = keys.filter((k, i) => keys.indexOf(k) !== i);
      assert.deepEqual(twice, [], `${JSON.stringify(text)}: ${sent(text, vocab)}`);
    }
  }
});

test("serialise: a typed query's relaxed twin has the same words, none required", () => {
  const { query, relaxed, required } = search.rewrite("AMD显卡不足", zh, true);
  assert.match(query, /\+AMD/);
  assert.match(query, /\+显卡\u3007\*/);
  assert.ok(!relaxed.includes("+"), relaxed);
  assert.deepEqual(required, ["amd", "显卡", "不足"]);
  assert.equal(search.rewrite("not enough GPU video memory available", en, false).relaxed, null);
});

// ---------------------------------------------------------------- rank

function doc(location, score) {
  return { location, score, terms: {} };
}

test("rank: runsOf gives the neighbouring words, leaving out runs of stop words only", () => {
  const stop = new Set(["is", "not"]);
  assert.deepEqual([...search.runsOf(["is", "not", "enough", "gpu"], 2, stop)], ["not enough", "enough gpu"]);
  assert.deepEqual([...search.runsOf(["is", "not", "enough", "gpu"], 3, stop)], ["is not enough", "not enough gpu"]);
});

test("rank: a section that holds the message's word pairs as written goes up", () => {
  const ctx = search.ranking(search.thisEdition(INDEX, false, rules), en);
  const items = [
    [doc("setup/", 1), doc("setup/#mirror", 10)],
    [doc("troubleshooting/", 1), doc("troubleshooting/#oom", 9)],
  ];
  const out = search.rerank(items, "There is not enough GPU video memory available", ctx);
  const sections = out.flat().filter((d) => d.location.includes("#")).map((d) => d.location);
  assert.deepEqual(sections, ["troubleshooting/#oom", "setup/#mirror"]);
  assert.ok(out.every((entry) => !entry[0].location.includes("#")), "each entry is headed by its page");
});

test("rank: sections in one order of scores, a page twice when another page's section comes between", () => {
  const out = search.inScoreOrder([
    [doc("a/", 1), doc("a/#1", 9), doc("a/#2", 5)],
    [doc("b/", 1), doc("b/#1", 7)],
  ]);
  assert.deepEqual(out.map((entry) => entry.map((d) => d.location)), [["a/", "a/#1"], ["b/", "b/#1"], ["a/", "a/#2"]]);
});

test("rank: the relaxed answer lists first the sections holding every required word as text", () => {
  const ctx = search.ranking(search.thisEdition(INDEX, true, rules), zh);
  const first = [[doc("zh/setup/#mirror", 9)]];
  const more = [[doc("zh/troubleshooting/", 1), doc("zh/setup/#mirror", 8), doc("zh/troubleshooting/#oom", 2)]];
  const out = search.holdersFirst(first, more, ["程序", "阻止"], ctx);
  assert.equal(out.flat().find((d) => d.location.includes("#")).location, "zh/troubleshooting/#oom");
});

test("rank: a page's own entry counts without Material's page bonus", () => {
  const page = { location: "a/", score: 10, terms: { x: true, y: false } };
  assert.ok(Math.abs(search.rankOf([page]) - (10 * 1.25) / (1 + 1.5 * 1.5)) < 1e-9);
});

// ---------------------------------------------------------------- model numbers, question words

test("normalise: a model number the index holds glued stays glued (A770), one it holds apart is split (RX 580)", () => {
  const held = { latin: new Set(["a770", "780m"]) };
  assert.equal(search.normalise("Intel Arc A770 not found", held), "Intel Arc A770 not found");
  assert.equal(search.normalise("Radeon 780M", held), "Radeon 780M");
  assert.equal(search.normalise("RX580 not found", held), "RX 580 not found");
});

test("tokenise: a short word before a number is a model's prefix and stays in a pasted message", () => {
  const words = search.tokenise(search.normalise("my RX580 is not detected by torch"), en).tokens.map((t) => t.text);
  assert.deepEqual(words, ["RX", "580", "not", "detected", "torch"]);
});

test("dropFillers: a typed question's question words go (为什么, 怎么, 能不能), a word holding 能 stays", () => {
  assert.equal(search.dropFillers("为什么会使用核显推理", rules).trim(), "会使用核显推理");
  assert.equal(search.dropFillers("能不能用核显", rules).trim(), "用核显");
  assert.equal(search.dropFillers("性能很差", rules).trim(), "性能很差");
  const typed = search.rewrite("为什么核显很慢", zh, true);
  assert.ok(!typed.query.includes("为什么"), typed.query);
});

// ---------------------------------------------------------------- back-ends, runs, shared title words

const BACKENDS = {
  config: INDEX.config,
  docs: [
    { location: "t/", title: "Troubleshooting", text: "" },
    { location: "t/#rocm-integrated-gpu-first", title: "The integrated GPU is cuda:0", text: "HIP_VISIBLE_DEVICES" },
    { location: "t/#integrated", title: "DirectML uses the integrated GPU", text: "torch_directml.device(1)" },
    { location: "t/#memory", title: "Out of memory", text: "DirectML prints it; torch-directml and dml too" },
    { location: "t/#gbk", title: "GBK decode errors", text: "Windows in Chinese" },
    { location: "t/#xpu-oom", title: "Out of memory on XPU", text: "xpu" },
  ],
};

test("rank: a section's back-end from its anchor, else from what its text names most", () => {
  const edition = search.thisEdition(BACKENDS, false, rules);
  const ctx = search.ranking(edition, search.vocabulary(edition, rules));
  const tags = Object.fromEntries(edition.docs.map((d) => [d.location, search.backendTags(d, ctx).join(",")]));
  assert.equal(tags["t/#rocm-integrated-gpu-first"], "rocm"); // its title says cuda:0, its anchor rocm
  assert.equal(tags["t/#memory"], "directml");
  assert.equal(tags["t/#gbk"], "");
  assert.equal(tags["t/#xpu-oom"], "xpu");
  assert.deepEqual(search.wantedBackends("Out of memory", ctx), ["directml"]);
  assert.deepEqual(search.wantedBackends("XPU out of memory", ctx), ["xpu"]);
  // torch names a back-end's libraries after it: c10_xpu.dll, c10_cuda.dll, torch_cuda.dll; its wheels +xpu, +rocm7.2
  assert.deepEqual(search.wantedBackends('Error loading "c10_xpu.dll"', ctx), ["xpu"]);
  assert.deepEqual(search.wantedBackends("torch_cuda.dll", ctx), ["cuda"]);
  assert.deepEqual(search.wantedBackends("torch 2.9.0+rocm7.2", ctx), ["rocm"]);
  assert.deepEqual(search.wantedBackends("cudnn64_9.dll, xpumanager, rocmsmi", ctx), ["directml"]); // other words
});

test("rank: the back-end the query names wins, DirectML's where it names none; a Windows section keeps its score", () => {
  const weights = { ...rules.weights, backend: { value: 0.5 }, pairs: { value: 0 }, runs: { value: 0 } };
  const ranked = { ...rules, weights };
  const edition = search.thisEdition(BACKENDS, false, ranked);
  const ctx = search.ranking(edition, search.vocabulary(edition, ranked));
  const items = [[doc("t/", 1), doc("t/#xpu-oom", 10), doc("t/#memory", 8), doc("t/#gbk", 9)]];
  const order = (text) => search.rerank(items, text, ctx).flat().filter((d) => d.location.includes("#")).map((d) => d.location);
  assert.deepEqual(order("out of memory"), ["t/#gbk", "t/#memory", "t/#xpu-oom"]);
  assert.deepEqual(order("xpu out of memory"), ["t/#xpu-oom", "t/#gbk", "t/#memory"]);
});

test("rank: a query's runs of four Han characters; a section holding more of them goes up", () => {
  assert.deepEqual([...search.hanRuns("显存不足了 a 显卡")], ["显存不足", "存不足了"]);
  const weights = { ...rules.weights, pairs: { value: 0 }, runs: { value: 1 }, backend: { value: 0 } };
  const ranked = { ...rules, weights };
  const edition = search.thisEdition(INDEX, true, ranked);
  const ctx = search.ranking(edition, search.vocabulary(edition, ranked));
  const items = [[doc("zh/setup/#mirror", 10)], [doc("zh/troubleshooting/", 1), doc("zh/troubleshooting/#oom", 9)]];
  const first = search.rerank(items, "应用程序被阻止", ctx).flat().find((d) => d.location.includes("#"));
  assert.equal(first.location, "zh/troubleshooting/#oom");
});

test("thisEdition: a title's words that many sections hold count as text, the others keep the title's weight", () => {
  const shared = { ...rules, weights: { ...rules.weights, shared_title: { value: 0.3 } } };
  const edition = search.thisEdition(BACKENDS, false, shared);
  const heading = Object.fromEntries(edition.docs.map((d) => [d.location, d.heading]));
  assert.equal(heading["t/#xpu-oom"], "on XPU"); // out, of, memory: in two of six sections
  assert.equal(heading["t/#memory"], "");
  assert.equal(edition.docs.find((d) => d.location === "t/#memory").title, "Out of memory"); // what a reader sees
  assert.deepEqual(edition.config.fields.title, { boost: 1 });
  assert.equal(edition.config.fields.heading.boost, rules.weights.title.en - 1);
  const off = search.thisEdition(BACKENDS, false, { ...rules, weights: { ...rules.weights, shared_title: { value: 0 } } });
  assert.equal(off.docs[0].heading, undefined);
});

// ---------------------------------------------------------------- the GPU table for a query naming a GPU

// The names as docs/hooks/guide/gpu_pages.py writes them into gpus.json (a name, then its aliases).
const GPU_NAMES = [
  "AMD Radeon RX 7900 XTX", "7900XTX", "AMD Radeon 780M Graphics", "AMD Radeon(TM) 780M Graphics", "780M",
  "Radeon RX 580", "RX 580", "Intel(R) Arc(TM) A770 Graphics", "A770", "Intel(R) Arc(TM) 140V GPU (16GB)",
];
const GPUS = search.gpuNames(GPU_NAMES);

test("namesGpu: a model glued to its letters, or a model's number beside a word the names write next to it", () => {
  for (const text of ["7900xtx", "780m rocm", "RX580", "rx 580 not detected by torch-directml on windows", "A770训练",
    "my 7900 XTX is not used by torch-directml at all"]) {
    assert.ok(search.namesGpu(text, GPUS), text);
  }
});

test("namesGpu: a bare number counts in a short typed query only; sizes, wheels and codes are no GPU", () => {
  assert.ok(search.namesGpu("580 rocm", GPUS));
  for (const text of ['File "train.py", line 580, in <module> raise err', "16GB", "torch-2.7.0+cu130", "WinError 126",
    "gfx1100", "5800X3D"]) {
    assert.ok(!search.namesGpu(text, GPUS), text);
  }
  assert.ok(!search.namesGpu("7900xtx", null)); // without gpus.json the search runs as before
});

const CHOOSER = {
  config: INDEX.config,
  docs: [
    { location: "t/", title: "Troubleshooting", text: "" },
    { location: "t/#a", title: "A", text: "" },
    { location: "t/#b", title: "B", text: "" },
    { location: "t/#c", title: "C", text: "" },
    { location: "t/#d", title: "D", text: "" },
    { location: "choose/", title: "Choose your path", text: "" },
    { location: "choose/#every-gpu", title: "Every GPU", text: "What the chooser reads." },
    { location: "zh/choose/#every-gpu", title: "全部显卡", text: "" },
  ],
};

function tableRanking(chinese = false) {
  const plain = { ...rules, weights: { ...rules.weights, pairs: { value: 0 }, runs: { value: 0 }, backend: { value: 0 } } };
  const edition = search.thisEdition(CHOOSER, chinese, plain);
  return search.ranking(edition, search.vocabulary(edition, plain), GPU_NAMES);
}

const sectionsOf = (entries) => entries.flat().filter((d) => d.location.includes("#"));

test("rerank: a query naming a GPU lists the GPU table's section third when it ranked lower, above it unchanged", () => {
  const ctx = tableRanking();
  assert.equal(ctx.gpuTable, "choose/#every-gpu");
  const items = [[doc("t/", 1), doc("t/#a", 10), doc("t/#b", 9), doc("t/#c", 8), doc("t/#d", 7)], [doc("choose/", 1), doc("choose/#every-gpu", 2)]];
  const named = sectionsOf(search.rerank(items, "7900xtx rocm", ctx)).map((d) => d.location);
  assert.deepEqual(named, ["t/#a", "t/#b", "choose/#every-gpu", "t/#c", "t/#d"]);
  const plain = sectionsOf(search.rerank(items, "rocm runs slowly", ctx)).map((d) => d.location);
  assert.deepEqual(plain, ["t/#a", "t/#b", "t/#c", "t/#d", "choose/#every-gpu"]);
  const higher = [[doc("choose/", 1), doc("choose/#every-gpu", 20)], [doc("t/", 1), doc("t/#a", 10)]];
  assert.deepEqual(sectionsOf(search.rerank(higher, "780M", ctx)).map((d) => d.location), ["choose/#every-gpu", "t/#a"]);
});

test("rerank: the GPU table's section is added, headed by its page, when the engine did not list it", () => {
  const ctx = tableRanking();
  const items = [[doc("t/", 1), doc("t/#a", 10), doc("t/#b", 9), doc("t/#c", 8)]];
  const entries = search.rerank(items, "RX 580", ctx);
  assert.deepEqual(sectionsOf(entries).map((d) => d.location), ["t/#a", "t/#b", "choose/#every-gpu", "t/#c"]);
  const own = entries.find((entry) => entry.some((d) => d.location === "choose/#every-gpu"));
  assert.deepEqual(own.map((d) => d.location), ["choose/", "choose/#every-gpu"]);
  assert.deepEqual(sectionsOf(search.rerank([], "7900xtx", ctx)).map((d) => d.location), ["choose/#every-gpu"]);
  const zh = tableRanking(true);
  assert.equal(zh.gpuTable, "zh/choose/#every-gpu");
  assert.deepEqual(sectionsOf(search.rerank([], "780m 能用吗", zh)).map((d) => d.location), ["zh/choose/#every-gpu"]);
});

// A question about a GPU as a whole (rules.gpu_question): every GPU word of the rules with every asking word of
// the rules is such a question; the same with any word that neither list, the fillers nor the stop words hold is not.
const QUESTION = {
  config: INDEX.config,
  docs: [
    ...CHOOSER.docs,
    { location: "why-directml/", title: "Why DirectML", text: "" },
    { location: "why-directml/#which-one-for-your-gpu", title: "Which one for your GPU", text: "Find your card below." },
    { location: "zh/why-directml/", title: "为什么用 DirectML", text: "" },
    { location: "zh/why-directml/#which-one-for-your-gpu", title: "你的显卡该选哪个", text: "按型号查下表" },
    { location: "zh/t/", title: "常见问题", text: "" },
    { location: "zh/t/#a", title: "甲", text: "" },
  ],
};

function questionRanking(chinese = false) {
  const edition = search.thisEdition(QUESTION, chinese, rules);
  return search.ranking(edition, search.vocabulary(edition, rules), GPU_NAMES);
}

test("asksAboutGpu: each GPU word with each asking word is a question about the GPU; one more word of a symptom is not", () => {
  const ctx = questionRanking(), zhCtx = questionRanking(true);
  const { gpus, asks } = rules.gpu_question;
  for (const gpu of gpus) {
    for (const ask of asks) {
      for (const text of [`${gpu} ${ask}`, `${ask} ${gpu}`]) {
        const c = /\p{sc=Han}/u.test(text) ? zhCtx : ctx;
        assert.ok(search.asksAboutGpu(text, c), text);
        assert.ok(search.asksAboutGpu(text.toUpperCase() + "?", c), text.toUpperCase());
        for (const symptom of ["slowly", "占用率为0", "检测不到", "crashes"]) {
          assert.ok(!search.asksAboutGpu(`${text} ${symptom}`, c), `${text} ${symptom}`);
        }
      }
      assert.ok(!search.asksAboutGpu(ask, ctx), `${ask}: names no GPU`);
    }
    assert.ok(!search.asksAboutGpu(gpu, ctx), `${gpu}: asks nothing`);
  }
  // a model of the GPU table names a GPU too; a number that is no model does not
  assert.ok(search.asksAboutGpu("a770 pytorch", ctx));
  assert.ok(search.asksAboutGpu("7900xtx 能跑吗", zhCtx));
  assert.ok(!search.asksAboutGpu("12345 pytorch", ctx));
  // a brand and a model, nothing else, ask about that GPU; a model alone, or brands alone, are left to the ranking
  assert.ok(search.asksAboutGpu("锐炫 A770", zhCtx));
  assert.ok(search.asksAboutGpu("Radeon RX 580", ctx));
  assert.ok(!search.asksAboutGpu("7900xtx", ctx));
  assert.ok(!search.asksAboutGpu("AMD Radeon", ctx));
  assert.ok(!search.asksAboutGpu("A770 crashes", ctx));
  // the readers' questions of the Chinese review (2026-12-05) and their English equivalents
  for (const text of ["A卡能跑pytorch吗", "amd显卡有什么办法能用pytorch", "A卡 训练", "AMD显卡安装pytorch失败", "装好了但是用不了显卡"]) {
    assert.ok(search.asksAboutGpu(text, zhCtx), text);
  }
  for (const text of ["Any way to do this with an AMD GPU?", "can I train on an intel gpu", "does pytorch work on amd gpu windows"]) {
    assert.ok(search.asksAboutGpu(text, ctx), text);
  }
});

test("gpuQuestionFirst: a question about a GPU puts the route table's section first, adding it headed by its page", () => {
  const ctx = questionRanking(), zhCtx = questionRanking(true);
  const items = [[doc("t/", 1), doc("t/#a", 10), doc("t/#b", 9)], [doc("why-directml/", 1), doc("why-directml/#which-one-for-your-gpu", 2)]];
  const first = search.gpuQuestionFirst(items, "can I train on an intel gpu", ctx);
  assert.deepEqual(sectionsOf(first).map((d) => d.location), ["why-directml/#which-one-for-your-gpu", "t/#a", "t/#b"]);
  assert.deepEqual(first[0].map((d) => d.location), ["why-directml/", "why-directml/#which-one-for-your-gpu"]);
  assert.equal(search.gpuQuestionFirst(items, "intel gpu training crashes", ctx), items);
  const added = search.gpuQuestionFirst([[doc("zh/t/", 1), doc("zh/t/#a", 10)]], "A卡能跑pytorch吗", zhCtx);
  assert.deepEqual(added.map((entry) => entry.map((d) => d.location)), [
    ["zh/why-directml/", "zh/why-directml/#which-one-for-your-gpu"],
    ["zh/t/", "zh/t/#a"],
  ]);
  assert.deepEqual(sectionsOf(search.gpuQuestionFirst([], "A卡 训练", zhCtx)).map((d) => d.location), ["zh/why-directml/#which-one-for-your-gpu"]);
  // the GPU table's section, third for a query naming a model, stays among the first three
  const named = [[doc("t/", 1), doc("t/#a", 10), doc("t/#b", 9)], [doc("choose/", 1), doc("choose/#every-gpu", 8)], [doc("t/", 1), doc("t/#c", 7)]];
  const table = sectionsOf(search.gpuQuestionFirst(named, "a770 pytorch", ctx)).map((d) => d.location);
  assert.deepEqual(table, ["why-directml/#which-one-for-your-gpu", "t/#a", "choose/#every-gpu", "t/#b", "t/#c"]);
});

test("distinct: a longer word that means another thing is not searched for the shorter one (驱动器 for 驱动)", () => {
  const index = {
    config: INDEX.config,
    docs: [
      { location: "zh/a/", title: "页", text: `驱动器${Z}驱动器${Z}驱动器${Z}驱动程序${Z}驱动${Z}显卡驱动` },
    ],
  };
  const edition = search.thisEdition(index, true, rules);
  const vocab = search.vocabulary(edition, rules);
  const sentFor = (text) => search.rewrite(text, vocab, true).query;
  assert.ok(!sentFor("驱动").includes("驱动器"), sentFor("驱动"));
  assert.ok(sentFor("驱动").includes("驱动程序"), sentFor("驱动"));
  const without = { ...rules, distinct: { pairs: [] } };
  const plain = search.vocabulary(search.thisEdition(index, true, without), without);
  assert.ok(search.rewrite("驱动", plain, true).query.includes("驱动器"), "the stand-in index must make 驱动器 a holder of 驱动");
});
