// Accessible names for parts of the page that Material builds in the browser (axe-core checks them):
// the search dialog, and each code block's button bar (otherwise many <nav>s share no name).
(function () {
  function label() {
    var search = document.querySelector(".md-search");
    if (search && !search.hasAttribute("aria-label")) search.setAttribute("aria-label", "Search");
    document.querySelectorAll(".md-code__nav:not([aria-label])").forEach(function (nav) {
      var pre = nav.closest("pre");
      var title = pre && pre.parentElement && pre.parentElement.querySelector(".filename");
      var number = Array.prototype.indexOf.call(document.querySelectorAll("pre"), pre) + 1;
      nav.setAttribute("aria-label", "Code block " + number + (title ? " (" + title.textContent + ")" : "") + " actions");
    });
  }
  new MutationObserver(label).observe(document.documentElement, { childList: true, subtree: true });
  label();
})();
