// The site's search (Sphinx's searchtools.js), made to find rules the way readers ask:
// * a rule ID or an example number (BEAT-3, BEAT-3.2) shows its section, not every page
//   that mentions it (any other page stays one search away by adding a word);
// * a result's snippet is the page's own text with spaces between cells, items and
//   headings, without the page's table of contents and the Python of the examples.
(function () {
  var ID = /^[A-Z]+-\d+(\.\d+[A-Z]?)?$/;
  var LEAVE_OUT = ".headerlink, script, style, svg, .bd-header-article, .bd-sidebar-secondary, .onlyprint, " +
                  ".bd-toc, nav, .durak-python, .toctree-wrapper";
  var BLOCKS = "p, li, td, th, dt, dd, h1, h2, h3, h4, h5, h6, figcaption, pre, tr, br, " +
               "div, summary, article";

  // Several words a player would type ("ace of trumps", "transfer back") find the rule
  // sections whose titles hold them all (a plural matching its singular), the titles that
  // hold them as one phrase first.
  var STOP = new Set(["a", "an", "the", "of", "to", "in", "on", "and", "or", "is", "it"]);
  function words(text) {
    return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(function (w) {
      return w && !STOP.has(w);
    }).map(function (w) { return w.length > 3 ? w.replace(/s$/, "") : w; });
  }
  function bySectionTitle(query) {
    var asked = words(query);
    if (asked.length < 2) return [];
    var phrase = query.trim().toLowerCase();
    var index = Search._index, found = [];
    Object.entries(index.alltitles).forEach(function (entry) {
      var title = entry[0], has = new Set(words(title));
      if (!asked.every(function (w) { return has.has(w); })) return;
      var score = (title.toLowerCase().includes(phrase) ? 2000 : 1000) - title.length;
      entry[1].forEach(function (place) {
        var file = place[0], id = place[1];
        if (id === null) return;
        found.push([index.docnames[file], index.titles[file] + " > " + title, "#" + id,
                    null, score, index.filenames[file]]);
      });
    });
    return found.sort(function (a, b) { return a[4] - b[4]; });
  }

  function patch() {
    if (typeof Search === "undefined") return;  // not the search page
    var perform = Search._performSearch;
    Search._performSearch = function (query) {
      var results = perform.apply(Search, arguments);
      var wanted = query.trim().toUpperCase();
      if (ID.test(wanted)) {
        var exact = results.filter(function (r) {
          return String(r[2]).toUpperCase() === "#" + wanted;
        });
        return exact.length ? exact : results;
      }
      // Results are shown from the end of the list: the sections found by their titles go
      // last, the best of them at the very end.
      var sections = bySectionTitle(query);
      var shown = new Set(sections.map(function (r) { return r[5] + r[2]; }));
      return results.filter(function (r) { return !shown.has(r[5] + r[2]); }).concat(sections);
    };
    Search.htmlToText = function (htmlString, anchor) {
      var page = new DOMParser().parseFromString(htmlString, "text/html");
      page.querySelectorAll(LEAVE_OUT).forEach(function (el) { el.remove(); });
      page.querySelectorAll(BLOCKS).forEach(function (el) { el.append(" "); });
      var main = page.querySelector('[role="main"]');
      // By id, not a CSS selector: "#BEAT-3.2" is not a valid one.
      var target = anchor ? page.getElementById(decodeURIComponent(anchor.slice(1))) : null;
      var found = (target && main && main.contains(target)) ? target : main;
      return found ? found.textContent.replace(/\s+/g, " ") : "";
    };
  }

  document.addEventListener("DOMContentLoaded", patch);
})();
