/* Hands the site search's pipeline (docs/javascripts/search/pipeline.js) what the page's search does: the
 * index on its way to Material's search worker, each query on its way there, and each answer on its way
 * back. Loaded by docs/overrides/partials/search_query.html before Material's bundle, so it is in place
 * before the bundle starts its worker. The search box keeps exactly what the reader typed or pasted.
 *
 * The boundary with Material (pinned in pyproject.toml): its worker's messages SETUP (0, the index), QUERY
 * (2, the query text) and RESULT (3, the groups of sections found), a const enum of its source
 * (src/templates/assets/javascripts/integrations/search/worker/message/index.ts), not a public interface;
 * tests/site/test_search_eval.py and the search tests of tests/site/ hold it. Material ends on 2027-05-05.
 */
(function () {
  "use strict";
  var SETUP = 0, QUERY = 2, RESULT = 3;
  var pipeline = window.guideSearch;
  var chinese = document.documentElement.lang === "zh";
  var SHOWN = 3, FEW = 3, rules = null, gpuNames = [];
  var here = document.currentScript.src;
  // The data (docs/javascripts/search/rules.json), beside this script; requested now, long before the index
  // (which waits for the first paint), and waited for by the worker's messages.
  var ready = fetch(new URL("rules.json", here)).then(function (response) {
    return response.json();
  }).then(function (data) {
    rules = data;
    SHOWN = rules.weights.shown.value;
    FEW = rules.weights.few.value;
    // The GPU table's names (gpus.json, written beside this script at build time by docs/hooks/guide/gpu_pages.py).
    return fetch(new URL(rules.gpu_table.names, here)).then(function (response) { return response.json(); });
  }).then(function (names) {
    if (Array.isArray(names)) gpuNames = names;
  }).catch(function () {});  // without its data the search runs as Material's own
  // The chooser's table (javascripts/gpu/table.json, docs/hooks/guide/gpu_chooser.py): a query naming a GPU
  // gets the chooser's answer above the results. Requested at the first answer, not with every page (it is
  // the size of the vendors' device tables); without it the search runs as before.
  var chooserTable = null, tableAsked = false, lastText = "";

  // The chooser's answer above the results, for the query just answered (or none).
  function showChooser(text) {
    lastText = text;
    if (!chooserTable) {
      if (!tableAsked) {
        tableAsked = true;
        fetch(new URL("../gpu/table.json", here)).then(function (response) { return response.json(); })
          .then(function (table) { chooserTable = table; showChooser(lastText); }).catch(function () {});
      }
      return;
    }
    var box = document.getElementById("guide-search-chooser");
    var answer = pipeline.chooserAnswer(text, chooserTable, window.guideGpuMatch, rules, chinese);
    if (!answer) { if (box) box.remove(); return; }
    var meta = document.querySelector(".md-search-result__meta");
    if (!meta) return;
    if (!box) {
      box = document.createElement("p");
      box.id = "guide-search-chooser";
      box.className = "guide-search-chooser";
      meta.parentNode.insertBefore(box, meta.nextSibling);
    }
    var link = document.createElement("a");
    link.href = new URL(answer.href, new URL("../../", here)).href;
    link.textContent = answer.text;
    box.replaceChildren(link);
  }

  // A page's top sections are shown, not one: Material folds the rest under "N more on this page"; the first
  // folded ones move out of the fold, in their order, and the fold keeps the rest with its count corrected.
  function unfold(more) {
    var item = more.parentNode;
    var shown = item.querySelectorAll(":scope > a").length - 1;  // the page's own link is not a section
    var folded = more.querySelectorAll(":scope > a");
    for (var i = 0; i < folded.length && shown < SHOWN; i++, shown++) item.insertBefore(folded[i], more);
    var left = more.querySelectorAll(":scope > a").length;
    if (!left) return more.remove();
    var label = more.querySelector("summary div");
    if (label) label.textContent = label.textContent.replace(/\d+/, String(left));
  }

  new MutationObserver(function (records) {
    records.forEach(function (record) {
      record.addedNodes.forEach(function (node) {
        if (node.nodeType !== 1) return;
        if (node.matches("details.md-search-result__more")) unfold(node);
        else node.querySelectorAll("details.md-search-result__more").forEach(unfold);
      });
    });
  }).observe(document.documentElement, { childList: true, subtree: true });

  // The index (both editions, about 600 KB) is requested once the page has painted: on a phone's slow link it
  // competed with the page's first render.
  var open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url) {
    this.searchIndex = /\/search\/search_index\.json$/.test(String(url));
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    var request = this, args = arguments;
    if (!request.searchIndex) return send.apply(request, args);
    function afterPaint() {
      requestAnimationFrame(function () { setTimeout(function () { send.apply(request, args); }, 0); });
    }
    if (document.readyState === "complete") afterPaint();
    else window.addEventListener("load", afterPaint, { once: true });
  };

  // Material's search worker starts as search_guard.js, which sits beside it in the built site (from
  // docs/assets/javascripts/workers/), loads it and mends a fault of its lunr that listed nothing for some queries.
  var NativeWorker = window.Worker;
  window.Worker = function (url, options) {
    var href = new URL(String(url), document.baseURI);
    var name = href.pathname.split("/").pop();
    if (/^search\.[0-9a-f]+\.min\.js$/.test(name)) href = new URL("search_guard.js?worker=" + name, href);
    return new NativeWorker(href.href, options);
  };
  window.Worker.prototype = NativeWorker.prototype;

  var vocab = null, ranking = null;
  // The query on its way: its text, its rewrite, and the strict answer held while the relaxed query runs.
  var asked = null, held = null;

  // Every message to a worker waits for the data, in the order the messages were sent.
  var post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function () {
    var worker = this, args = Array.prototype.slice.call(arguments);
    ready = ready.then(function () { rewritten.apply(worker, args); });
  };

  function rewritten(message) {
    var args = Array.prototype.slice.call(arguments);
    if (!rules) return post.apply(this, args);
    if (message && message.type === SETUP && message.data && Array.isArray(message.data.docs)) {
      var index = pipeline.thisEdition(message.data, chinese, rules);
      vocab = pipeline.vocabulary(index, rules);
      ranking = pipeline.ranking(index, vocab, gpuNames);
      args[0] = { type: SETUP, data: index };
    } else if (message && message.type === QUERY && typeof message.data === "string" && vocab) {
      asked = Object.assign({ text: message.data }, pipeline.rewrite(message.data, vocab, chinese));
      held = null;
      args[0] = { type: QUERY, data: asked.query };
    }
    return post.apply(this, args);
  }

  // A typed Chinese query whose required words find fewer than FEW sections is run again with its words
  // optional; the sections holding every required word come first.
  var listen = Worker.prototype.addEventListener;
  Worker.prototype.addEventListener = function (type, listener) {
    var worker = this, args = Array.prototype.slice.call(arguments);
    if (type === "message" && typeof listener === "function") {
      args[1] = function (event) {
        var data = event.data;
        var result = data && data.type === RESULT && data.data && Array.isArray(data.data.items) && asked;
        if (!result) return listener.apply(this, arguments);
        if (asked.relaxed && !held && pipeline.sectionCount(data.data.items) < FEW) {
          held = pipeline.rerank(data.data.items, asked.text, ranking);
          return post.call(worker, { type: QUERY, data: asked.relaxed });
        }
        var items = pipeline.rerank(data.data.items, asked.text, ranking);
        if (held) items = pipeline.holdersFirst(held, items, asked.required, ranking);
        items = pipeline.gpuQuestionFirst(items, asked.text, ranking);
        held = null;
        asked = Object.assign({}, asked, { relaxed: null });
        var scored = Object.assign({}, data, { data: Object.assign({}, data.data, { items: items }) });
        var text = asked.text;
        var shown = listener.call(this, new MessageEvent("message", { data: scored }));
        showChooser(text);
        return shown;
      };
    }
    return listen.apply(this, args);
  };
})();
