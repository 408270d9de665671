// Loaded as a plain, blocking script in <head>, before the page's modules (which may take seconds
// to arrive on a slow link): from first paint, a file dropped on the page never makes the browser
// open it in the tab (which would leave tokscope), and what the user drops or asks for before
// app.js runs is kept for it. app.js calls tokscopeIntake.take() when it wires its own handlers;
// from then on this script only keeps preventing the browser's default.
(function () {
  'use strict';
  var held = [];
  var taken = false;
  document.addEventListener('dragover', function (e) { e.preventDefault(); }, true);
  document.addEventListener('drop', function (e) {
    e.preventDefault();
    if (taken) return;
    var files = e.dataTransfer ? Array.prototype.slice.call(e.dataTransfer.files) : [];
    if (files.length) held.push({ files: files });
  }, true);
  document.addEventListener('click', function (e) {
    if (taken || !e.target || e.target.id !== 'example') return;
    held.push({ example: true });
  }, true);
  window.tokscopeIntake = {
    /** What arrived before app.js: [{files: File[]} | {example: true}], in order; once. */
    take: function () {
      taken = true;
      var out = held;
      held = [];
      return out;
    },
  };
}());
