// A pasted error message is searchable as it is. Material's search hands the query to lunr, whose
// parser reads "word:" as a field name: a message holding "at::DeviceType" or "...-gnu.so:" then made
// the whole search fail with no result. The site's search separator splits words at ":" anyway, so
// colons are turned into spaces before the search reads the box (tests/test_site_browser.py).
document.addEventListener("input", function (event) {
  var box = event.target;
  if (!box.classList || !box.classList.contains("md-search__input") || box.value.indexOf(":") < 0) return;
  var at = box.selectionStart;
  box.value = box.value.replace(/:/g, " ");
  box.setSelectionRange(at, at);
}, true);
