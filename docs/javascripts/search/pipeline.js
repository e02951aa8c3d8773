/* The site search's query pipeline: how a reader's text is read before Material's search engine (lunr in
 * its worker) sees it, and how the sections it returns are ranked again. Pure functions, no page: the
 * browser loads this file through docs/overrides/partials/search_query.html (docs/javascripts/search/bridge.js
 * hands it Material's messages); Node's test runner loads it in tests/js/ (node --test tests/js/).
 *
 * A query goes through named stages, each a function of its input and the edition's vocabulary:
 *   normalise  a pasted message's paths, URLs and operator characters; model numbers split from letters
 *   dropFillers  Chinese particles and question fillers
 *   tokenise   words, per script: Latin words, and Han runs cut into the index's own words
 *   weight     each word's clause: required, whole (no wildcard), or with Material's wildcard
 *   expandEquivalents  the other forms of a wording the query holds (rules.equivalents)
 *   serialise  the terms as the engine's query text: the only stage that writes an operator, each term once
 * and the engine's answer through:
 *   rerank     sections by the share of the query's word pairs and runs they hold as written
 *   withGpuTable  a query naming a GPU of the GPU table (gpus.json) gets that table's section in the first three
 *   gpuQuestionFirst  a question about a GPU as a whole ("A卡能跑pytorch吗") gets the section on which route each
 *              GPU takes first (rules.gpu_question); the bridge applies it last, after holdersFirst
 *   chooserAnswer  a query naming a GPU (read by docs/javascripts/gpu/match.js) gets the chooser's answer on top
 *   inScoreOrder / holdersFirst  sections in one order, a page's run of sections an entry of its own
 * The data (equivalents, fillers, stop words, weights, each with why it is general) is
 * docs/javascripts/search/rules.json. The evaluation: tests/site/test_search_eval.py.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.guideSearch = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var HAN = /\p{sc=Han}/u;
  var HAN_ONLY = /^\p{sc=Han}+$/u;
  // A Han character that begins no indexed word (U+3007, which no page uses) ends each Chinese word sent to
  // Material: its segmenter never tries a run's last word whole, so "换源" alone was searched as "换*".
  var RUN_END = "\u3007";

  // ------------------------------------------------------------------ vocabulary (once per index)

  // What the edition's index holds: its Han words with their counts (for cutting a run the way jieba cut the
  // pages), every other word in lower case (for stems), the Han words of titles, and for each Han word the most
  // frequent longer words that hold it.
  function vocabulary(index, rules) {
    var separator = new RegExp(index.config.separator, "g");
    var zhStop = new Set(rules.zh_stop.words.split(" "));
    var han = new Map(), latin = new Set(), titled = new Set(), total = 1, longest = 1;
    index.docs.forEach(function (doc) {
      doc.title.split(separator).forEach(function (token) { if (HAN.test(token)) titled.add(token); });
      (doc.title + " " + doc.text).split(separator).forEach(function (token) {
        if (!token || zhStop.has(token)) return;
        if (!HAN_ONLY.test(token)) return latin.add(token.toLowerCase());
        han.set(token, (han.get(token) || 0) + 1);
        total++;
        if (token.length > longest) longest = token.length;
      });
    });
    var vocab = {
      han: han, latin: latin, sortedLatin: Array.from(latin).sort(), titled: titled, total: total, longest: longest,
      zhStop: zhStop, separator: separator, rules: rules
    };
    vocab.holders = holdersOf(vocab, rules.weights.related.value);
    return vocab;
  }

  // A longer word that holds a shorter one but means another thing (驱动器, a disk drive, holds 驱动, a driver):
  // neither is searched for the other (rules.distinct).
  function distinct(rules, word, part) {
    return (rules.distinct.pairs || []).some(function (pair) {
      return word.indexOf(pair[0]) >= 0 && pair[0].indexOf(part) >= 0 && part.length < pair[0].length;
    });
  }

  function holdersOf(vocab, most) {
    var holders = new Map();
    vocab.han.forEach(function (count, word) {
      if (vocab.titled.has(word)) return;
      for (var n = 2; n < word.length; n++) {
        for (var i = 0; i + n <= word.length; i++) {
          var part = word.slice(i, i + n);
          if (!vocab.han.has(part) || distinct(vocab.rules, word, part)) continue;
          var list = holders.get(part) || [];
          if (list.indexOf(word) < 0) list.push(word);
          holders.set(part, list);
        }
      }
    });
    holders.forEach(function (list) {
      list.sort(function (a, b) { return vocab.han.get(b) - vocab.han.get(a); });
      list.length = Math.min(list.length, most);
    });
    return holders;
  }

  // ------------------------------------------------------------------ normalise

  // A Windows path names the reader's own files: only its last part is kept, when it is a DLL or program. A
  // path with non-ASCII characters stays whole (such a path is a cause of its own). A URL is kept as its
  // host's words: its path names the reader's own package file.
  function dropPaths(text) {
    var words = text.split(/[\s'"\u2018\u2019]+/).filter(Boolean);
    if (words.length < 3) return text;
    text = text.replace(/\bhttps?:\/\/([A-Za-z0-9.-]+)[^\s'"]*/g, function (all, host) {
      return host.split(".").join(" ");
    });
    if (text.indexOf("\\") < 0) return text;
    return text.split(/[\s'"\u2018\u2019]+/).filter(Boolean).map(function (word) {
      if (word.indexOf("\\") < 0 || /[^\x00-\x7f]/.test(word)) return word;
      var last = word.split(/\\+/).pop();
      return /\.(?:dll|pyd|exe)$/i.test(last) ? last : "";
    }).filter(Boolean).join(" ");
  }

  // A model number glued to its letters is split as the pages write it ("RX580" -> "RX 580", "6700XT" ->
  // "6700 XT"), unless the index holds it glued ("A770", "780M"), and only where it stands as a word of its
  // own: inside a file name (cp310 in a wheel's name, joined by - _ or .) it is left alone.
  var MODEL = /(?<![A-Za-z0-9_.\-])(?:([A-Za-z]{1,3})(\d{3,4})([A-Za-z]{0,3})|(\d{3,4})([A-Za-z]{1,3}))(?![A-Za-z0-9_\-]|\.[A-Za-z0-9])/g;
  function splitModels(text, vocab) {
    return text.replace(MODEL, function (all, a, b, c, d, e) {
      if (vocab && vocab.latin.has(all.toLowerCase())) return all;
      if (d) return d + " " + e;
      return a + " " + b + (c ? " " + c : "");
    });
  }

  // A Windows error code (an HRESULT) printed as a signed decimal ("Unknown error -2147024809") is also searched
  // in the hexadecimal form that Windows' documentation and the pages write (0x80070057). A failure code has its
  // top bit set, so it prints negative; ten digits (-1000000000 to -2147483648) take in the codes of Windows'
  // facilities (0x8007..., 0x887A...) and leave out shorter numbers, more often lines, sizes or counts.
  function withHexCodes(text) {
    return text.replace(/(^|[^\w.-])-([12]\d{9})(?!\w|\.\d)/g, function (all, before, digits) {
      var value = Number(digits);
      if (value > 2147483648) return all;
      return all + " 0x" + (4294967296 - value).toString(16).toUpperCase();
    });
  }

  function normalise(text, vocab) {
    return withHexCodes(splitModels(dropPaths(text), vocab)).replace(/\s+/g, " ").trim();
  }

  // ------------------------------------------------------------------ dropFillers

  function dropFillers(text, rules) {
    var words = rules.fillers.words.concat(rules.question_words.words).sort(function (a, b) { return b.length - a.length; });
    var pattern = new RegExp(words.join("|"), "gu");
    return text.replace(pattern, " ");
  }

  // ------------------------------------------------------------------ tokenise

  // The longest path of index words through a run of Han characters, each word's probability its share of
  // all the edition's words (how jieba cut the pages); a character that begins no word is stepped over.
  function cutRun(run, vocab) {
    if (!vocab) return [run];
    var n = run.length, best = new Array(n + 1), next = new Array(n + 1), skip = Math.log(0.01 / vocab.total);
    best[n] = 0;
    for (var i = n - 1; i >= 0; i--) {
      best[i] = skip + best[i + 1];
      next[i] = -(i + 1);
      for (var j = i + 1; j <= Math.min(n, i + vocab.longest); j++) {
        var count = vocab.han.get(run.slice(i, j));
        if (!count) continue;
        var score = Math.log(count / vocab.total) + best[j];
        if (score > best[i]) { best[i] = score; next[i] = j; }
      }
    }
    var cut = [];
    for (var k = 0; k < n;) {
      if (next[k] < 0) { k = -next[k]; continue; }
      cut.push(run.slice(k, next[k]));
      k = next[k];
    }
    return cut;
  }

  // A Chinese piece: Han characters and the Latin words glued to them ("AMD显卡", "6700XT显卡").
  var PIECE = /[A-Za-z0-9]*\p{sc=Han}+(?:[A-Za-z0-9]+\p{sc=Han}+)*[A-Za-z0-9]*/gu;

  // The query's words, per script, and how the query was written. Each token: { text, script: "latin" |
  // "han", glued: in a Chinese piece }. A query of three words or more is pasted (a message); a query of at
  // most four words with at most two Chinese pieces is typed (its words are required).
  function tokenise(text, vocab) {
    var words = text.replace(/[:"~^*]/g, " ").split(/\s+/).filter(Boolean);
    var pasted = words.length >= 3;
    if (pasted) words = words.join(" ").replace(/['\u2018\u2019]/g, " ").split(/\s+/).filter(Boolean);
    // A pasted message's words of one or two letters match hundreds of words with Material's wildcard; one
    // before a number is a model's prefix ("RX 580") and stays.
    if (words.length >= 4) {
      var long = words.filter(function (word, i) {
        return !/^[A-Za-z]{1,2}$/.test(word) || /^\d/.test(words[i + 1] || "");
      });
      if (long.length) words = long;
    }
    // A single Latin letter or digit glued to Han ("A卡", "占用率为0") is left out: the index holds it apart,
    // and Material's wildcard on it would match every word on a. A single Han character between two Latin
    // words ("torch和torchvision") is a connective, left out too.
    var joined = words.join(" ")
      .replace(/([A-Za-z0-9])\p{sc=Han}(?=[A-Za-z0-9])/gu, "$1 ")
      .replace(/(^|[^A-Za-z0-9])[A-Za-z0-9](?=\p{sc=Han})/gu, "$1")
      .replace(/(\p{sc=Han})[A-Za-z0-9](?![A-Za-z0-9])/gu, "$1");
    var pieces = (joined.match(PIECE) || []).length;
    var tokens = [];
    joined.split(/\s+/).filter(Boolean).forEach(function (word) {
      if (!HAN.test(word)) return tokens.push({ text: word, script: "latin", glued: false });
      // A word holding Han characters: its pieces between punctuation, each cut where the script changes; a
      // Latin word touching Han characters is glued to them.
      word.split(/[^\p{L}\p{N}]+/u).filter(Boolean).forEach(function (segment) {
        if (!HAN.test(segment)) return tokens.push({ text: segment, script: "latin", glued: false });
        segment.replace(/([A-Za-z0-9])(?=\p{sc=Han})|(\p{sc=Han})(?=[A-Za-z0-9])/gu, "$1$2 ")
          .split(/\s+/).filter(Boolean).forEach(function (part) {
            if (!HAN_ONLY.test(part)) return tokens.push({ text: part, script: "latin", glued: true });
            cutRun(part, vocab).forEach(function (cut) { tokens.push({ text: cut, script: "han", glued: true }); });
          });
      });
    });
    return { tokens: tokens, pasted: pasted, typed: pieces > 0 && pieces <= 2 && words.length <= 4 };
  }

  // ------------------------------------------------------------------ weight

  // A word with an English ending that the index lacks as written is searched by its stem (four letters at
  // least), with Material's wildcard: the index holds words as written (no stemmer, two languages).
  var ENDING = /^(.{4,}?)(?:ies|ing|es|s)$/;

  // A word the index holds whose longer forms there are all its inflections (zero: zeros) keeps the wildcard.
  function inflectedOnly(word, vocab) {
    var sorted = vocab && vocab.sortedLatin;
    if (!sorted || word.length < 4) return false;
    var lo = 0, hi = sorted.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (sorted[mid] < word) lo = mid + 1; else hi = mid; }
    var longer = 0;
    for (var i = lo; i < sorted.length && sorted[i].slice(0, word.length) === word; i++) {
      var rest = sorted[i].slice(word.length);
      if (!rest) continue;
      if (!/^(?:s|es|d|ed|ing)$/.test(rest)) return false;
      longer++;
    }
    return longer > 0;
  }

  // A pasted word's clause: whole (Material's wildcard made "torch*" match torchvision, torch_directml ...),
  // by its stem when the index lacks it, with the wildcard when the index holds it only inflected.
  function latinTerm(word, vocab) {
    var lower = word.toLowerCase();
    var known = vocab && vocab.latin.has(lower);
    var m = !known && /^[a-z]+$/i.test(word) && word.length > 5 && !/ss$/i.test(word) && ENDING.exec(word);
    if (m) return { text: m[1], kind: "wildcard" };
    return { text: word, kind: known && inflectedOnly(lower, vocab) ? "wildcard" : "whole" };
  }

  // A camel-case word is searched whole and by its parts (TimeoutError: timeout, error), which prose spells as
  // words; its parts are optional.
  function exactTerms(word, vocab) {
    word = word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    if (!word) return [];
    var parts = word.split(/(?=[A-Z][a-z])/).filter(function (part) { return part.length > 2; });
    return [word].concat(parts.length > 1 ? parts : []).map(function (w) { return latinTerm(w, vocab); });
  }

  // Each token becomes terms { text, kind, han }: kind "required" (typed), "whole" (no wildcard), "wildcard"
  // (Material's), "run" (a Han word, optional). A short query typed by hand is left to Material as it is.
  function weight(reading, vocab) {
    var terms = [], related = [];
    reading.tokens.forEach(function (token) {
      if (token.script === "han") {
        var required = reading.typed && token.text.length > 1;
        terms.push({ text: token.text, kind: required ? "required" : "run", han: true });
        relatedWords(token.text, vocab).forEach(function (w) { related.push({ text: w, kind: "run", han: true }); });
      } else if (reading.typed && token.glued) {
        // Run again with its words optional (relaxed), it is read as a pasted word.
        var optional = /^[A-Za-z]{3,}$/.test(token.text) ? exactTerms(token.text, vocab)[0] : { kind: "wildcard" };
        terms.push({ text: token.text, kind: "required", han: false, relaxed: optional });
      } else if (token.glued ? !/^[A-Za-z]{3,}$/.test(token.text) : !reading.pasted) {
        terms.push({ text: token.text, kind: "wildcard", han: false });
      } else {
        exactTerms(token.text, vocab).forEach(function (t) { terms.push({ text: t.text, kind: t.kind, han: false }); });
      }
    });
    return terms.concat(related);
  }

  // The index's words of two or three characters inside a Chinese word, and the most frequent words that hold it.
  function relatedWords(word, vocab) {
    if (!vocab || word.length < 2) return [];
    var out = [];
    for (var n = 2; n <= 3 && n < word.length; n++) {
      for (var i = 0; i + n <= word.length; i++) {
        var part = word.slice(i, i + n);
        if (vocab.han.has(part) && out.indexOf(part) < 0 && !distinct(vocab.rules, word, part)) out.push(part);
      }
    }
    (vocab.holders.get(word) || []).forEach(function (w) { if (out.indexOf(w) < 0) out.push(w); });
    return out;
  }

  // ------------------------------------------------------------------ expandEquivalents

  function formPattern(form) {
    var escaped = form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "[\\s_-]*");
    return HAN.test(form) ? new RegExp(escaped) : new RegExp("(?:^|[^A-Za-z0-9])" + escaped + "(?![A-Za-z0-9])", "i");
  }

  // A query holding one form of an equivalence is searched for the other forms too, each word optional. On an
  // English page only the forms in Latin letters (the English pages hold no Chinese words).
  function expandEquivalents(text, rules, vocab, chinese) {
    var quiet = new Set(rules.quiet.words);
    var terms = [];
    rules.equivalents.forEach(function (entry) {
      var forms = entry.forms.map(function (form) { return { form: form, pattern: formPattern(form) }; });
      if (!forms.some(function (f) { return f.pattern.test(text); })) return;
      forms.forEach(function (f) {
        if (f.pattern.test(text) || (!chinese && HAN.test(f.form))) return;
        f.form.split(/[\s-]+/).forEach(function (word) {
          if (HAN.test(word)) {
            cutRun(word, vocab).forEach(function (w) { terms.push({ text: w, kind: "run", han: true }); });
          } else if (!quiet.has(word.toLowerCase()) && word.length > 1) {
            terms.push({ text: word, kind: "whole", han: false });
          }
        });
      });
    });
    return terms;
  }

  // ------------------------------------------------------------------ serialise

  // The characters lunr reads as operators: + and - (must, must not) at a term's start, : (field), ^ (boost),
  // ~ (edit distance), * (wildcard), \ (escape), and Material's ". In a term's text they are spaces.
  var OPERATOR = /[+\-:^~*\\"]/;
  var OPERATORS = /[+:^~*\\"]+|-+(?![A-Za-z0-9])|(?:^|(?<=[^A-Za-z0-9]))-+/g;

  function clean(text) {
    return text.replace(OPERATORS, " ").split(/\s+/).map(function (part) {
      return part.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    }).filter(Boolean);
  }

  function key(term) { return term.text.toLowerCase(); }

  // The terms as query text; each term once (lunr adds a clause's weight each time it comes), the first
  // occurrence kept. The operators here are the only ones the engine sees.
  function serialise(terms, relaxed) {
    var seen = new Set(), out = [];
    terms.forEach(function (term) {
      clean(term.text).forEach(function (text) {
        var t = { text: text, kind: term.kind, han: term.han };
        if (relaxed && term.relaxed) t = { text: term.relaxed.text || text, kind: term.relaxed.kind, han: false };
        if (seen.has(key(t))) return;
        seen.add(key(t));
        var kind = relaxed && t.kind === "required" ? "run" : t.kind;
        if (t.han) out.push(kind === "required" ? "+" + text + RUN_END + "*" : text + RUN_END);
        else if (kind === "required") out.push("+" + text);
        else if (kind === "whole") out.push(text + "^1");
        else out.push(text);
      });
    });
    return out.join(" ");
  }

  // ------------------------------------------------------------------ the query, all stages

  // { query, relaxed, required }: the query for the engine, the same with every word optional (null where no
  // word was required), and the required words in lower case.
  function rewrite(text, vocab, chinese) {
    var rules = vocab.rules;
    var normal = normalise(text, vocab);
    var reading = tokenise(dropFillers(normal, rules), vocab);
    var terms = weight(reading, vocab).concat(expandEquivalents(normal, rules, vocab, chinese));
    var required = terms.filter(function (t) { return t.kind === "required"; }).map(key);
    var query = serialise(terms, false);
    var relaxed = serialise(terms, true);
    return { query: query, relaxed: relaxed !== query ? relaxed : null, required: required };
  }

  // ------------------------------------------------------------------ the edition's index

  // Both editions share one index; each edition searches its own pages, with its own title weight.
  function thisEdition(index, chinese, rules) {
    var docs = index.docs.filter(function (doc) { return (doc.location.slice(0, 3) === "zh/") === chinese; });
    var boost = rules.weights.title[chinese ? "zh" : "en"];
    var fields = Object.assign({}, index.config.fields, { title: { boost: boost } });
    var edition = Object.assign({}, index, { docs: docs, config: Object.assign({}, index.config, { fields: fields }) });
    return sharedTitleWords(edition, boost, rules.weights.shared_title.value);
  }

  // A title's words that many of the edition's sections hold (more than `most`, a share of them) count as text,
  // not as title: "memory", "download", "use" in a title made a neighbour win on a message's commonest words.
  // The title keeps weight 1 (and is what a reader sees); its other words go to a field of their own, "heading",
  // which carries the rest of the title's weight.
  function sharedTitleWords(index, boost, most) {
    if (!most || boost <= 1) return index;
    var separator = new RegExp(index.config.separator, "g");
    var held = new Map();
    index.docs.forEach(function (doc) {
      new Set((doc.title + " " + doc.text).replace(/<[^>]*>/g, " ").toLowerCase().split(separator)).forEach(function (w) {
        if (w) held.set(w, (held.get(w) || 0) + 1);
      });
    });
    var limit = most * index.docs.length;
    var docs = index.docs.map(function (doc) {
      var own = doc.title.replace(/<[^>]*>/g, " ").split(separator).filter(function (w) {
        return w && (held.get(w.toLowerCase()) || 0) <= limit;
      });
      return Object.assign({}, doc, { heading: own.join(" ") });
    });
    var fields = Object.assign({}, index.config.fields, { title: { boost: 1 }, heading: { boost: boost - 1 } });
    return Object.assign({}, index, { docs: docs, config: Object.assign({}, index.config, { fields: fields }) });
  }

  // ------------------------------------------------------------------ rank

  function isSection(doc) { return doc.location.indexOf("#") >= 0; }
  function pageOf(doc) { return doc.location.split("#")[0]; }

  function sectionCount(items) {
    return items.reduce(function (n, group) { return n + group.filter(isSection).length; }, 0);
  }

  // The words of a text as the ranking reads them: HTML dropped, lower case, Han runs cut into index words.
  function tokens(text, vocab) {
    var out = [];
    text.replace(/<[^>]*>/g, " ").toLowerCase().split(vocab.separator).forEach(function (token) {
      if (!token) return;
      if (HAN_ONLY.test(token)) return cutRun(token, vocab).forEach(function (w) { out.push(w); });
      out.push(token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""));
    });
    return out.filter(function (t) { return t && !vocab.zhStop.has(t); });
  }

  // The runs of n neighbouring words of a list, leaving out those made of stop words only.
  function runsOf(list, n, stop) {
    var set = new Set();
    for (var i = 0; i + n <= list.length; i++) {
      var run = list.slice(i, i + n);
      if (run.every(function (w) { return stop.has(w); })) continue;
      set.add(run.join(" "));
    }
    return set;
  }

  // A section's evidence of holding the message as written: the shares of the query's word pairs, and of its
  // longer runs, that its own text holds as neighbours. `names`: the GPU table's names and aliases (gpus.json).
  function ranking(index, vocab, names) {
    var table = vocab.rules.gpu_table;
    var tableDoc = table && index.docs.filter(function (doc) { return doc.location.endsWith(table.section); })[0];
    return {
      vocab: vocab, docs: new Map(index.docs.map(function (doc) { return [doc.location, doc]; })), cache: new Map(),
      stop: new Set(vocab.rules.en_stop.words),
      backends: vocab.rules.backends.names.map(function (b) { return { name: b.name, pattern: new RegExp(b.pattern, "gi") }; }),
      gpus: names && names.length && tableDoc ? gpuNames(names) : null, gpuTable: tableDoc ? tableDoc.location : null
    };
  }

  // ------------------------------------------------------------------ GPU names

  // A model's word: a digit in it, three characters at least, not a memory size (16GB).
  function isModel(word) { return /\d/.test(word) && word.length >= 3 && !/^\d+gb$/.test(word); }

  function lowerWords(text) { return text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean); }

  // The GPU table's names as a query is read against them: the models' words (9070, 9070xt, 780m, a770), and the
  // words the names write just before a model's number (rx, rtx, arc, graphics) and just after it (xt, xtx, gre).
  function gpuNames(names) {
    var keys = new Set(), before = new Set(), after = new Set();
    names.forEach(function (name) {
      var words = lowerWords(name);
      words.forEach(function (word, i) {
        if (!isModel(word)) return;
        keys.add(word);
        if (/^[a-z]+$/.test(words[i - 1] || "")) before.add(words[i - 1]);
        if (/^[a-z]+$/.test(words[i + 1] || "")) after.add(words[i + 1]);
      });
    });
    return { keys: keys, before: before, after: after };
  }

  // Whether a query names a GPU of the table: a model's word glued to its letters (7900xtx, 780m, a770; rx580 by its
  // number), or a bare number of a model next to a word the names write beside it (RX 580, 7900 XTX) or in a short
  // typed query (a number alone in a pasted message is a line, a size or a code more often than a GPU).
  function namesGpu(text, gpus) {
    if (!gpus) return false;
    var words = lowerWords(text);
    return words.some(function (word, i) {
      if (!isModel(word)) return false;
      if (/[a-z]/.test(word)) return gpus.keys.has(word) || (/^[a-z]+\d+$/.test(word) && gpus.keys.has(word.replace(/^[a-z]+/, "")));
      if (!gpus.keys.has(word)) return false;
      return words.length <= 4 || gpus.before.has(words[i - 1]) || gpus.after.has(words[i + 1]);
    });
  }

  // The GPU table's section among the first `rank` sections, for a query that names a GPU: the table holds every
  // name and alias with its path (it is left out of the index: its 100 names would match any message naming a GPU),
  // and the sections above it keep their place. Missing from the answer, it is added, headed by its page.
  function withGpuTable(groups, location, rank, ctx) {
    var table = null, others = [];
    groups.forEach(function (group) {
      group.forEach(function (doc) {
        if (!isSection(doc)) return;
        if (doc.location === location) table = doc;
        else others.push(doc.score);
      });
    });
    others.sort(function (a, b) { return b - a; });
    var floor = others.length >= rank ? others[rank - 1] * (1 + 1e-6) : 0;
    if (table) {
      if (table.score >= floor) return groups;
      return groups.map(function (group) {
        return group.map(function (doc) { return doc.location === location ? Object.assign({}, doc, { score: floor }) : doc; });
      });
    }
    var source = ctx.docs.get(location), page = ctx.docs.get(pageOf({ location: location }));
    if (!source) return groups;
    var score = floor || (others.length ? others[others.length - 1] * 0.999 : 1);
    var added = [Object.assign({}, source, { score: score, terms: {} })];
    if (page) added.unshift(Object.assign({}, page, { score: score, terms: {} }));
    return groups.concat([added]);
  }

  // ------------------------------------------------------------------ a question about a GPU as a whole

  function formsPattern(forms) {
    var sorted = forms.slice().sort(function (a, b) { return b.length - a.length; });
    var alternatives = sorted.map(function (form) {
      var escaped = form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+");
      return HAN.test(form) ? escaped : "(?<![A-Za-z0-9])" + escaped + "(?![A-Za-z0-9])";
    });
    return new RegExp(alternatives.join("|"), "giu");
  }

  // Whether a query asks about a GPU as a whole: it names a GPU (a vendor, a word for a GPU, or a model of the GPU
  // table) and asks whether or how PyTorch runs, trains or installs on it, and holds no other word: no message,
  // no symptom, no other topic ("A卡能跑pytorch吗", "AMD显卡安装pytorch失败", "can I train on an intel gpu").
  // A brand with a model and nothing else ("锐炫 A750") asks about that GPU too.
  function asksAboutGpu(text, ctx) {
    var rules = ctx.vocab.rules, question = rules.gpu_question;
    if (!question) return false;
    var named = false, model = false, asked = false;
    var rest = text.toLowerCase().replace(formsPattern(question.gpus), function () { named = true; return " "; });
    var brand = named;
    rest = rest.replace(/[a-z]*\d[a-z0-9]*/g, function (word) {
      if (!namesGpu(word, ctx.gpus)) return word;
      named = model = true;
      return " ";
    });
    // the words the table's names write beside a model (RX 580, 7900 XTX)
    if (model) rest = rest.replace(/[a-z]+/g, function (word) { return ctx.gpus.before.has(word) || ctx.gpus.after.has(word) ? " " : word; });
    rest = rest.replace(formsPattern(question.asks), function () { asked = true; return " "; });
    var quiet = rules.fillers.words.concat(rules.question_words.words, rules.en_stop.words);
    rest = rest.replace(formsPattern(quiet), " ").replace(/[^\p{L}\p{N}]+/gu, "");
    return named && !rest && (asked || (brand && model));
  }

  // The section on which route each GPU takes, first, for a question about a GPU as a whole: the reader needs the
  // table of GPUs and routes, not a section of a message that happens to share the question's words. Missing from
  // the answer, it is added, headed by its page.
  function gpuQuestionFirst(groups, text, ctx) {
    var question = ctx && ctx.vocab.rules.gpu_question;
    if (!question || !asksAboutGpu(text, ctx)) return groups;
    // An edition's index holds its own pages only (thisEdition): the Chinese edition's are under zh/.
    var chinese = Array.from(ctx.docs.keys()).some(function (key) { return key.slice(0, 3) === "zh/"; });
    var location = (chinese ? "zh/" : "") + question.section;
    var source = ctx.docs.get(location);
    if (!source) return groups;
    var list = [], target = null, top = 0;
    groups.forEach(function (group) {
      var alone = group.every(function (doc) { return !isSection(doc); });
      group.forEach(function (doc) {
        top = Math.max(top, doc.score);
        if (doc.location === location) target = doc;
        else if (isSection(doc) || alone) list.push(doc);
      });
    });
    var first = Object.assign({}, target || source, { score: (top || 1) * (1 + 1e-6) }, target ? {} : { terms: {} });
    list.unshift(first);
    // The GPU table's section keeps its place among the first sections for a query naming a model (withGpuTable).
    var table = ctx.gpuTable && namesGpu(text, ctx.gpus) ? ctx.gpuTable : null;
    var at = list.findIndex(function (doc) { return doc.location === table; });
    var rank = ctx.vocab.rules.gpu_table.rank;
    if (at >= rank) list.splice(rank - 1, 0, list.splice(at, 1)[0]);
    var entries = pageEntries(groups);
    var page = ctx.docs.get(pageOf(source));
    if (!entries.has(pageOf(source)) && page) entries.set(pageOf(source), Object.assign({}, page, { terms: {} }));
    return entriesOf(list, entries);
  }

  // The back-ends a text names, each with how often.
  function backendsNamed(text, ctx) {
    var named = {};
    ctx.backends.forEach(function (b) {
      var n = (text.match(b.pattern) || []).length;
      if (n) named[b.name] = n;
    });
    return named;
  }

  // A section's back-ends: those its anchor names (the same in both editions: "rocm-integrated-gpu-first",
  // whose title names cuda:0); else the one its text names most, at least three times and more often than all
  // the others together. A section of no back-end (a Windows message) has none.
  function backendTags(source, ctx) {
    if (!source) return [];
    var anchor = Object.keys(backendsNamed(source.location.split("#")[1] || "", ctx));
    if (anchor.length) return anchor;
    var text = backendsNamed(source.text.replace(/<[^>]*>/g, " "), ctx);
    var names = Object.keys(text).sort(function (a, b) { return text[b] - text[a]; });
    var total = names.reduce(function (n, name) { return n + text[name]; }, 0);
    return names.length && text[names[0]] >= 3 && text[names[0]] > total - text[names[0]] ? [names[0]] : [];
  }

  // The back-ends a query names, or the guide's own (DirectML) where it names none.
  function wantedBackends(text, ctx) {
    var named = Object.keys(backendsNamed(text, ctx));
    return named.length ? named : [ctx.vocab.rules.backends.default];
  }

  // A query's runs of four Han characters.
  function hanRuns(text) {
    var out = new Set();
    (text.match(/\p{sc=Han}{4,}/gu) || []).forEach(function (run) {
      for (var i = 0; i + 4 <= run.length; i++) out.add(run.slice(i, i + 4));
    });
    return out;
  }

  function ownRuns(ctx, location) {
    var own = ctx.cache.get(location);
    if (!own) {
      var source = ctx.docs.get(location);
      var text = source ? source.title + " " + source.text : "";
      var list = tokens(text, ctx.vocab);
      own = {
        pairs: runsOf(list, 2, ctx.stop), runs: runsOf(list, 3, ctx.stop), tags: backendTags(source, ctx),
        plain: text.replace(/<[^>]*>/g, " ").replace(/\u200b/g, "")
      };
      ctx.cache.set(location, own);
    }
    return own;
  }

  // The share of the query's runs of three words and of four Han characters that a section holds as written.
  function runShare(runs, han, own) {
    var size = runs.size + han.size;
    if (!size) return 0;
    var held = 0;
    runs.forEach(function (run) { if (own.runs.has(run)) held++; });
    han.forEach(function (run) { if (own.plain.indexOf(run) >= 0) held++; });
    return held / size;
  }

  function share(wanted, own) {
    if (!wanted.size) return 0;
    var held = 0;
    wanted.forEach(function (run) { if (own.has(run)) held++; });
    return held / wanted.size;
  }

  // A page ranked by its best section, its own entry counted without the bonus Material gives it (its score
  // times 1 + (1 + c)^2, a section's times 1 + c^2, c the share of the query's words it holds).
  function rankOf(group) {
    return Math.max.apply(null, group.map(function (doc) {
      if (isSection(doc) || !doc.terms) return doc.score;
      var keys = Object.keys(doc.terms);
      var c = keys.length ? keys.filter(function (k) { return doc.terms[k]; }).length / keys.length : 0;
      return doc.score * (1 + c * c) / (1 + (1 + c) * (1 + c));
    }));
  }

  function rerank(items, text, ctx) {
    if (!ctx) return items;
    var table = namesGpu(text, ctx.gpus) ? ctx.gpuTable : null;
    if (!items.length && !table) return items;
    var list = tokens(text, ctx.vocab);
    var pairs = runsOf(list, 2, ctx.stop), runs = runsOf(list, 3, ctx.stop), han = hanRuns(text);
    var wanted = wantedBackends(text, ctx);
    var w = ctx.vocab.rules.weights;
    var groups = items.map(function (group) {
      return group.map(function (doc) {
        var own = ownRuns(ctx, doc.location);
        var factor = 1 + w.pairs.value * share(pairs, own.pairs) + w.runs.value * runShare(runs, han, own);
        var other = own.tags.length && !own.tags.some(function (tag) { return wanted.indexOf(tag) >= 0; });
        return Object.assign({}, doc, { score: doc.score * factor / (other ? 1 + w.backend.value : 1) });
      }).sort(function (a, b) { return b.score - a.score; });
    });
    if (table) groups = withGpuTable(groups, table, ctx.vocab.rules.gpu_table.rank, ctx);
    return inScoreOrder(groups.sort(function (a, b) { return rankOf(b) - rankOf(a); }));
  }

  function pageEntries(groups) {
    var entries = new Map();
    groups.forEach(function (group) {
      group.forEach(function (doc) { if (!isSection(doc)) entries.set(pageOf(doc), doc); });
    });
    return entries;
  }

  // Each run of one page's sections in a list becomes an entry, headed by a copy of the page's own entry.
  function entriesOf(list, entries) {
    var out = [], run = null;
    list.forEach(function (doc) {
      if (!run || pageOf(run[run.length - 1]) !== pageOf(doc)) out.push(run = []);
      run.push(doc);
    });
    return out.map(function (run) {
      var head = isSection(run[0]) && entries.get(pageOf(run[0]));
      return head ? [Object.assign({}, head, { score: run[0].score })].concat(run) : run;
    });
  }

  // Sections in the order of their scores, whatever their page; a page whose own entry is its only match
  // keeps its place.
  function inScoreOrder(groups) {
    var list = [];
    groups.forEach(function (group) {
      var alone = group.every(function (doc) { return !isSection(doc); });
      group.forEach(function (doc) {
        if (isSection(doc)) list.push(doc);
        else if (alone) list.push(Object.assign({}, doc, { score: rankOf([doc]) }));
      });
    });
    list.sort(function (a, b) { return b.score - a.score; });
    return entriesOf(list, pageEntries(groups));
  }

  function holdsAll(doc, words, ctx) {
    var source = ctx.docs.get(doc.location);
    var text = source ? (source.title + " " + source.text).replace(/<[^>]*>/g, " ").replace(/\u200b/g, "").toLowerCase() : "";
    return words.every(function (word) { return text.indexOf(word) >= 0; });
  }

  // A typed query run again with its words optional: the sections holding every required word as text (inside
  // a longer word too: 应用程序 holds 程序) first, in the order of their scores, then the rest.
  function holdersFirst(first, more, words, ctx) {
    var list = [], seen = new Set();
    more.concat(first).forEach(function (group) {
      group.forEach(function (doc) {
        if (!isSection(doc) || seen.has(doc.location)) return;
        seen.add(doc.location);
        list.push(doc);
      });
    });
    var all = list.filter(function (doc) { return holdsAll(doc, words, ctx); });
    all.sort(function (a, b) { return b.score - a.score; });
    var rest = list.filter(function (doc) { return !holdsAll(doc, words, ctx); });
    return entriesOf(all.concat(rest), pageEntries(more.concat(first)));
  }

  // The chooser's answer for a query that names a GPU or asks about a vendor's GPUs (rules.chooser_answer):
  // {href, text}, or null. `table` is the chooser's (javascripts/gpu/table.json), `matcher` match.js: the same
  // reading of a name as the chooser's. A model number of fewer digits ("Windows 10", "3.12") names no GPU.
  function chooserAnswer(text, table, matcher, rules, chinese) {
    var r = rules && rules.chooser_answer;
    if (!r || !table || !matcher) return null;
    var words = r[chinese ? "zh" : "en"], read = matcher.read(text);
    var numbered = read.model.some(function (w) { return (w.match(/[0-9]+/) || [""])[0].length >= r.min_digits; });
    if (numbered) {
      var a = matcher.answerFor(text, table);
      if (a.status !== "one" || !a.guide || a.guide.ask || !a.guide.path) return null;
      var label = function (b) { return words.labels[b] || b; };
      return {
        href: words.page + "?" + new URLSearchParams({ gpu: a.guide.name }).toString(),
        text: words.gpu.replace("{name}", a.device ? a.device.name : a.guide.name)
          .replace("{p11}", label(a.guide.path["11"])).replace("{p10}", label(a.guide.path["10"]))
      };
    }
    var lower = String(text).toLowerCase();
    var vendor = read.vendor || Object.keys(r.vendor_words).map(function (w) { return lower.indexOf(w) >= 0 ? r.vendor_words[w] : null; })
      .filter(Boolean)[0];
    return vendor && read.model.length === 0 ? { href: words.page, text: words.vendor } : null;
  }

  return {
    chooserAnswer: chooserAnswer,
    RUN_END: RUN_END, OPERATOR: OPERATOR,
    vocabulary: vocabulary, thisEdition: thisEdition,
    normalise: normalise, withHexCodes: withHexCodes, dropPaths: dropPaths, splitModels: splitModels, dropFillers: dropFillers,
    cutRun: cutRun, tokenise: tokenise, weight: weight, expandEquivalents: expandEquivalents,
    serialise: serialise, rewrite: rewrite,
    ranking: ranking, gpuNames: gpuNames, namesGpu: namesGpu, withGpuTable: withGpuTable,
    asksAboutGpu: asksAboutGpu, gpuQuestionFirst: gpuQuestionFirst, backendTags: backendTags, wantedBackends: wantedBackends, hanRuns: hanRuns, tokens: tokens, runsOf: runsOf, rerank: rerank, rankOf: rankOf,
    inScoreOrder: inScoreOrder, holdersFirst: holdersFirst, sectionCount: sectionCount
  };
});
