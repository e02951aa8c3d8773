// Two things Material leaves to the browser that readers of long code pages need.
//
// 1. Accessible names for parts of the page that Material builds in the browser (axe-core checks them):
//    the search dialog, and each code block's button bar (otherwise many <nav>s share no name).
//    Material adds the bars one block at a time, so the names are given at most once a frame, each bar
//    numbered from one list of the page's <pre>s: linear in the number of code blocks (numbering each
//    bar by searching every <pre> on every change was quadratic: 320 ms of main thread on the
//    training page). The names are in the page's language: English, or Chinese on the Chinese
//    edition (<html lang="zh">).
// 2. A link to a heading lands on it. extra.css lets the browser skip code blocks and the chooser's
//    table of every GPU while they are off screen (content-visibility: auto), so it places a heading
//    below them from estimated heights; once the blocks above render, the heading moves (8,000 px on
//    the training page). The blocks above the link's target are laid out before scrolling to it; the
//    blocks below it stay skipped.
(function () {
  var queued = false;
  var chinese = document.documentElement.lang === "zh";

  function blockName(number, title) {
    return chinese
      ? "代码块 " + number + (title ? "（" + title + "）" : "") + " 的操作"
      : "Code block " + number + (title ? " (" + title + ")" : "") + " actions";
  }

  function label() {
    queued = false;
    var search = document.querySelector(".md-search");
    if (search && !search.hasAttribute("aria-label")) search.setAttribute("aria-label", chinese ? "搜索" : "Search");
    var navs = document.querySelectorAll(".md-code__nav:not([aria-label])");
    if (!navs.length) return;
    var numbers = new Map();
    document.querySelectorAll("pre").forEach(function (pre, index) {
      numbers.set(pre, index + 1);
    });
    navs.forEach(function (nav) {
      var pre = nav.closest("pre");
      var title = pre && pre.parentElement && pre.parentElement.querySelector(".filename");
      var number = numbers.get(pre) || 0;
      nav.setAttribute("aria-label", blockName(number, title && title.textContent));
    });
  }

  function labelSoon() {
    if (queued) return;
    queued = true;
    requestAnimationFrame(label);
  }

  new MutationObserver(labelSoon).observe(document.documentElement, { childList: true, subtree: true });
  label();

  // Where land() last scrolled, while the reader has not scrolled or clicked since (then null).
  var landedAt = null;

  function target() {
    var id = location.hash.slice(1);
    if (!id) return null;
    try {
      id = decodeURIComponent(id);
    } catch (error) {
      return null;
    }
    return document.getElementById(id);
  }

  function land() {
    var heading = target();
    if (!heading) return;
    document.querySelectorAll(".md-typeset div.highlight, .md-typeset .gpu-table").forEach(function (block) {
      if (block.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING) {
        block.style.contentVisibility = "visible";
      }
    });
    heading.scrollIntoView();
    landedAt = window.scrollY;
  }

  // The page may still change height after landing (Material finishes tabs and copy buttons at
  // DOMContentLoaded, a block just below the heading renders taller than its estimate): land again
  // each time, until the reader scrolls, clicks or types, or 3 s after the page has loaded.
  function stay() {
    if (landedAt !== null && Math.abs(window.scrollY - landedAt) < 2) land();
  }
  function leave() {
    landedAt = null;
  }
  ["wheel", "touchstart", "mousedown", "keydown"].forEach(function (type) {
    window.addEventListener(type, leave, { passive: true, capture: true });
  });
  window.addEventListener("hashchange", land);
  if (target()) {
    var watch = new ResizeObserver(stay);
    watch.observe(document.body);
    window.addEventListener("load", function () {
      stay();
      setTimeout(function () {
        watch.disconnect();
      }, 3000);
    });
    document.addEventListener("DOMContentLoaded", stay);
    land();
  }
})();
