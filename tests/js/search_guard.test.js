// docs/assets/javascripts/workers/search_guard.js: Material's search worker, run here in a Node
// context as a browser runs it (importScripts, self, postMessage), on a word list that meets lunr's token-set
// fault; with the guard every prefix query answers, without it one answers "Invalid query" and lists nothing.
// Material's worker is the installed one (the README's test command runs this after it installs .venv).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const root = path.join(__dirname, "..", "..");
const guard = fs.readFileSync(path.join(root, "docs/assets/javascripts/workers/search_guard.js"), "utf8");

// .venv/lib/pythonX.Y/site-packages on Linux and macOS, .venv\Lib\site-packages on Windows
function materialWorkers() {
  const lib = path.join(root, ".venv", "lib");
  const found = fs.existsSync(lib) ? fs.readdirSync(lib).map((name) => path.join(lib, name, "site-packages")) : [];
  for (const packages of [path.join(root, ".venv", "Lib", "site-packages"), ...found]) {
    const dir = path.join(packages, "material", "templates", "assets", "javascripts", "workers");
    if (fs.existsSync(dir)) return dir;
  }
  throw new Error("Material is not installed in .venv: run the README's install command first");
}
const dir = materialWorkers();
const name = fs.readdirSync(dir).find((f) => /^search\.[0-9a-f]+\.min\.js$/.test(f));

// A worker as the page starts it: through the guard (?worker=NAME, as bridge.js does) or Material's own file.
function start(guarded) {
  const context = { URL, setTimeout, warnings: [] };
  context.self = context;
  context.console = { warn: (m) => context.warnings.push(String(m)), log() {} };
  context.location = { href: `http://localhost/assets/javascripts/workers/search_guard.js?worker=${name}` };
  context.importScripts = (...urls) => {
    for (const url of urls) vm.runInContext(fs.readFileSync(path.join(dir, url), "utf8"), context);
  };
  context.addEventListener = (type, listener) => { if (type === "message") context.listener = listener; };
  context.postMessage = (message) => { context.answer = message; };
  vm.createContext(context);
  if (guarded) vm.runInContext(guard, context);
  else context.importScripts(name);
  return async (message) => { await context.listener({ data: message }); return context.answer; };
}

// Numbers as words, as the guide's pages hold them (versions, model numbers, sizes): a seeded list. Digits are
// the fault's condition (an edge's character then a node's id, both digits); this list meets it (lunr 2.3.9).
function numbers(seed, list) {
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  let words = [];
  for (let i = 0; i <= list; i++) {
    const set = new Set(), count = 200 + Math.floor(next() * 3000);
    for (let j = 0; j < count; j++) {
      let word = "";
      for (let k = 1 + Math.floor(next() * 6); k > 0; k--) word += "0123456789"[Math.floor(next() * 10)];
      set.add(word);
    }
    words = [...set];
  }
  return words;
}

// Every first digit with a trailing wildcard, as the pipeline and Material send a word being typed.
async function invalid(guarded, words) {
  const send = start(guarded);
  const docs = words.map((word, i) => ({ location: `page/#${i}`, title: "numbers", text: word }));
  const config = { lang: ["en"], separator: "[\\s\\-]+", fields: { title: { boost: 1 }, text: { boost: 1 } } };
  assert.equal((await send({ type: 0, data: { config, docs, options: { suggest: false } } })).type, 1);
  const failed = [];
  for (const digit of "0123456789") {
    const answer = await send({ type: 2, data: `${digit}*` });
    if (!answer.data.items.length) failed.push(digit);
  }
  return failed;
}

const WORDS = numbers(1, 32);

test("Material's own worker meets the fault on this list (the guard has something to mend)", async () => {
  assert.deepEqual(await invalid(false, WORDS), ["6"]);
});

test("through the guard, every prefix of the list finds its sections", async () => {
  assert.deepEqual(await invalid(true, WORDS), []);
});

test("the guard starts nothing but Material's search worker", () => {
  const context = { URL, self: null, location: { href: "http://localhost/w/search_guard.js?worker=../evil.js" } };
  context.self = context;
  context.importScripts = () => assert.fail("importScripts ran");
  vm.createContext(context);
  assert.throws(() => vm.runInContext(guard, context), /not a search worker/);
});
