// The game page (htmx): a form marked data-swap-errors shows its refusal (409, 422) in the page,
// as it does without JavaScript, instead of htmx's default of showing nothing for an error.
document.addEventListener("htmx:beforeSwap", function (event) {
  var detail = event.detail, status = detail.xhr.status;
  if ((status === 409 || status === 422) && detail.requestConfig.elt.closest("[data-swap-errors]")) {
    detail.shouldSwap = true;
    detail.isError = false;
  }
});
