// Two things Material leaves to the browser that readers of long code pages need.
//
// 1. An accessible name for the search dialog, which Material builds in the browser (axe-core checks
//    it), in the page's language: English, or Chinese on the Chinese edition (<html lang="zh">). The
//    code blocks' button bars are named in the built page (docs/hooks/guide/code_buttons.py).
// 2. A link to a heading lands on it. extra.css lets the browser skip code blocks and the chooser's
//    list of every GPU (each entry) while they are off screen (content-visibility: auto), so it places a heading
//    below them from estimated heights; once the blocks above render, the heading moves (8,000 px on
//    the training page). The blocks above the link's target are laid out before scrolling to it; the
//    blocks below it stay skipped.
(function () {
  var chinese = document.documentElement.lang === "zh";

  function nameSearch() {
    var search = document.querySelector(".md-search");
    if (search && !search.hasAttribute("aria-label")) search.setAttribute("aria-label", chinese ? "搜索" : "Search");
  }

  nameSearch();
  document.addEventListener("DOMContentLoaded", nameSearch);

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
    document.querySelectorAll(".md-typeset div.highlight, .md-typeset .gpu-table li").forEach(function (block) {
      if (block.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING) {
        block.style.contentVisibility = "visible";
      }
    });
    heading.scrollIntoView();
    landedAt = window.scrollY;
  }

  // The page may still change height after landing (Material finishes tabs at DOMContentLoaded, and
  // sets code blocks up as they come into view; a block just below the heading renders taller than
  // its estimate): land again each time, until the reader scrolls, clicks or types, or 3 s after the
  // page has loaded.
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
