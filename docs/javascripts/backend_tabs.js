// The reader's back-end follows them from page to page.
//
// Set-up, PyCharm, verification and training have one content tab per back-end, labelled exactly
// "DirectML", "ROCm", "XPU", "CUDA" and "CPU" in both editions. With content.tabs.link (mkdocs.yml),
// Material opens every later page on the tab the reader last clicked: it keeps the labels, newest
// first, as JSON in localStorage under "<scope path>.__tabs", where the scope is the site's root
// (__md_get / __md_set in Material's partials/javascripts/base.html; the list is written in
// components/content/tabs/index.ts and read back by partials/javascripts/content.html, which checks,
// in each set of tabs, the first label of the list that the set has).
//
// window.guideSelectBackend(label) stores a choice the same way, so the chooser (docs/javascripts/
// chooser.js) can pick the reader's tab before they have seen one, and switches this page's tabs too.
// The chooser's page loads chooser.js before this script (both deferred, in page order): an answer it gives
// on loading (a shared link, the home page's form) is left in window.guideBackendWanted and stored here.
(function () {
  var LABELS = ["DirectML", "ROCm", "XPU", "CUDA", "CPU"];
  var KEY = "__tabs";

  function labelText(label) {
    return (label.innerText || label.textContent || "").trim();
  }

  // Material's own helpers (partials/javascripts/base.html defines them in every page's head): the
  // same key, scope and format as Material's linked tabs. Without them there is no Material to restore
  // a tab, so nothing is stored.
  function read() {
    try {
      var tabs = typeof window.__md_get === "function" ? window.__md_get(KEY) : null;
      return Array.isArray(tabs) ? tabs : [];
    } catch (error) {
      return []; // storage blocked (a browser's privacy setting): nothing remembered
    }
  }

  function write(tabs) {
    if (typeof window.__md_set === "function") window.__md_set(KEY, tabs); // it catches a refusal itself
  }

  // This page's tabs: in each set that has the label, check it, marked as Material marks a tab it
  // switches itself (data-md-switching), so Material neither scrolls nor stores it again.
  function switchHere(name) {
    var sets = document.querySelectorAll(".tabbed-set");
    for (var s = 0; s < sets.length; s++) {
      var labels = sets[s].querySelectorAll(":scope > .tabbed-labels > label");
      for (var l = 0; l < labels.length; l++) {
        if (labelText(labels[l]) !== name) continue;
        var input = document.getElementById(labels[l].htmlFor);
        if (input && !input.checked) {
          labels[l].setAttribute("data-md-switching", "");
          input.click();
        }
        break;
      }
    }
  }

  window.guideSelectBackend = function (label) {
    var name = String(label || "").trim();
    if (LABELS.indexOf(name) < 0) return false;
    // The other back-ends leave the list: a set of tabs without this one opens on its first tab.
    var tabs = read().filter(function (tab) {
      return LABELS.indexOf(tab) < 0;
    });
    write([name].concat(tabs));
    switchHere(name);
    return true;
  };
  if (window.guideBackendWanted) window.guideSelectBackend(window.guideBackendWanted);
})();
