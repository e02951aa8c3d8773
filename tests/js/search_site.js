// The site search of a built site, run in Node as a page runs it, with no browser: the page's own scripts
// (docs/javascripts/search/pipeline.js and bridge.js, as the build copied them) in a context that stands in
// for the page (window, document, fetch, Worker), and Material's search worker through search_guard.js in
// a context of its own, both from the built site. What the page's search box does is played here as
// Material's bundle plays it: the index to the worker (SETUP), each text as typed (QUERY), and the answer
// (RESULT) listed as Material lists it: the first 10 pages, each page's sections at its own score shown,
// the rest folded under "N more on this page", from which bridge.js takes sections out of the fold.
//
//   node tests/js/search_site.js SITE < queries.json > results.json
//
// queries.json: [{"edition": "en" | "zh", "query": "..."}, ...]; each result: {sent: the query texts the
// page sent the worker, in order; sections: the sections a reader sees, in order ("page/#anchor"); listed:
// every section link of the list, those in a closed fold too, in the page's order;
// entries: the final answer's entries, [[{location, score}]]}. tests/site/test_search_eval.py runs it on
// the run's built site.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const HOST = "http://127.0.0.1/";
// Material's messages (its worker/message/index.ts): SETUP the index, READY, QUERY a text, RESULT the answer.
const SETUP = 0, READY = 1, QUERY = 2, RESULT = 3;
const PAGES = 10;  // Material renders the first 10 pages of an answer, more only as the reader scrolls

function fileOf(site, url) {
  const href = new URL(String(url), HOST);
  if (!href.href.startsWith(HOST)) throw new Error(`not a file of the site: ${url}`);
  return path.join(site, decodeURIComponent(href.pathname));
}

// Material's worker as the page starts it (bridge.js rewrites its URL to search_guard.js?worker=NAME),
// in a context of its own; each answer comes back to the page on a later task, as a worker's message does.
function startWorker(site, url, deliver) {
  const href = new URL(String(url), HOST);
  const context = { URL, setTimeout, console: { warn() {}, log() {} } };
  context.self = context;
  context.location = { href: href.href };
  context.importScripts = (...urls) => {
    for (const u of urls) vm.runInContext(fs.readFileSync(fileOf(site, new URL(u, href)), "utf8"), context);
  };
  context.addEventListener = (type, listener) => { if (type === "message") context.listener = listener; };
  context.postMessage = (message) => setImmediate(() => deliver(message));
  vm.createContext(context);
  context.importScripts(href.pathname.split("/").pop());
  return (message) => setImmediate(() => context.listener({ data: message }));
}

// A page of the edition with its search scripts loaded; Material's part is played by the caller.
function openPage(site, edition) {
  const fetched = [];
  const page = {
    URL, setTimeout, Promise, Object, Array, JSON, Map, Set, RegExp, Math,
    console: { warn() {}, log() {}, error() {} },
    requestAnimationFrame: (f) => setImmediate(f),
    fetch: (url) => {
      const file = fileOf(site, url);
      fetched.push(file);
      return Promise.resolve({ json: () => Promise.resolve(JSON.parse(fs.readFileSync(file, "utf8"))) });
    },
    MutationObserver: class { observe() {} },
    MessageEvent: class { constructor(type, init) { this.type = type; this.data = init && init.data; } },
    XMLHttpRequest: class {},
    addEventListener() {},
  };
  page.window = page;
  page.self = page;
  const base = HOST + (edition === "zh" ? "zh/" : "");
  page.document = {
    documentElement: { lang: edition },
    baseURI: base,
    readyState: "complete",
    currentScript: { src: HOST + "javascripts/search/bridge.js" },
    // No result list is drawn here: the chooser's answer box (bridge.js's showChooser) finds nothing to go beside.
    getElementById: () => null,
    querySelector: () => null,
  };
  // The browser's Worker: postMessage to the worker's context, its answers to the listeners added.
  page.Worker = function Worker(url) {
    this.listeners = [];
    this.send = startWorker(site, new URL(String(url), base), (data) => {
      for (const listener of this.listeners) listener.call(this, { data });
    });
  };
  page.Worker.prototype.postMessage = function (message) { this.send(message); };
  page.Worker.prototype.addEventListener = function (type, listener) {
    if (type === "message") this.listeners.push(listener);
  };
  vm.createContext(page);
  for (const script of ["pipeline.js", "bridge.js"]) {
    const file = path.join(site, "javascripts", "search", script);
    vm.runInContext(fs.readFileSync(file, "utf8"), page, { filename: file });
  }
  return { page, fetched, base };
}

// The section links in the list Material renders for an answer (its renderSearchResultItem: a page's sections
// scoring under its first entry go into the fold), after bridge.js's unfold has taken the first folded ones
// out until `shown` sections show: those a reader sees, in order, and with `folded` the folded ones too, in
// the order of the page's markup.
function listedSections(items, shown, folded = false) {
  const seen = [];
  for (const result of items.slice(0, PAGES)) {
    const threshold = result[0].score;
    const docs = result.slice();
    const parent = docs.findIndex((doc) => !doc.location.includes("#"));
    const [article] = docs.splice(parent, 1);
    let index = docs.findIndex((doc) => doc.score < threshold);
    if (index === -1) index = docs.length;
    const best = docs.slice(0, index);
    const more = docs.slice(index);
    const unfolded = more.splice(0, Math.max(0, shown - best.length));
    const listed = [article, ...best, ...unfolded, ...(folded ? more : [])];
    for (const doc of listed) if (doc.location.includes("#")) seen.push(doc.location);
  }
  return seen;
}

// One edition's search, as the page's box runs it: search(text) answers as the list a reader sees.
async function openSearch(site, edition) {
  const { page, fetched } = openPage(site, edition);
  const sent = [];
  const worker = new page.Worker(HOST + "assets/javascripts/workers/" + materialWorker(site));
  // What the page hands the worker, recorded before it leaves (the bridge's rewrite of each query).
  const post = worker.send;
  worker.send = (message) => { if (message && message.type === QUERY) sent.push(message.data); post(message); };
  let answer = null;
  worker.addEventListener("message", (event) => { if (answer) answer(event.data); });
  const next = () => new Promise((resolve) => { answer = resolve; });
  const index = JSON.parse(fs.readFileSync(path.join(site, "search", "search_index.json"), "utf8"));
  let reply = next();
  worker.postMessage({ type: SETUP, data: { config: index.config, docs: index.docs, options: { suggest: true } } });
  if ((await reply).type !== READY) throw new Error("Material's worker did not answer the index with READY");
  const rules = JSON.parse(fs.readFileSync(path.join(site, "javascripts", "search", "rules.json"), "utf8"));
  const data = fetched.map((file) => path.relative(site, file).split(path.sep).join("/"));
  if (!data.includes("javascripts/search/rules.json") || data.length !== 2) {
    throw new Error(`the page's search data was not read (read: ${data.join(", ") || "nothing"})`);
  }
  return async function search(text) {
    sent.length = 0;
    reply = next();
    worker.postMessage({ type: QUERY, data: text });
    const message = await reply;
    if (message.type !== RESULT) throw new Error(`the worker answered ${JSON.stringify(text)} with ${message.type}`);
    const items = message.data.items;
    return {
      sent: sent.slice(),
      sections: listedSections(items, rules.weights.shown.value),
      listed: listedSections(items, rules.weights.shown.value, true),
      entries: items.map((entry) => entry.map((doc) => ({ location: doc.location, score: doc.score }))),
    };
  };
}

function materialWorker(site) {
  const dir = path.join(site, "assets", "javascripts", "workers");
  const name = fs.readdirSync(dir).find((f) => /^search\.[0-9a-f]+\.min\.js$/.test(f));
  if (!name) throw new Error(`no Material search worker in ${dir}: is ${site} a built site?`);
  return name;
}

async function main() {
  const site = process.argv[2];
  if (!site || !fs.existsSync(path.join(site, "search", "search_index.json"))) {
    console.error("usage: node tests/js/search_site.js SITE < queries.json (SITE: a built site, mkdocs build)");
    process.exit(2);
  }
  const queries = JSON.parse(fs.readFileSync(0, "utf8"));
  const searches = {};
  const results = [];
  for (const { edition, query } of queries) {
    searches[edition] = searches[edition] || (await openSearch(site, edition));
    results.push(await searches[edition](query));
  }
  process.stdout.write(JSON.stringify(results));
}

module.exports = { openSearch, listedSections };
if (require.main === module) {
  main().catch((error) => {
    console.error(`search_site.js: ${error.message}`);
    process.exit(1);
  });
}
