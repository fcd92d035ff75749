// A club night's page, after live.js: the next turn's seating follows the ranking.
(function () {
  "use strict";
  if (!window.htmx) return;

  // The next turn's seating (#next-seating) carries the order of the ranking it was drawn from
  // (data-order, the server's key; so does the live part's ranking). When the live part comes back
  // with another order, the seating is fetched again (its URL keeps the organiser's method, tables
  // and seed) — unless the organiser has moved someone or typed a name: what they chose stays, and
  // the line with « propose again » is shown. A seating with the focus in it waits until it is left.
  function edited(event) {
    var part = event.target.closest && event.target.closest("#next-seating");
    if (!part || !event.target.closest("[data-seating]")) return;
    part.dataset.edited = "1";
    if (part.dataset.liveStale) part.querySelector("[data-ranking-moved]").hidden = false;  // moved while in it
  }
  document.addEventListener("change", edited);
  document.addEventListener("input", edited);
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.detail.elt || event.detail.elt.id !== "night-live") return;
    // the turn over: the next may start
    if (document.querySelector("#night-live [data-turn-over]")) document.querySelectorAll("[data-turn-waits], [data-start-round]").forEach(function (el) { el.hidden = el.hasAttribute("data-turn-waits"); });
    var ranking = document.querySelector("#night-live [data-order]"), part = document.getElementById("next-seating");
    if (ranking && part && ranking.dataset.order !== part.dataset.order) htmx.trigger(part, "refresh");
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var part = event.detail.elt;
    if (part.id !== "next-seating") return;
    var held = part.contains(document.activeElement);
    if (part.dataset.edited || held) event.preventDefault();
    if (part.dataset.edited) part.querySelector("[data-ranking-moved]").hidden = false;
    else if (held) part.dataset.liveStale = "1";  // fetched once left (live.js)
  });
})();
