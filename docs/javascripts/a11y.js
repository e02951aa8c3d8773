// Accessible names for parts of the page that Material builds in the browser (axe-core checks them):
// the search dialog, and each code block's button bar (otherwise many <nav>s share no name).
// The names are in the page's language: English, or Chinese on the Chinese edition (<html lang="zh">).
(function () {
  var chinese = document.documentElement.lang === "zh";
  function blockName(number, title) {
    return chinese
      ? "代码块 " + number + (title ? "（" + title + "）" : "") + " 的操作"
      : "Code block " + number + (title ? " (" + title + ")" : "") + " actions";
  }
  function label() {
    var search = document.querySelector(".md-search");
    if (search && !search.hasAttribute("aria-label")) search.setAttribute("aria-label", chinese ? "搜索" : "Search");
    document.querySelectorAll(".md-code__nav:not([aria-label])").forEach(function (nav) {
      var pre = nav.closest("pre");
      var title = pre && pre.parentElement && pre.parentElement.querySelector(".filename");
      var number = Array.prototype.indexOf.call(document.querySelectorAll("pre"), pre) + 1;
      nav.setAttribute("aria-label", blockName(number, title && title.textContent));
    });
  }
  new MutationObserver(label).observe(document.documentElement, { childList: true, subtree: true });
  label();
})();
