/* The one reader of GPU names and IDs: a name as Windows, a browser or a reader writes it, or a PCI device ID,
 * to the rows of the device table (snippets/gpu_devices.json, built by docs/hooks/data/devices/build.py from
 * the vendors' own tables). Pure functions, no page: the chooser (docs/javascripts/chooser.js) and the search
 * load it in the browser, Node's test runner in tests/js/gpu_match.test.js, and Python asks it through
 * docs/javascripts/gpu/match_cli.js. No other file reads a GPU name.
 *
 * A table is {devices: {"1002:73bf": [row, ...]}, rows: [row, ...]}: rows of the device table by PCI ID, and
 * rows without an ID (the guide's own, docs/hooks/data/gpus.yml). A row has name, aliases, vendor, target,
 * group and kind. A name is read as:
 *   vendor  from the words that say it (Radeon, GeForce, Arc ...), or none
 *   model   the model numbers with the letters that belong to them: "RX 7600M XT" is 7600mxt, "Arc A770" a770,
 *           "GTX 1650 Ti" 1650ti; a letter or suffix is part of the number, so 6800m is not 6800, nor 640 6400
 *   line    the other words that are not noise (Windows' (R), (TM), Graphics, GPU, Series, "16GB", the
 *           vendor's own name): "uhd", "iris", "xe", "vega", "pro" ...
 * and matched in four steps, the first that finds anything answering:
 *   1 exact   same vendor, model and line
 *   2 model   same model (a brand word more or less: "Radeon Pro W7900" is "W7900")
 *   3 part    the typed model is part of a longer one ("7900": the XTX, XT, GRE, M and W7900): choices
 *   4 near    no row has the model: the nearest families by number, to choose from
 *   5 words   nor any near number: the vendor's names without a number whose words it has ("HD Graphics")
 * The answer is one when every row found is one family (one gfx target or compute capability; for Intel,
 * whose back-ends do not depend on the platform, one family of the guide), else choices; steps 3, 4
 * and 5 always give choices. A name never gets another chip's target: at worst, the reader picks.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.guideGpuMatch = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // Words that name no chip: trademark signs once their brackets are gone, vendors' and brands' names, the
  // words Windows and the PCI ID Project add.
  var NOISE = new Set([
    "amd", "ati", "radeon", "nvidia", "geforce", "intel", "r", "tm", "graphics", "gpu", "series", "corporation",
    "with", "design", "generation", "adapter", "family", "the", "card", "chip", "processor", "edition"
  ]);
  // Words after a model number that are part of it (a different chip or a different card).
  var SUFFIXES = new Set([
    "xt", "xtx", "gre", "m", "s", "x", "ti", "super", "d", "laptop", "maxq", "le", "se", "oem", "e", "h", "hx",
    "u", "v", "t", "p", "dual", "sp"
  ]);
  var VENDOR_WORDS = {
    amd: ["amd", "ati", "radeon", "firepro", "instinct"],
    nvidia: ["nvidia", "geforce", "quadro", "rtx", "gtx", "titan", "tesla"],
    intel: ["intel", "arc", "iris", "uhd"],
    qualcomm: ["qualcomm", "adreno"],
    microsoft: ["microsoft"]
  };

  // The words of a name: lower case, trademark signs and sizes gone, "Max-Q" one word, "Mobile" as "laptop".
  function words(text) {
    var s = String(text || "").toLowerCase()
      .replace(/[\u2122\u00ae]/g, " ")
      .replace(/\((?:tm|r)\)/g, " ")
      .replace(/\b\d+\s*[gm]b\b/g, " ")
      .replace(/max-q/g, "maxq")
      .replace(/\bmobile\b/g, "laptop")
      // A brand's word glued to its number is a word of its own: "RX7600", "RTX4090", "UHD630", "Vega8".
      .replace(/\b(rx|[a-z]{3,})(?=[0-9])/g, "$1 ");
    return s.match(/[a-z0-9]+/g) || [];
  }

  var DIGIT = /[0-9]/;

  /* A name as {vendor, model, line}: model and line sorted, so that word order does not matter. */
  function read(text) {
    var all = words(text), vendor = null;
    Object.keys(VENDOR_WORDS).forEach(function (v) {
      if (!vendor && all.some(function (w) { return VENDOR_WORDS[v].indexOf(w) >= 0; })) vendor = v;
    });
    var kept = all.filter(function (w) { return !NOISE.has(w); });
    var model = [], line = [];
    for (var i = 0; i < kept.length; i++) {
      var w = kept[i];
      if (DIGIT.test(w)) {
        // A word of one or two letters just before a number is its prefix ("MX 450", "HD 7900": not the RX 7900);
        // "RX" stays a word of the line: "RX 7800M" (RDNA 3) is not the "Radeon 7800M Series" of 2012.
        var prev = line.length && i > 0 && kept[i - 1] === line[line.length - 1] ? line[line.length - 1] : null;
        if (prev && prev.length <= 2 && prev !== "rx" && /^[0-9]/.test(w)) { line.pop(); w = prev + w; }
        while (i + 1 < kept.length && SUFFIXES.has(kept[i + 1])) w += kept[++i];
        model.push(w);
      } else line.push(w);
    }
    return { vendor: vendor, model: model.sort(), line: line.sort() };
  }

  function familyOf(row) {
    if (row.vendor === "intel" && row.group) return "intel:" + row.group;
    return row.vendor + ":" + (row.target || row.group || row.name);
  }

  var INDEX = typeof WeakMap === "function" ? new WeakMap() : null;

  /* Every row of the table with each of its names read. */
  function index(table) {
    var cached = INDEX && INDEX.get(table);
    if (cached) return cached;
    var entries = [];
    var add = function (row) {
      [row.name].concat(row.aliases || []).forEach(function (name) {
        var r = read(name);
        r.vendor = row.vendor;
        entries.push({
          row: row, name: name, model: r.model.join(" "), line: r.line.join(" "), numbers: r.model,
          cores: r.model.map(core).filter(Boolean)
        });
      });
    };
    Object.keys(table.devices || {}).forEach(function (id) { table.devices[id].forEach(add); });
    (table.rows || []).forEach(add);
    var idx = { entries: entries, exact: new Map(), model: new Map(), byRow: new Map(), byNumber: new Map() };
    var put = function (map, key, e) {
      if (!map.has(key)) map.set(key, []);
      if (map.get(key).indexOf(e) < 0) map.get(key).push(e);
    };
    entries.forEach(function (e) {
      // By each number, and by its length and first two digits: where steps 3 and 4 look.
      e.cores.forEach(function (c) {
        put(idx.byNumber, c.digits, e);
        put(idx.byNumber, c.digits.length + ":" + c.digits.slice(0, 2), e);
      });
      if (!idx.byRow.has(e.row)) idx.byRow.set(e.row, []);
      idx.byRow.get(e.row).push(e);
      var k1 = e.row.vendor + "|" + e.model + "|" + e.line;
      if (!idx.exact.has(k1)) idx.exact.set(k1, []);
      idx.exact.get(k1).push(e);
      if (e.model) {
        if (!idx.model.has(e.model)) idx.model.set(e.model, []);
        idx.model.get(e.model).push(e);
      }
    });
    if (INDEX) INDEX.set(table, idx);
    return idx;
  }

  function unique(entries) {
    var seen = [];
    entries.forEach(function (e) { if (seen.indexOf(e.row) < 0) seen.push(e.row); });
    return seen;
  }

  function answer(rows, always) {
    if (!rows.length) return { status: "none", rows: [] };
    var families = new Set(rows.map(familyOf));
    return { status: !always && families.size === 1 ? "one" : "choices", rows: rows };
  }

  // The part of a model word that is a number, and the letters before it: "a770m" is ["a", 770].
  function core(word) {
    var m = /^([a-z]*)([0-9]+)/.exec(word);
    return m ? { prefix: m[1], digits: m[2] } : null;
  }

  // Whether a typed model word is part of a row's: the same number, the row's letters before it if the typed
  // word has none, and the typed letters after it among the row's, in order ("7900" of "7900xtx" and "w7900",
  // "1660laptop" of "1660tilaptop"); never other digits ("640" is no part of "6400").
  function partOf(typed, word) {
    var t = /^([a-z]*)([0-9]+)(.*)$/.exec(typed), w = /^([a-z]*)([0-9]+)(.*)$/.exec(word);
    if (!t || !w || t[2] !== w[2] || (t[1] && t[1] !== w[1])) return false;
    var at = 0;
    for (var i = 0; i < t[3].length; i++) {
      at = w[3].indexOf(t[3].charAt(i), at) + 1;
      if (!at) return false;
    }
    return true;
  }

  /* The rows a name names: {status: "one" | "choices" | "none", rows}. */
  function matchName(text, table, limit) {
    var typed = read(text), idx = index(table), max = limit || 8;
    var sameVendor = function (e) { return !typed.vendor || e.row.vendor === typed.vendor; };
    var model = typed.model.join(" "), line = typed.line.join(" ");
    if (!model && !line && !typed.vendor) return answer([]);
    // 1 exact; a bare model number ("7800M", "AMD Radeon 7800M") goes to step 2, which weighs every row that
    // has it: the RX 7800M of 2024 and the Radeon 7800M Series of 2012 alike
    var vendors = typed.vendor ? [typed.vendor] : Object.keys(VENDOR_WORDS);
    var exact = [];
    if (line || !model) {
      vendors.forEach(function (v) { exact = exact.concat(idx.exact.get(v + "|" + model + "|" + line) || []); });
    }
    if (exact.length) return answer(unique(exact));
    if (!model) {
      // No number: the names whose line holds every typed word ("Iris Xe" for "Intel Iris Xe MAX"), to choose.
      var lines = typed.line.length ? idx.entries.filter(function (e) {
        return sameVendor(e) && typed.line.every(function (w) { return e.line.split(" ").indexOf(w) >= 0; });
      }) : [];
      return answer(unique(lines).slice(0, max), true);
    }
    // 2 model
    var same = (idx.model.get(model) || []).filter(sameVendor);
    if (same.length) return answer(unique(same));
    // 3 part
    var first = typed.model.map(core).filter(Boolean)[0];
    var part = (first ? idx.byNumber.get(first.digits) || [] : []).filter(function (e) {
      return sameVendor(e) && e.numbers.length >= typed.model.length && typed.model.every(function (t) {
        return e.numbers.some(function (w) { return partOf(t, w); });
      });
    });
    if (part.length) return answer(nearest(unique(part), typed, idx).slice(0, max), true);
    // 4 near: the typed number's first two digits and its letters, one row per family
    var main = typed.model.map(core).filter(Boolean).sort(function (a, b) { return b.digits.length - a.digits.length; })[0];
    if (!main || main.digits.length < 2) return answer([]);
    var near = (idx.byNumber.get(main.digits.length + ":" + main.digits.slice(0, 2)) || []).filter(function (e) {
      return sameVendor(e) && e.cores.some(function (c) {
        return c.prefix === main.prefix && c.digits.length === main.digits.length &&
          c.digits.slice(0, 2) === main.digits.slice(0, 2);
      });
    });
    var byFamily = new Map();
    nearest(unique(near), typed, idx).forEach(function (row) {
      if (!byFamily.has(familyOf(row))) byFamily.set(familyOf(row), row);
    });
    if (byFamily.size) return answer(Array.from(byFamily.values()).slice(0, Math.min(max, 4)), true);
    // 5 the vendor's names without a number whose words the typed name has ("Intel(R) HD Graphics" for an
    // "HD Graphics 4600" older than the table), to choose
    if (!typed.vendor) return answer([]);
    var said = typed.line.concat(typed.model.map(core).filter(Boolean).map(function (c) { return c.prefix; }));
    var generic = idx.entries.filter(function (e) {
      return e.row.vendor === typed.vendor && !e.model && e.line &&
        e.line.split(" ").every(function (w) { return said.indexOf(w) >= 0; });
    });
    generic.sort(function (a, b) { return b.line.length - a.line.length; }); // the most words in common first
    return answer(unique(generic).slice(0, Math.min(max, 4)), true);
  }

  // Rows in order of how close their number is to the typed one (a number with other letters before it last).
  function nearest(rows, typed, idx) {
    var want = typed.model.map(core).filter(Boolean)[0];
    if (!want) return rows;
    var distance = function (row) {
      var best = Infinity;
      (idx.byRow.get(row) || []).forEach(function (e) {
        e.cores.forEach(function (c) {
          best = Math.min(best, Math.abs(Number(c.digits) - Number(want.digits)) + (c.prefix === want.prefix ? 0 : 1e6));
        });
      });
      return best;
    };
    return rows.map(function (r, i) { return [distance(r), i, r]; })
      .sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; })
      .map(function (x) { return x[2]; });
  }

  /* The rows of a PCI device ID ("1002", "73bf", and the revision "c1" or null): the revision's own rows
   * where the table has them, else every row of the device. */
  function matchId(vendorHex, deviceHex, revHex, table) {
    var hex = function (h) { return String(h == null ? "" : h).toLowerCase().replace(/^0x/, ""); };
    var pad = function (h, n) { h = hex(h); while (h.length < n) h = "0" + h; return h; };
    var rows = (table.devices || {})[pad(vendorHex, 4) + ":" + pad(deviceHex, 4)] || [];
    if (revHex != null && revHex !== "") {
      var rev = pad(revHex, 2);
      var own = rows.filter(function (r) { return r.rev === rev; });
      if (own.length) rows = own;
    }
    return answer(rows.slice());
  }

  var PARTS = typeof WeakMap === "function" ? new WeakMap() : null;

  /* The guide's answer for a name, from the chooser's table: {rows: the guide's own GPUs (gpus.yml), devices:
   * the device table's rows, each with `like`, the guide's GPU whose answer is its own (same target or
   * family), or none where the guide decides nothing}. The guide's own names first: a name of gpus.yml is
   * what the guide decided for it. Then the vendors' names. Returns {status, guide: the guide's row or null,
   * device: the device's row or null, rows: the rows to choose from}. */
  function answerFor(text, table) {
    var parts = PARTS && PARTS.get(table);
    if (!parts) {
      var byName = new Map();
      (table.rows || []).forEach(function (row) { byName.set(row.name, row); });
      parts = { guide: { rows: table.rows || [] }, devices: { devices: table.devices || {} }, byName: byName };
      if (PARTS) PARTS.set(table, parts);
    }
    var own = matchName(text, parts.guide);
    if (own.status === "one") {
      var ask = own.rows.filter(function (r) { return r.ask; });
      return { status: "one", guide: ask[0] || own.rows[0], device: null, rows: own.rows };
    }
    var found = matchName(text, parts.devices);
    if (found.status === "one") {
      var device = found.rows[0];
      return { status: "one", guide: device.like ? parts.byName.get(device.like) || null : null, device: device, rows: found.rows };
    }
    var names = new Set(), rows = [];
    own.rows.concat(found.rows).forEach(function (row) {
      if (!names.has(row.name)) { names.add(row.name); rows.push(row); }
    });
    return { status: rows.length ? "choices" : "none", guide: null, device: null, rows: rows.slice(0, 8) };
  }

  return {
    read: read, words: words, familyOf: familyOf, matchName: matchName, matchId: matchId, partOf: partOf,
    answerFor: answerFor
  };
});
