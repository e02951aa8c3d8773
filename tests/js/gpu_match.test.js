// The GPU name and ID matcher (docs/javascripts/gpu/match.js) against the device table it reads
// (snippets/gpu_devices.json): every case here is generated from the table's own rows, never typed from a
// list of names. node --test tests/js/
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const fs = require("node:fs");

const root = path.join(__dirname, "..", "..");
const gpu = require(path.join(root, "docs/javascripts/gpu/match.js"));
const TABLE = JSON.parse(fs.readFileSync(path.join(root, "snippets/gpu_devices.json"), "utf8"));

const ROWS = [];
for (const [id, rows] of Object.entries(TABLE.devices)) for (const row of rows) ROWS.push([id, row]);
const NAMES = [];
for (const [id, row] of ROWS) for (const name of [row.name, ...(row.aliases || [])]) NAMES.push([name, row, id]);
const modelOf = (name) => gpu.read(name).model.join(" ");
const namesOf = (row) => [row.name, ...(row.aliases || [])];
// The rows of the table that hold a name with this model (the chips a model number names).
const BY_MODEL = new Map();
for (const [name, row] of NAMES) {
  const m = modelOf(name);
  if (!BY_MODEL.has(m)) BY_MODEL.set(m, new Set());
  BY_MODEL.get(m).add(row);
}
const familiesOf = (rows) => new Set([...rows].map(gpu.familyOf));

test("the table is big enough to be the vendors' and has every kind of each vendor", () => {
  const kinds = new Set(ROWS.map(([, r]) => r.vendor + ":" + r.kind));
  for (const k of ["amd:dedicated", "amd:mobile", "amd:integrated", "amd:pro", "intel:dedicated",
    "intel:integrated", "intel:mobile", "nvidia:dedicated", "nvidia:mobile", "nvidia:pro"]) assert.ok(kinds.has(k), k);
  assert.ok(Object.keys(TABLE.devices).length > 1000 && NAMES.length > 2000, NAMES.length);
});

test("every name and alias of the table finds its own row, and only rows that bear that model", () => {
  const wrong = [];
  for (const [name, row] of NAMES) {
    const got = gpu.matchName(name, TABLE, 1e6);
    const model = modelOf(name);
    if (!got.rows.includes(row)) wrong.push(`${name}: its row is missing`);
    else if (got.rows.some((r) => !namesOf(r).some((n) => modelOf(n) === model))) wrong.push(`${name}: another model`);
    else if ((got.status === "one") !== (familiesOf(got.rows).size === 1)) wrong.push(`${name}: ${got.status}`);
  }
  assert.deepEqual(wrong.slice(0, 10), []);
});

test("every device ID finds its rows, and a revision its own", () => {
  for (const [id, rows] of Object.entries(TABLE.devices)) {
    const [vendor, device] = id.split(":");
    const all = gpu.matchId(vendor.toUpperCase(), "0x" + device, null, TABLE);
    assert.deepEqual(all.rows, rows, id);
    assert.equal(all.status, familiesOf(rows).size === 1 ? "one" : "choices", id);
    for (const row of rows.filter((r) => r.rev)) {
      assert.ok(gpu.matchId(vendor, device, row.rev.toUpperCase(), TABLE).rows.every((r) => r.rev === row.rev), id);
    }
  }
  assert.equal(gpu.matchId("1002", "ffff", null, TABLE).status, "none");
  // A revision the table does not list: every row of the device, to choose from when they differ.
  const [id, rows] = Object.entries(TABLE.devices).find(([, rs]) => familiesOf(rs).size > 1);
  assert.equal(gpu.matchId(...id.split(":"), "ff", TABLE).rows.length, rows.length);
});

// The forms Windows, a driver or a reader adds to a name: none changes which rows it finds.
const FORMS = [
  ["(R) and (TM)", (n) => n.replace(/^(AMD|Intel|NVIDIA)\b/, "$1(R)").replace(/\b(Radeon|Arc|GeForce|Iris)\b/, "$1(TM)")],
  ["the signs", (n) => n.replace(/^(AMD|Intel|NVIDIA)\b/, "$1\u00ae").replace(/\b(Radeon|Arc|GeForce)\b/, "$1\u2122")],
  ["Graphics", (n) => (/Graphics/.test(n) ? n.replace(/ Graphics\b/, "") : n + " Graphics")],
  ["a memory size", (n) => n + " (16GB)"],
  ["Series", (n) => n + " Series"],
  ["GPU", (n) => n + " GPU"],
  ["spacing", (n) => "  " + n.replace(/ /g, "   ") + " "],
  ["case", (n) => n.toUpperCase()],
  ["lower case", (n) => n.toLowerCase()],
];
for (const [form, change] of FORMS) {
  test(`a name with ${form} finds the rows of the name without`, () => {
    const wrong = [];
    for (const [name] of NAMES) {
      const changed = change(name);
      const a = gpu.matchName(name, TABLE, 1e6), b = gpu.matchName(changed, TABLE, 1e6);
      if (a.status !== b.status || a.rows.length !== b.rows.length || a.rows.some((r, i) => r !== b.rows[i])) {
        wrong.push(`${changed}: ${b.status} ${b.rows.length}, ${name}: ${a.status} ${a.rows.length}`);
      }
    }
    assert.deepEqual(wrong.slice(0, 10), []);
  });
}

// The near misses, made from each name of the table: a suffix added, removed or changed; a letter put before
// the number; a digit dropped or added. Such a name is another chip, or none: the matcher may answer "one" only
// with rows that bear the changed name's own model, never the original's when the two differ.
const SUFFIX_CHANGES = ["M", "S", "XT", "XTX", "GRE", "X", "D", "Ti", "SUPER"];
function nearMisses(name) {
  const out = [];
  const m = /(^|[^A-Za-z0-9])([A-Z]{0,2})(\d{3,5})([A-Za-z]{0,3})(?=$|[^A-Za-z0-9])/.exec(name);
  if (!m) return out;
  const at = m.index + m[1].length, end = at + m[2].length + m[3].length + m[4].length;
  const put = (word) => name.slice(0, at) + word + name.slice(end);
  const [, , letters, number, suffix] = m;
  for (const s of SUFFIX_CHANGES) {
    if (s.toLowerCase() !== suffix.toLowerCase()) out.push(["suffix " + s, put(letters + number + s)]);
    out.push(["word suffix " + s, put(letters + number + suffix + " " + s)]);
  }
  if (suffix) out.push(["no suffix", put(letters + number)]);
  if (!letters) for (const l of ["A", "B", "W", "R"]) out.push(["letter " + l, put(l + number + suffix)]);
  else if (letters !== "RX") out.push(["no letter", put(number + suffix)]); // "RX550": RX is the line's name
  out.push(["a digit dropped", put(letters + number.slice(0, -1) + suffix)]);
  out.push(["a digit added", put(letters + number + "0" + suffix)]);
  out.push(["a digit changed", put(letters + number.slice(0, -1) + ((Number(number.slice(-1)) + 1) % 10) + suffix)]);
  return out;
}

test("a near miss of a name never gets the original's chip when it names another", () => {
  const wrong = [];
  let tried = 0, asked = 0;
  for (const [name, row] of NAMES) {
    for (const [kind, miss] of nearMisses(name)) {
      const model = modelOf(miss);
      if (model === modelOf(name)) continue; // the change was a word the matcher reads as noise
      tried++;
      const got = gpu.matchName(miss, TABLE);
      if (got.status !== "one") { asked++; continue; }
      const bearers = BY_MODEL.get(model) || new Set();
      if (got.rows.some((r) => !bearers.has(r))) wrong.push(`${kind}: ${miss} (from ${name}) -> ${got.rows[0].name}`);
      if (got.rows.includes(row) && !bearers.has(row)) wrong.push(`${kind}: ${miss} gives its original ${name}`);
    }
  }
  assert.deepEqual(wrong.slice(0, 10), []);
  assert.ok(tried > 20000 && asked > 1000, `${tried} near misses, ${asked} asked`);
});

test("each near-miss class reads as another model than its name", () => {
  // The classes of the test above, each on every name: a suffix, a letter before the number and a digit
  // each change what the matcher reads, so no class is passed by reading it as noise.
  const same = new Map();
  for (const [name] of NAMES) {
    for (const [kind, miss] of nearMisses(name)) {
      const cls = kind.replace(/ \S+$/, "");
      if (!same.has(cls)) same.set(cls, [0, 0]);
      same.get(cls)[0]++;
      if (modelOf(miss) === modelOf(name)) same.get(cls)[1]++;
    }
  }
  for (const [cls, [all, unchanged]] of same) assert.ok(unchanged === 0, `${cls}: ${unchanged} of ${all} read as the same model`);
});

test("a shorter number never matches a longer one, nor a longer a shorter", () => {
  for (const [name, row] of NAMES) {
    const m = /\b(\d{4})\b/.exec(name);
    if (!m) continue;
    const shorter = name.replace(m[1], m[1].slice(0, 3));
    const got = gpu.matchName(shorter, TABLE);
    if (got.status === "one") assert.ok(!got.rows.includes(row) || (BY_MODEL.get(modelOf(shorter)) || new Set()).has(row), shorter);
  }
});

test("a name the table lacks gets the few nearest families to pick from, never one answer", () => {
  const models = new Set(BY_MODEL.keys());
  let tried = 0;
  for (const [name] of NAMES) {
    const m = /\b(\d{4})\b/.exec(name);
    if (!m) continue;
    // The nearest number up that no name of the table has, with the same first two digits.
    let n = Number(m[1]), miss = null;
    for (let k = 1; k < 100 && !miss; k++) {
      const word = String(n + k);
      const candidate = name.replace(m[1], word);
      if (word.slice(0, 2) === m[1].slice(0, 2) && !models.has(modelOf(candidate)) &&
        ![...models].some((x) => x.split(" ").some((w) => gpu.partOf(modelOf(candidate), w)))) miss = candidate;
    }
    if (!miss) continue;
    tried++;
    const got = gpu.matchName(miss, TABLE);
    assert.ok(got.status === "choices" || got.status === "none", `${miss}: ${got.status}`);
    assert.ok(got.rows.length <= 4 && familiesOf(got.rows).size === got.rows.length, miss);
  }
  assert.ok(tried > 300, tried);
});

test("a number typed without its suffix lists the cards that have it, to choose", () => {
  for (const [name] of NAMES) {
    const m = /\b(\d{4}) (XTX|XT|GRE|Ti)\b/.exec(name);
    if (!m) continue;
    const got = gpu.matchName(name.replace(m[0], m[1]), TABLE, 50);
    if (BY_MODEL.has(modelOf(name.replace(m[0], m[1])))) continue; // the bare number is a card of its own
    assert.equal(got.status, "choices", name);
    assert.ok(got.rows.some((r) => namesOf(r).some((n) => modelOf(n) === modelOf(name))), name);
  }
});

test("a name without a vendor's word, or with one of another vendor, is read by its model alone", () => {
  const a = gpu.matchName("6700 XT", TABLE), b = gpu.matchName("AMD Radeon RX 6700 XT", TABLE);
  assert.deepEqual(a.rows, b.rows);
  assert.equal(gpu.matchName("NVIDIA 6700 XT", TABLE).status, "none");
  assert.equal(gpu.matchName("", TABLE).status, "none");
  assert.equal(gpu.matchName("(R)(TM) Graphics", TABLE).status, "none");
});

// The chooser's table: the guide's own rows, and the devices with the guide's row that answers for them.
// Here the guide's rows are made from the device table itself: the first row of each family whose name no
// other family's row bears, and every device of that family answered by it.
function chooserTable() {
  const rows = [], like = new Map(), families = new Map();
  for (const [name, row] of NAMES) {
    if (!families.has(modelOf(name))) families.set(modelOf(name), new Set());
    families.get(modelOf(name)).add(gpu.familyOf(row));
  }
  for (const [, row] of ROWS) {
    const family = gpu.familyOf(row);
    if (row.group && !like.has(family) && families.get(modelOf(row.name)).size === 1 && modelOf(row.name)) {
      like.set(family, row.name);
      rows.push({ name: row.name, vendor: row.vendor, target: row.target, group: row.group });
    }
  }
  const devices = {};
  for (const [id, found] of Object.entries(TABLE.devices)) {
    devices[id] = found.map((r) => (like.has(gpu.familyOf(r)) ? { ...r, like: like.get(gpu.familyOf(r)) } : { ...r }));
  }
  return { rows, devices, like };
}

test("answerFor: the guide's own name first, then a device's family, never another family's answer", () => {
  const { rows, devices, like } = chooserTable();
  const table = { rows, devices };
  for (const row of rows) {
    const got = gpu.answerFor(row.name, table);
    assert.equal(got.status, "one", row.name);
    assert.equal(gpu.familyOf(got.guide), gpu.familyOf(row), row.name);
  }
  let viaDevice = 0;
  for (const found of Object.values(devices)) {
    for (const row of found) {
      const got = gpu.answerFor(row.name, table);
      if (got.status !== "one") continue;
      if (got.device) {
        viaDevice++;
        assert.equal(got.guide ? got.guide.name : undefined, like.get(gpu.familyOf(got.device)), row.name);
      }
      if (got.guide) assert.equal(gpu.familyOf(got.guide), gpu.familyOf(got.device || got.guide), row.name);
    }
  }
  assert.ok(viaDevice > 1000, viaDevice);
  assert.equal(gpu.answerFor("Matrox G200", table).status, "none");
  assert.equal(gpu.answerFor("7900", table).status, "choices");
});

test("a name of a known vendor older than the table gets the vendor's names without a number, to choose", () => {
  // Each name of the table without a model number ("Intel(R) HD Graphics"), given a number that no name of its
  // vendor starts with: the name itself is among the choices, and the answer is never one.
  const starts = new Map();
  for (const [name, row] of NAMES) {
    for (const w of gpu.read(name).model) {
      const digits = (/[0-9]+/.exec(w) || [""])[0];
      if (!starts.has(row.vendor)) starts.set(row.vendor, new Set());
      starts.get(row.vendor).add(digits.slice(0, 2));
    }
  }
  let tried = 0;
  for (const [name, row] of NAMES) {
    const read = gpu.read(name);
    if (read.model.length || !read.line.length || !read.vendor) continue;
    const free = ["11", "13", "17", "19", "23", "29", "31", "37", "41", "43", "47", "49"].find((d) => !starts.get(row.vendor).has(d));
    if (!free) continue;
    tried++;
    const got = gpu.matchName(`${name} ${free}00`, TABLE, 50);
    assert.equal(got.status, "choices", name);
    assert.ok(got.rows.some((r) => namesOf(r).some((n) => gpu.read(n).line.join(" ") === read.line.join(" "))), name);
  }
  assert.ok(tried > 5, tried);
});
