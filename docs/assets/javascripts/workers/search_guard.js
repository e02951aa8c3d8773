/* Material's search worker with one fault of the lunr it bundles mended. docs/javascripts/search/bridge.js
 * starts this file in place of Material's worker, with the worker's file name in ?worker=. Its path in docs/
 * is the worker's folder in the built site, so the paths the worker loads (../lunr/...) resolve as before.
 *
 * The fault (lunr 2.3.9, olivernn/lunr.js#279, open): the index's token set merges equal nodes by a key,
 * TokenSet.toString, that writes each edge as its character followed by the child's id, with nothing between.
 * With digits for characters two different nodes can share a key (an edge "1" to node 234, and edges "1" to
 * node 2 and "3" to node 4, both read "01234"), so they merge and the token set holds words the index does not.
 * A query that expands to one (a trailing wildcard) throws inside lunr, and Material's worker answers "Invalid
 * query" with no result at all. Seen in CI on 2026-12-04: on the Chinese edition "7*" expanded to "789".
 * The key below ends each edge with "," (a character is one code unit, an id only digits): no two nodes share it.
 * tests/js/search_guard.test.js runs Material's worker on such a word list, with and without this file.
 */
(function () {
  "use strict";
  var name = new URL(self.location.href).searchParams.get("worker") || "";
  if (!/^search\.[0-9a-f]+\.min\.js$/.test(name)) throw new Error("search_guard.js: not a search worker: " + name);
  importScripts(name);
  self.lunr.TokenSet.prototype.toString = function () {
    if (this._str) return this._str;
    var key = this.final ? "1" : "0", labels = Object.keys(this.edges).sort();
    for (var i = 0; i < labels.length; i++) key += labels[i] + this.edges[labels[i]].id + ",";
    return key;
  };
})();
