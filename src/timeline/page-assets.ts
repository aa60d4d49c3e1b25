/** The page's stylesheet: rows with a label column and a track where each bar sits at its time. */
export const PAGE_CSS = `
:root { font: 14px/1.4 system-ui, sans-serif; color: #1d232b; background: #fbfbfd; }
body { margin: 0 24px 48px; }
h1 { font-size: 20px; margin: 20px 0 4px; }
h2 { font-size: 15px; margin: 22px 0 6px; }
.meta { color: #555; margin: 0; }
.note { background: #fff6d5; border: 1px solid #e8d57a; padding: 6px 10px; border-radius: 4px; }
.legend span { display: inline-block; margin-right: 14px; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; vertical-align: middle; }
form { display: flex; gap: 14px; flex-wrap: wrap; margin: 12px 0; padding: 8px 10px; background: #eef1f6; border-radius: 4px; }
.row { display: grid; grid-template-columns: minmax(320px, 40%) 1fr; gap: 10px; padding: 3px 4px; border-bottom: 1px solid #eceef2; cursor: pointer; }
.row:hover, .row:focus { background: #f0f4ff; outline: none; }
.row.child .label { padding-left: 22px; }
.row.kind-prompt { font-weight: 600; background: #f4f6fa; }
.label { overflow: hidden; }
.title { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; display: block; }
.why { display: block; color: #6a2b2b; font-size: 12.5px; }
.outcome-ok .why, .outcome-running .why { color: #555; }
.rewritten { display: block; color: #7a4d00; font-size: 12.5px; }
.rewritten::before { content: "✎ "; }
.todos ul { list-style: none; padding-left: 8px; margin: 4px 0 12px; }
.todo-completed { color: #557; text-decoration: line-through; }
.todo-in_progress { font-weight: 600; }
.badge { display: inline-block; font-size: 11px; padding: 0 6px; border-radius: 8px; margin-right: 6px; color: #fff; background: #5b6b82; }
.track { position: relative; height: 20px; align-self: center; background: repeating-linear-gradient(90deg, transparent 0 9.9%, #e6e9ef 9.9% 10%); }
.bar { position: absolute; top: 3px; height: 14px; min-width: 2px; border-radius: 3px; background: #5b6b82; }
.dur { position: absolute; top: 1px; font-size: 11.5px; color: #333; white-space: nowrap; }
.kind-tool .bar { background: #3f7fd8; } .kind-model .bar { background: #8a63c9; } .kind-hook .bar { background: #36a57b; } .kind-prompt .bar { background: #aab4c3; }
.outcome-blocked .bar, .outcome-denied .bar, .outcome-blocked .badge, .outcome-denied .badge { background: #d0443c; }
.outcome-failed .bar, .outcome-timeout .bar, .outcome-failed .badge, .outcome-timeout .badge, .outcome-error .badge { background: #e08a1e; }
.outcome-ok .badge { background: #36a57b; } .outcome-running .badge { background: #8795a8; }
.payload { grid-column: 1 / -1; margin: 4px 0 6px; padding: 8px; background: #1f2430; color: #e8ecf3; border-radius: 4px; white-space: pre-wrap; word-break: break-word; max-height: 420px; overflow: auto; font: 12px/1.45 ui-monospace, monospace; }
.hidden { display: none; }
`;

/**
 * The page's script: the filters (event, tool, outcome, text) hide rows, and a click (or Enter)
 * on a row shows its payload. It only toggles classes and attributes of what the page already
 * holds, so nothing in a payload is ever parsed as HTML.
 */
export const PAGE_JS = `
(function () {
  var rows = Array.prototype.slice.call(document.querySelectorAll('.row'));
  var form = document.getElementById('filters');
  function apply() {
    var event = form.elements['event'].value, tool = form.elements['tool'].value, outcome = form.elements['outcome'].value;
    var text = form.elements['text'].value.toLowerCase();
    rows.forEach(function (row) {
      var show = (!event || row.dataset.event === event) &&
        (!tool || row.dataset.tool === tool) && (!outcome || row.dataset.outcome === outcome) &&
        (!text || row.textContent.toLowerCase().indexOf(text) >= 0);
      row.classList.toggle('hidden', !show);
    });
  }
  form.addEventListener('input', apply);
  form.addEventListener('submit', function (e) { e.preventDefault(); });
  rows.forEach(function (row) {
    function toggle() { var pre = row.querySelector('.payload'); if (pre) pre.hidden = !pre.hidden; }
    row.addEventListener('click', function (e) { if (!e.target.closest('.payload')) toggle(); });
    row.addEventListener('keydown', function (e) { if (e.key === 'Enter') toggle(); });
  });
})();
`;
