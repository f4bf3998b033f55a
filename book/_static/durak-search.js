// The site's search (Sphinx's searchtools.js), made to find rules the way readers ask:
// * a rule ID or an example number (BEAT-3, BEAT-3.2) shows its section, not every page
//   that mentions it (any other page stays one search away by adding a word);
// * a result's snippet is the page's own text with spaces between cells, items and
//   headings, without the page's table of contents and the Python of the examples.
(function () {
  var ID = /^[A-Z]+-\d+(\.\d+[A-Z]?)?$/;
  var LEAVE_OUT = ".headerlink, script, style, svg, .bd-header-article, .bd-sidebar-secondary, .onlyprint, " +
                  ".bd-toc, nav, .durak-python, .toctree-wrapper";
  var BLOCKS = "p, li, td, th, dt, dd, h1, h2, h3, h4, h5, h6, figcaption, pre, tr, br";

  function patch() {
    if (typeof Search === "undefined") return;  // not the search page
    var perform = Search._performSearch;
    Search._performSearch = function (query) {
      var results = perform.apply(Search, arguments);
      var wanted = query.trim().toUpperCase();
      if (!ID.test(wanted)) return results;
      var exact = results.filter(function (r) { return String(r[2]).toUpperCase() === "#" + wanted; });
      return exact.length ? exact : results;
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
