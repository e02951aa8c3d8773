// A pasted error message is searchable as it is. Material's search hands the query to lunr, whose
// parser reads "word:" as a field name, and Material turns a part in double quotes into terms that
// must all match: a message holding "at::DeviceType", "...-gnu.so:" or a quoted Windows path then
// found nothing. The site's search separator splits words at ":" and '"' anyway, so both are turned
// into spaces before the search reads the box (tests/test_site_browser.py).
document.addEventListener("input", function (event) {
  var box = event.target;
  if (!box.classList || !box.classList.contains("md-search__input") || !/[:"]/.test(box.value)) return;
  var at = box.selectionStart;
  box.value = box.value.replace(/[:"]/g, " ");
  box.setSelectionRange(at, at);
}, true);
