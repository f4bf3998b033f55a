// Open the folded block ("more examples", "the Python of this example") that holds the
// element a link points to, so that #BEAT-3.2 shows example BEAT-3.2 even when it is folded.
(function () {
  function reveal() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    if (!id) return;
    var target = document.getElementById(id);
    if (!target) return;
    for (var e = target; e; e = e.parentElement) {
      if (e.tagName === "DETAILS") e.open = true;
    }
    target.scrollIntoView();
  }
  window.addEventListener("hashchange", reveal);
  document.addEventListener("DOMContentLoaded", reveal);
})();
