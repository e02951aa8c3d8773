// The site search's chooser answer (docs/javascripts/search/pipeline.js, chooserAnswer): a query that names a
// GPU, or asks about a vendor's GPUs, gets the chooser's answer above the results, read by match.js. The
// chooser's table here is made from the device table (snippets/gpu_devices.json): the first row of each
// family whose name no other family bears stands for the guide's GPU. node --test tests/js/
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const fs = require("node:fs");

const root = path.join(__dirname, "..", "..");
const gpu = require(path.join(root, "docs/javascripts/gpu/match.js"));
const search = require(path.join(root, "docs/javascripts/search/pipeline.js"));
const rules = JSON.parse(fs.readFileSync(path.join(root, "docs/javascripts/search/rules.json"), "utf8"));
const DEVICES = JSON.parse(fs.readFileSync(path.join(root, "snippets/gpu_devices.json"), "utf8")).devices;

function chooserTable() {
  const families = new Map(), like = new Map(), rows = [];
  const model = (n) => gpu.read(n).model.join(" ");
  for (const found of Object.values(DEVICES)) {
    for (const r of found) {
      if (!families.has(model(r.name))) families.set(model(r.name), new Set());
      families.get(model(r.name)).add(gpu.familyOf(r));
    }
  }
  for (const found of Object.values(DEVICES)) {
    for (const r of found) {
      const family = gpu.familyOf(r);
      if (r.group && !like.has(family) && model(r.name) && families.get(model(r.name)).size === 1) {
        like.set(family, r.name);
        const path = { 11: r.backends[0], 10: r.backends[r.backends.length - 1] };
        rows.push({ name: r.name, vendor: r.vendor, target: r.target, group: r.group, path });
      }
    }
  }
  const devices = {};
  for (const [id, found] of Object.entries(DEVICES)) {
    devices[id] = found.map((r) => (like.has(gpu.familyOf(r)) ? { ...r, like: like.get(gpu.familyOf(r)) } : r));
  }
  return { rows, devices };
}
const TABLE = chooserTable();
const answer = (text, zh) => search.chooserAnswer(text, TABLE, gpu, rules, zh);

test("a question naming a GPU gets the chooser's answer for it, in both editions", () => {
  for (const [text, name] of [
    ["Is Intel Arc B580 supported?", "B580"],
    ["Can I train on an Intel A730M?", "A730M"],
    ["rx 7900m rocm", "7900M"],
    ["Radeon 780M 能跑吗", "780M"],
  ]) {
    for (const zh of [false, true]) {
      const got = answer(text, zh);
      assert.ok(got && got.text.includes(name), `${text}: ${JSON.stringify(got)}`);
      assert.ok(got.href.startsWith(zh ? "zh/choose/?gpu=" : "choose/?gpu="), got.href);
      assert.ok(!/\{\w+\}/.test(got.text), got.text);
    }
  }
});

test("a question about a vendor's GPUs gets the chooser, unasked which", () => {
  for (const [text, zh] of [["Any way to do this with an AMD GPU?", false], ["可以用A卡训练吗", true], ["N卡和A卡哪个好", true]]) {
    const got = answer(text, zh);
    assert.deepEqual(got, { href: zh ? "zh/choose/" : "choose/", text: rules.chooser_answer[zh ? "zh" : "en"].vendor }, text);
  }
});

test("a number of fewer digits, a version or an error code names no GPU", () => {
  for (const text of ["windows 10 directml install", "python 3.12 wheel", "pytorch 2.4.1", "0x887A0005", "cuda 12.8",
    "how to install", "训练很慢"]) {
    assert.equal(answer(text, false), null, text);
  }
  assert.equal(search.chooserAnswer("RTX 4090", null, gpu, rules, false), null); // without the table: as before
});
